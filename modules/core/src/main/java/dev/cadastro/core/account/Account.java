package dev.cadastro.core.account;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A customer account. Balances are not here: they live in the ledger ({@code
 * dev.cadastro.core.ledger.Ledger}), which alone may change them.
 *
 * @param id the store's identity
 * @param name who the account belongs to, for operators
 * @param plan the plan, whose daily request limit admission enforces
 * @param apiEnabled false when an operator disabled the API for the account ({@code API_DESATIVADA})
 * @param accreditation the LGPD accreditation that enrichment needs
 * @param purposes the person-lookup purposes the account contracted, each with the dossier fields it
 *     releases; a purpose absent here answers {@code FINALIDADE_NAO_CONTRATADA}
 * @param defaultJustification the audit justification used when a request sends none or an invalid one
 * @param personBatchLimit the contracted ceiling of a batch person lookup (default {@value
 *     #DEFAULT_PERSON_BATCH_LIMIT})
 * @param companyBatchLimit the contracted ceiling of a batch CNPJ lookup, {@code POST /v1/empresas/lote}
 *     (default {@value #DEFAULT_COMPANY_BATCH_LIMIT})
 * @param createdAt when the account was created
 */
public record Account(
        AccountId id,
        String name,
        Plan plan,
        boolean apiEnabled,
        AccreditationStatus accreditation,
        Map<Purpose, Set<String>> purposes,
        Optional<String> defaultJustification,
        int personBatchLimit,
        int companyBatchLimit,
        Instant createdAt) {

    /** The default person-batch ceiling, used when the account's contract sets none. */
    public static final int DEFAULT_PERSON_BATCH_LIMIT = 100;

    /** The default company-batch ceiling, used when the account's contract sets none. */
    public static final int DEFAULT_COMPANY_BATCH_LIMIT = 1000;

    /** The largest company-batch ceiling an operator may set. */
    public static final int MAX_COMPANY_BATCH_LIMIT = 10_000;

    /** The longest account name the store keeps. */
    public static final int MAX_NAME_LENGTH = 200;

    private static final Pattern FIELD_NAME = Pattern.compile("[a-z][a-z0-9_.\\[\\]]{0,63}");

    public Account {
        Objects.requireNonNull(id, "id");
        requireValidName(name);
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(accreditation, "accreditation");
        Objects.requireNonNull(purposes, "purposes");
        purposes.forEach((purpose, fields) -> requireValidFields(purpose, fields));
        purposes = Map.copyOf(purposes);
        Objects.requireNonNull(defaultJustification, "defaultJustification");
        if (personBatchLimit < 1) {
            throw new IllegalArgumentException("person batch limit " + personBatchLimit + " must be at least 1");
        }
        if (companyBatchLimit < 1) {
            throw new IllegalArgumentException("company batch limit " + companyBatchLimit + " must be at least 1");
        }
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** Checks an account name: 1 to {@value #MAX_NAME_LENGTH} characters, not blank. */
    public static String requireValidName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "account name '" + name + "' must have 1 to " + MAX_NAME_LENGTH + " characters");
        }
        return name;
    }

    /**
     * Checks the dossier fields a purpose releases: at least one, each a lower-case name such as
     * {@code nome} or {@code enderecos.cep}.
     */
    public static Set<String> requireValidFields(Purpose purpose, Set<String> fields) {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(fields, "fields");
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("purpose " + purpose + " must release at least one field");
        }
        for (String field : fields) {
            if (field == null || !FIELD_NAME.matcher(field).matches()) {
                throw new IllegalArgumentException(
                        "field '" + field + "' of purpose " + purpose + " must match " + FIELD_NAME.pattern());
            }
        }
        return Set.copyOf(fields);
    }

    /** Whether bureau enrichment is allowed. */
    public boolean accredited() {
        return accreditation == AccreditationStatus.APPROVED;
    }
}
