package dev.cadastro.core.ledger;

import dev.cadastro.core.account.AccountId;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A reservation and where it stands.
 *
 * @param amount what was reserved
 * @param posted what the post charged (empty unless {@link State#POSTED})
 */
public record Hold(
        AccountId account,
        CreditKind kind,
        IdempotencyKey key,
        long amount,
        State state,
        Optional<Long> posted,
        Instant createdAt) {

    /** The life of a hold: placed, then exactly one of posted or released. */
    public enum State {
        HELD,
        POSTED,
        RELEASED
    }

    public Hold {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(posted, "posted");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
