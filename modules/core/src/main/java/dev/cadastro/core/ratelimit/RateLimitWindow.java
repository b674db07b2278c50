package dev.cadastro.core.ratelimit;

/**
 * One limit as the response headers report it.
 *
 * @param limit requests allowed in the window
 * @param remaining requests still allowed after this one (0 when exhausted)
 * @param resetEpochSeconds when the window ends and the count starts again, in epoch seconds
 */
public record RateLimitWindow(long limit, long remaining, long resetEpochSeconds) {
    public RateLimitWindow {
        if (limit < 0 || remaining < 0 || remaining > limit) {
            throw new IllegalArgumentException(
                    "rate-limit window limit=" + limit + " remaining=" + remaining + " breaks 0 <= remaining <= limit");
        }
    }
}
