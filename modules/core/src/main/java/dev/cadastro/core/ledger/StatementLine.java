package dev.cadastro.core.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * One immutable ledger entry as a statement shows it.
 *
 * @param sequence the entry's position; increasing in the order entries took effect on the balance
 * @param amount signed: negative for debits, positive for credits
 * @param runningBalance the balance right after this entry: the sum of this and every earlier entry
 */
public record StatementLine(
        long sequence,
        Instant at,
        EntryType type,
        long amount,
        IdempotencyKey key,
        String description,
        long runningBalance) {
    public StatementLine {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(description, "description");
    }
}
