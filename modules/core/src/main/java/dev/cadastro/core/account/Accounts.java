package dev.cadastro.core.account;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Port: where accounts live. Every change is immediately visible to the next request on every
 * server sharing the store. Methods that address an account throw {@link
 * dev.cadastro.core.error.NotFoundException} when it does not exist.
 */
public interface Accounts {

    /** Creates an account with a pending accreditation, no purposes and zero balances. */
    Account create(String name, Plan plan);

    Optional<Account> find(AccountId id);

    /** The account, or {@link dev.cadastro.core.error.NotFoundException}. */
    default Account require(AccountId id) {
        return find(id).orElseThrow(() -> new dev.cadastro.core.error.NotFoundException(
                dev.cadastro.core.error.Message.ACCOUNT_NOT_FOUND.with(id)));
    }

    /** Every account, by id. */
    List<Account> list();

    Account setPlan(AccountId id, Plan plan);

    /** Enables or disables the API for the account ({@code API_DESATIVADA} while disabled). */
    Account setApiEnabled(AccountId id, boolean enabled);

    Account setAccreditation(AccountId id, AccreditationStatus status);

    /** Contracts a purpose with the fields it releases, replacing any earlier field set of that purpose. */
    Account contractPurpose(AccountId id, Purpose purpose, Set<String> fields);

    /** Ends the contract of a purpose; later lookups with it answer {@code FINALIDADE_NAO_CONTRATADA}. */
    Account removePurpose(AccountId id, Purpose purpose);

    /** Sets (or clears, with empty) the account's default audit justification. */
    Account setDefaultJustification(AccountId id, Optional<String> justification);

    Account setPersonBatchLimit(AccountId id, int limit);

    /**
     * Sets the contracted ceiling of {@code POST /v1/empresas/lote}, 1 to {@value
     * Account#MAX_COMPANY_BATCH_LIMIT}.
     */
    Account setCompanyBatchLimit(AccountId id, int limit);
}
