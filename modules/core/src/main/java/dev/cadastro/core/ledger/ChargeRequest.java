package dev.cadastro.core.ledger;

import dev.cadastro.core.account.AccountId;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

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

    /**
     * Checks that requests charged together ({@link Ledger#chargeInOrder}) are of one account and one kind,
     * with distinct keys.
     *
     * @throws IllegalArgumentException naming the first request that is not
     */
    public static void requireOneBalance(List<ChargeRequest> requests) {
        Objects.requireNonNull(requests, "requests");
        Set<IdempotencyKey> keys = new HashSet<>();
        for (ChargeRequest r : requests) {
            ChargeRequest first = requests.get(0);
            if (!r.account().equals(first.account()) || r.kind() != first.kind()) {
                throw new IllegalArgumentException("charge " + r.key() + " is of " + r.account() + " " + r.kind()
                        + ", not of " + first.account() + " " + first.kind() + " as the first one");
            }
            if (!keys.add(r.key())) {
                throw new IllegalArgumentException("charge key " + r.key() + " appears twice");
            }
        }
    }
}
