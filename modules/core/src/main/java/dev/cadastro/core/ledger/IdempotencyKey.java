package dev.cadastro.core.ledger;

import dev.cadastro.core.internal.Texts;
import java.util.Objects;

/**
 * The key that makes a ledger operation happen at most once per account: a second operation with
 * the same key is a replay and changes nothing. {@link CostRules} builds keys that encode the
 * dedup rules ({@code lookup:42:12345678000195:2026-11-20}); callers building their own keys should
 * start them with a word naming the operation.
 */
public record IdempotencyKey(String value) {
    /** The longest key the store keeps. */
    public static final int MAX_LENGTH = 200;

    public IdempotencyKey {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "idempotency key of " + value.length() + " characters: it must have 1 to " + MAX_LENGTH);
        }
        int bad = Texts.firstNonPrintableAscii(value);
        if (bad >= 0) {
            throw new IllegalArgumentException("idempotency key '" + value + "' has character "
                    + (int) value.charAt(bad) + " at " + bad + "; only printable ASCII without spaces is allowed");
        }
    }

    public static IdempotencyKey of(String value) {
        return new IdempotencyKey(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
