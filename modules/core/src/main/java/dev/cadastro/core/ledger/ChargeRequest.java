package dev.cadastro.core.ledger;

import dev.cadastro.core.account.AccountId;
import java.util.Objects;

/**
 * A debit to make at most once: {@code amount} credits of {@code kind} from {@code account}, under
 * {@code key}. An amount of zero is allowed (a free operation) and writes nothing.
 *
 * @param description one line a statement shows, e.g. {@code "consulta CNPJ 12345678000195"}
 */
public record ChargeRequest(AccountId account, CreditKind kind, long amount, IdempotencyKey key, String description) {
    /** The longest description the store keeps. */
    public static final int MAX_DESCRIPTION = 200;

    public ChargeRequest {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(kind, "kind");
        if (amount < 0) {
            throw new IllegalArgumentException("charge amount " + amount + " must not be negative");
        }
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(description, "description");
        if (description.length() > MAX_DESCRIPTION) {
            description = description.substring(0, MAX_DESCRIPTION);
        }
    }
}
