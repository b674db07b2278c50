package dev.cadastro.core.account;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the store knows of an API key besides the hash of its secret: never the secret itself.
 *
 * @param prefix the short public part of the key ({@link ApiKeyToken#prefix()}), unique, safe to list
 *     and to log
 * @param account the account the key spends from
 * @param label a name the customer gave the key
 * @param scopes what the key may access
 * @param personLookupReleased the individual, commercial release person lookup needs besides the
 *     {@code pessoas:read} scope ({@code PF_NAO_HABILITADA} without it)
 * @param createdAt when the key was issued
 * @param revokedAt when it was revoked; a revoked key answers {@code CHAVE_REVOGADA}
 */
public record ApiKey(
        String prefix,
        AccountId account,
        String label,
        Set<Scope> scopes,
        boolean personLookupReleased,
        Instant createdAt,
        Optional<Instant> revokedAt) {

    public ApiKey {
        if (!ApiKeyToken.isValidPrefix(prefix)) {
            throw new IllegalArgumentException("key prefix '" + prefix + "' is not a key prefix");
        }
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(label, "label");
        if (label.length() > 100) {
            throw new IllegalArgumentException("key label has " + label.length() + " characters; the maximum is 100");
        }
        scopes = scopes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(scopes));
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(revokedAt, "revokedAt");
    }

    public boolean revoked() {
        return revokedAt.isPresent();
    }
}
