package dev.cadastro.core.account;

import java.util.Objects;

/**
 * A commercial plan: its name and the number of requests an account may make per calendar day
 * (America/Sao_Paulo), reported in the {@code X-RateLimit-*} headers and enforced as {@code
 * LIMITE_DIARIO}.
 */
public record Plan(String name, long dailyRequestLimit) {
    /** The longest plan name the store keeps. */
    public static final int MAX_NAME_LENGTH = 64;

    public Plan {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "plan name '" + name + "' must have 1 to " + MAX_NAME_LENGTH + " characters");
        }
        if (dailyRequestLimit < 1) {
            throw new IllegalArgumentException(
                    "plan " + name + ": daily request limit " + dailyRequestLimit + " must be at least 1");
        }
    }
}
