package dev.cadastro.core.ledger;

import dev.cadastro.core.account.AccountId;
import java.util.Objects;

/**
 * A reservation to place: {@code amount} credits of {@code kind} set aside under {@code key} until
 * posted (charging at most the amount) or released. A mailing export holds its requested quantity so
 * two exports cannot overdraw one balance.
 */
public record HoldRequest(AccountId account, CreditKind kind, long amount, IdempotencyKey key, String description) {
    public HoldRequest {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(kind, "kind");
        if (amount <= 0) {
            throw new IllegalArgumentException("hold amount " + amount + " must be positive");
        }
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(description, "description");
    }
}
