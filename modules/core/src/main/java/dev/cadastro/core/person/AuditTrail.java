package dev.cadastro.core.person;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import java.time.Instant;
import java.util.List;

/**
 * Port: the append-only audit trail of person lookups, whose rows commit in the same transaction as
 * the charges they pair with (one row per charge, one charge per row). Adapters refuse updates and
 * deletes of rows.
 */
public interface AuditTrail {

    /**
     * Charges and writes the audit row in one transaction. A repeat of the charge's key is a ledger
     * replay and writes no second row.
     *
     * @throws AuditUnavailableException when the row could not be written: nothing was charged
     * @throws dev.cadastro.core.ledger.InsufficientCreditsException when the balance does not cover it
     */
    ChargeResult chargeAndRecord(ChargeRequest charge, AuditEntry entry);

    /**
     * Charges and records several lookups in one transaction, in order, until the balance runs out: the
     * result has one charge per item charged, a prefix of {@code items}; the items after it were not
     * charged (and are not recorded).
     *
     * @throws AuditUnavailableException when a row could not be written: nothing at all was charged
     */
    List<ChargeResult> chargeAndRecordAll(List<Paid> items);

    /** One lookup to charge and record. */
    record Paid(ChargeRequest charge, AuditEntry entry) {}

    /** The rows of an account in {@code [from, to)}, oldest first, at most {@code limit}. */
    List<AuditRecord> list(AccountId account, Instant from, Instant to, int limit);
}
