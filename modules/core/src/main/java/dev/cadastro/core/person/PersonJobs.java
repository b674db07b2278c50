package dev.cadastro.core.person;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import java.time.Instant;
import java.util.Optional;

/**
 * Port: the async person jobs. Each method is one transition of {@link PersonJob}, applied by the store
 * as one conditional statement (or one transaction), so concurrent reads of a new job make one claim,
 * one delivery and one charge. No method holds a database lock while the caller talks to the bureau.
 */
public interface PersonJobs {

    /** Stores a new pending job. */
    void create(PersonJob job);

    /** The account's job with this id; empty for an unknown id or another account's job. */
    Optional<PersonJob> find(AccountId account, String id);

    /**
     * Applies {@code claimed} (a {@link PersonJob#claim} of {@code seen}) if the job is still as the
     * caller saw it and has not expired at {@code now}; empty when another read changed it first.
     */
    Optional<PersonJob> claim(PersonJob seen, PersonJob claimed, Instant now);

    /** Applies a release; false when the claim was lost meanwhile. */
    boolean release(PersonJob released, String claim);

    /** Applies a no-data finish; false when the claim was lost meanwhile. */
    boolean finishWithoutData(PersonJob finished, String claim);

    /**
     * In one transaction: the charge, the audit row and the delivery (the subject erased).
     *
     * @throws AuditUnavailableException when the audit row could not be written (nothing changed)
     * @throws dev.cadastro.core.ledger.InsufficientCreditsException when the balance does not cover it
     * @throws IllegalStateException when the claim was lost meanwhile (nothing changed)
     */
    ChargeResult deliver(PersonJob delivered, String claim, ChargeRequest charge, AuditEntry entry);

    /** Deletes jobs that expired unread before {@code cutoff}, and finished jobs created before it. */
    int purge(Instant cutoff);
}
