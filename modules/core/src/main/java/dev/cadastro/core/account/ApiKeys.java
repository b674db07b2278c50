package dev.cadastro.core.account;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Port: where API keys live, each as its metadata plus the hash of its secret. Revocation and
 * release take effect on the next request, on every server sharing the store: nothing is cached.
 */
public interface ApiKeys {

    /**
     * Stores a new key. Returns false, storing nothing, when the prefix is already taken (the issuer
     * draws another).
     */
    boolean insert(ApiKey key, byte[] secretHash);

    /** The key with this prefix, its hash and its account, read in one query. */
    Optional<Credential> findCredential(String prefix);

    Optional<ApiKey> find(String prefix);

    /** The account's keys, newest first, revoked ones included. */
    List<ApiKey> list(AccountId account);

    /**
     * Revokes the key at the given instant. Idempotent: revoking a revoked key keeps the first
     * instant. {@link dev.cadastro.core.error.NotFoundException} when no key has the prefix.
     */
    ApiKey revoke(String prefix, Instant at);

    /** Grants or withdraws the individual release for person lookup. */
    ApiKey setPersonLookupReleased(String prefix, boolean released);
}
