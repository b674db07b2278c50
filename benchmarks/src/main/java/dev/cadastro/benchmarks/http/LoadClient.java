package dev.cadastro.benchmarks.http;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One client of a load run: an account of its own and the API key it sends.
 *
 * @param account the account
 * @param issued its key, with the secret the client sends
 */
record LoadClient(Account account, IssuedApiKey issued) {
    /** The key's secret, as the client sends it after {@code Bearer}. */
    String key() {
        return issued.secret();
    }

    /**
     * {@code accounts} new accounts named {@code name}, this run's id and a number, on a plan that allows a
     * billion requests a day, each topped up with {@code initial} of {@code kind} and given one key with
     * {@code scopes}.
     */
    static List<LoadClient> create(
            Store store, Clock clock, int accounts, String name, CreditKind kind, long initial, Set<Scope> scopes) {
        ApiKeyIssuer issuer = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom());
        List<LoadClient> clients = new ArrayList<>();
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < accounts; i++) {
            Account a = store.accounts().create(name + " " + run + " " + i, new Plan("bench", 1_000_000_000L));
            store.ledger()
                    .topUp(
                            a.id(),
                            kind,
                            initial,
                            IdempotencyKey.of(name.replace(' ', '-') + ":" + run + ":" + i),
                            "bench");
            clients.add(new LoadClient(a, issuer.issue(a.id(), "bench", scopes)));
        }
        return clients;
    }

    /** A counter for each client, zero, for what its answers said it was charged. */
    static Map<LoadClient, LongAdder> counters(List<LoadClient> clients) {
        Map<LoadClient, LongAdder> counters = new ConcurrentHashMap<>();
        clients.forEach(c -> counters.put(c, new LongAdder()));
        return counters;
    }
}
