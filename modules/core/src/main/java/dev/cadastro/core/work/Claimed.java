package dev.cadastro.core.work;

import java.time.Instant;
import java.util.Objects;

/**
 * A work item claimed by {@code owner} until {@code leaseUntil}.
 *
 * @param attempt 1 for the first claim of the item, 2 when a claim found it abandoned, and so on
 */
public record Claimed<T>(long id, T work, String owner, Instant leaseUntil, int attempt) {
    public Claimed {
        Objects.requireNonNull(work, "work");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(leaseUntil, "leaseUntil");
    }
}
