package dev.cadastro.core.account;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Use case: issues an API key for an account. Draws the key from the injected generator (a {@link
 * java.security.SecureRandom} in production), stores only its hash, and returns the whole key once.
 */
public final class ApiKeyIssuer {
    private static final int MAX_ATTEMPTS = 5;

    private final Accounts accounts;
    private final ApiKeys keys;
    private final Clock clock;
    private final RandomGenerator random;

    public ApiKeyIssuer(Accounts accounts, ApiKeys keys, Clock clock, RandomGenerator random) {
        this.accounts = Objects.requireNonNull(accounts, "accounts");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * Issues a key with the given scopes.
     *
     * @throws dev.cadastro.core.error.NotFoundException when the account does not exist
     */
    public IssuedApiKey issue(AccountId account, String label, Set<Scope> scopes) {
        accounts.require(account);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            ApiKeyToken token = ApiKeyToken.generate(random);
            ApiKey key = new ApiKey(token.prefix(), account, label, scopes, false, clock.instant(), Optional.empty());
            if (keys.insert(key, token.hash())) {
                return new IssuedApiKey(key, token.token());
            }
        }
        throw new IllegalStateException(
                "drew " + MAX_ATTEMPTS + " key prefixes that were all taken: is the random generator broken?");
    }
}
