package dev.cadastro.core.overview;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.ratelimit.Admitted;
import dev.cadastro.core.ratelimit.RateLimitWindow;
import java.util.Objects;

/**
 * Use case: an account's overview for the key that asks ({@code GET /v1/conta}). Any valid key may ask;
 * it is free. Today's use comes from the admission that let this request in (the same count the
 * {@code X-RateLimit-*-Day} headers report, this request included); the balances from one read of the
 * store.
 */
public final class AccountOverviewService {
    private final AccountFunds funds;

    public AccountOverviewService(AccountFunds funds) {
        this.funds = Objects.requireNonNull(funds, "funds");
    }

    /** The overview of the admitted key's account. */
    public AccountOverview overview(Admitted admitted) {
        Principal principal = admitted.principal();
        RateLimitWindow day = admitted.decision().day();
        return new AccountOverview(
                funds.funds(principal.accountId()),
                principal.account().plan().name(),
                day.limit(),
                day.limit() - day.remaining(),
                principal.key().prefix(),
                principal.scopes(),
                principal.key().personLookupReleased(),
                principal.account().purposes().keySet());
    }
}
