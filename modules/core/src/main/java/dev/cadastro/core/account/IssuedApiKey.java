package dev.cadastro.core.account;

import java.util.Objects;

/**
 * A key just issued: its metadata and the whole key, which is shown to the customer this once and
 * stored nowhere (only its hash is kept).
 */
public record IssuedApiKey(ApiKey key, String secret) {
    public IssuedApiKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(secret, "secret");
    }

    @Override
    public String toString() {
        return "IssuedApiKey[" + key + ", secret=***]";
    }
}
