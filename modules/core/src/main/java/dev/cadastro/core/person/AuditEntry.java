package dev.cadastro.core.person;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Purpose;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One delivered person lookup in the audit trail: who asked (account and key), why (purpose and the
 * justification recorded), about whom (a keyed hash, never the CPF or phone), what was released, the
 * request and the time. Written in the same transaction as the lookup's charge; never updated.
 *
 * @param keyPrefix the public prefix of the API key that received the data
 * @param subjectKind {@code CPF} or {@code TELEFONE}
 * @param subjectHash the keyed hash of the subject ({@link SubjectDigests})
 * @param fields the top-level dossier fields released, sorted
 * @param requestId the request that delivered the data
 * @param chargeKey the ledger key of the charge this row pairs with (one row per charge)
 */
public record AuditEntry(
        AccountId account,
        String keyPrefix,
        Purpose purpose,
        Justification justification,
        String subjectKind,
        SubjectDigests.Digest subjectHash,
        List<String> fields,
        String requestId,
        String chargeKey,
        Instant at) {
    public AuditEntry {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(justification, "justification");
        Objects.requireNonNull(subjectKind, "subjectKind");
        Objects.requireNonNull(subjectHash, "subjectHash");
        fields = List.copyOf(fields);
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(chargeKey, "chargeKey");
        Objects.requireNonNull(at, "at");
    }
}
