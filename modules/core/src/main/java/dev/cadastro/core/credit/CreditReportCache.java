package dev.cadastro.core.credit;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import java.time.Instant;
import java.util.Optional;

/**
 * Port: each account's cache of the credit reports it fetched (a repeat within 7 days is served from it).
 * Entries are personal data: they are kept per account and document,
 * one entry each (the latest fetch), and purged once no rule can serve them.
 */
public interface CreditReportCache {

    /** The account's latest fetch of the document, if it was at or after {@code notBefore}. */
    Optional<CachedReport> find(AccountId account, TaxId document, Instant notBefore);

    /**
     * Charges a fresh report and keeps it as the account's latest fetch of the document, in one
     * transaction: either both happen or neither.
     *
     * @throws dev.cadastro.core.ledger.InsufficientCreditsException when the balance does not cover the
     *     charge; nothing is kept
     */
    ChargeResult chargeAndKeep(ChargeRequest charge, CachedReport report);

    /** Deletes every entry fetched before {@code cutoff}; returns how many. */
    int purgeFetchedBefore(Instant cutoff);
}
