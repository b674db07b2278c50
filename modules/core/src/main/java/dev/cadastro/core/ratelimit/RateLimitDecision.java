package dev.cadastro.core.ratelimit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The state of both limits after a request was counted.
 *
 * @param minute the key's per-minute window
 * @param day the account's daily window (calendar day in America/Sao_Paulo)
 */
public record RateLimitDecision(RateLimitWindow minute, RateLimitWindow day) {
    public RateLimitDecision {
        Objects.requireNonNull(minute, "minute");
        Objects.requireNonNull(day, "day");
    }

    /**
     * The response headers: {@code X-RateLimit-Limit}, {@code -Remaining} and {@code -Reset} (epoch
     * seconds) for the per-minute window, and the same three with a {@code -Day} suffix for the plan's
     * daily window. The specification leaves the exact names open; these are ours.
     */
    public Map<String, String> headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-RateLimit-Limit", Long.toString(minute.limit()));
        headers.put("X-RateLimit-Remaining", Long.toString(minute.remaining()));
        headers.put("X-RateLimit-Reset", Long.toString(minute.resetEpochSeconds()));
        headers.put("X-RateLimit-Limit-Day", Long.toString(day.limit()));
        headers.put("X-RateLimit-Remaining-Day", Long.toString(day.remaining()));
        headers.put("X-RateLimit-Reset-Day", Long.toString(day.resetEpochSeconds()));
        return headers;
    }
}
