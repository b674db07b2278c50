package dev.cadastro.http;

import dev.cadastro.core.ratelimit.RateLimitDecision;
import dev.cadastro.core.ratelimit.RateLimitExceededException;
import dev.cadastro.core.ratelimit.RateLimitWindow;

/**
 * The rate-limit header fields: {@code X-RateLimit-Limit}, {@code -Remaining} and {@code -Reset}
 * (epoch seconds) for the key's minute, the same three with a {@code -Day} suffix for the plan's
 * daily window, and {@code Retry-After} (seconds) on a refusal. The contract leaves the exact
 * names open; these are ours.
 */
public final class RateLimitHeaders {
    private RateLimitHeaders() {}

    /** The six window fields of an admitted request. */
    public static Headers of(RateLimitDecision decision) {
        Headers.Builder b = Headers.builder();
        window(b, "", decision.minute());
        window(b, "-Day", decision.day());
        return b.build();
    }

    /** The window fields of a refused request plus {@code Retry-After}. */
    public static Headers of(RateLimitExceededException refusal) {
        return of(refusal.decision()).with("Retry-After", Long.toString(refusal.retryAfterSeconds()));
    }

    private static void window(Headers.Builder b, String suffix, RateLimitWindow window) {
        b.add("X-RateLimit-Limit" + suffix, Long.toString(window.limit()));
        b.add("X-RateLimit-Remaining" + suffix, Long.toString(window.remaining()));
        b.add("X-RateLimit-Reset" + suffix, Long.toString(window.resetEpochSeconds()));
    }
}
