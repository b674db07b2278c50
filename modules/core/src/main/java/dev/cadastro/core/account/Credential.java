package dev.cadastro.core.account;

import java.util.Objects;

/**
 * What the store returns when the authenticator looks a key up by its prefix: the key, the hash of
 * its secret, and its account, read together so a request costs one query.
 */
public record Credential(ApiKey key, byte[] secretHash, Account account) {
    public Credential {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(secretHash, "secretHash");
        Objects.requireNonNull(account, "account");
        if (!key.account().equals(account.id())) {
            throw new IllegalArgumentException(
                    "key " + key.prefix() + " belongs to account " + key.account() + ", not " + account.id());
        }
        secretHash = secretHash.clone();
    }

    @Override
    public byte[] secretHash() {
        return secretHash.clone();
    }
}
