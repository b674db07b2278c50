package dev.cadastro.core.ratelimit;

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
}
