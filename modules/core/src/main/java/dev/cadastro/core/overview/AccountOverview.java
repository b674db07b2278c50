package dev.cadastro.core.overview;

import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import java.util.Objects;
import java.util.Set;

/**
 * What a key may learn about its own account: its balances, its plan's daily limit and today's use,
 * and the key's own scopes and release. Nothing of another key, and no personal data.
 *
 * @param funds the balances and what running exports hold
 * @param plan the plan's name
 * @param dailyLimit the plan's daily request limit
 * @param usedToday the account's requests today (America/Sao_Paulo), this one included
 * @param keyPrefix the public prefix of the key that asked
 * @param scopes that key's scopes
 * @param personLookupReleased whether that key has the individual release person lookup needs
 * @param purposes the person-lookup purposes the account contracted
 */
public record AccountOverview(
        AccountFunds.Funds funds,
        String plan,
        long dailyLimit,
        long usedToday,
        String keyPrefix,
        Set<Scope> scopes,
        boolean personLookupReleased,
        Set<Purpose> purposes) {
    public AccountOverview {
        Objects.requireNonNull(funds, "funds");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        scopes = Set.copyOf(scopes);
        purposes = Set.copyOf(purposes);
        if (usedToday < 0 || dailyLimit < 1) {
            throw new IllegalArgumentException("used " + usedToday + " of a daily limit of " + dailyLimit);
        }
    }
}
