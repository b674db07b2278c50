package dev.cadastro.benchmarks;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.store.Store;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.EnumSet;

/**
 * The account an export benchmark exports with: new, a billion credits so no run is refused for funds,
 * and one key with the mailing scopes.
 *
 * @param account the account
 * @param key its key, with the secret a client sends
 */
public record MailingAccount(Account account, IssuedApiKey key) {
    public static MailingAccount create(Store store, Clock clock) {
        Account account = store.accounts().create("bench " + System.nanoTime(), new Plan("bench", 1_000_000));
        store.ledger()
                .topUp(
                        account.id(),
                        CreditKind.CREDITS,
                        1_000_000_000L,
                        IdempotencyKey.of("bench:" + System.nanoTime()),
                        "bench");
        IssuedApiKey key = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom())
                .issue(account.id(), "bench", EnumSet.of(Scope.MAILING_EXPORT, Scope.MAILING_READ));
        return new MailingAccount(account, key);
    }
}
