package dev.cadastro.core.ratelimit;

import dev.cadastro.core.account.Principal;
import java.util.Objects;

/**
 * A request that may proceed: who sent it, and both rate-limit windows after it was counted.
 *
 * @param principal the authenticated caller
 * @param decision the windows, for the {@code X-RateLimit-*} headers
 */
public record Admitted(Principal principal, RateLimitDecision decision) {
    public Admitted {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(decision, "decision");
    }
}
