package dev.cadastro.core.credit;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.document.TaxId;
import java.time.Instant;
import java.util.Objects;

/**
 * A credit report an account fetched from the bureau, kept for that account alone.
 *
 * @param fetchedAt when the bureau answered; the cache serves it until 7 days after
 */
public record CachedReport(AccountId account, TaxId document, CreditReport report, Instant fetchedAt) {
    public CachedReport {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(fetchedAt, "fetchedAt");
    }
}
