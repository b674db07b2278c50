package dev.cadastro.store.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ratelimit.AdmissionStore;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admissions' group commit: one batch gives every request the answer the single statement gives it
 * alone, a failed batch falls back item by item without counting anything twice, and parallel requests
 * through one worker share commits and still admit exactly the limit.
 */
class AdmissionBatcherTest {
    private static final long MINUTE = 29_000_000L;
    private static final LocalDate DAY = LocalDate.of(2026, 5, 4);

    private static EmbeddedDatabase server;
    private static Store store;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "admit-pg-"), false);
        store = Store.open(
                Database.builder()
                        .url(server.jdbcUrl())
                        .groupCommit(false)
                        .poolSize(20)
                        .build(),
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        store.close();
        server.close();
    }

    private static Account account(long dailyLimit) {
        return store.accounts().create("admit", new Plan("p", dailyLimit));
    }

    private static ApiKeyToken key(Account a) {
        String secret = new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ))
                .secret();
        return ApiKeyToken.parse(secret).orElseThrow();
    }

    private static AdmissionBatcher.Ask ask(ApiKeyToken key, long perMinute) {
        return new AdmissionBatcher.Ask(key.prefix(), key.hash(), new AdmissionStore.Window(MINUTE, perMinute, DAY));
    }

    /** The same sequence of requests, on a fresh set of accounts and keys each time. */
    private static List<AdmissionBatcher.Ask> sequence() {
        Account small = account(6); // the day fills inside the batch
        ApiKeyToken s1 = key(small);
        ApiKeyToken s2 = key(small);
        ApiKeyToken big = key(account(1_000));
        ApiKeyToken wrongSecret = new ApiKeyToken(big.prefix(), big.token() + "x");
        ApiKeyToken unknown = new ApiKeyToken("zzzzzzzzzzzz", "cad_zzzzzzzzzzzz_nothing");
        List<AdmissionBatcher.Ask> asks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            asks.add(ask(s1, 3)); // the fourth is over the minute
        }
        for (int i = 0; i < 4; i++) {
            asks.add(ask(s2, 3)); // three fill the day of 6; the fourth is over it
        }
        asks.add(ask(big, 3));
        asks.add(ask(wrongSecret, 3));
        asks.add(ask(unknown, 3));
        asks.add(ask(big, 3));
        asks.add(ask(s1, 3));
        return asks;
    }

    private record Answer(boolean found, Optional<AdmissionStore.Counts> counts, long dailyLimit) {
        static Answer of(Optional<AdmissionStore.Found> f) {
            return new Answer(
                    f.isPresent(),
                    f.flatMap(AdmissionStore.Found::counted),
                    f.map(x -> x.credential().account().plan().dailyRequestLimit())
                            .orElse(0L));
        }
    }

    @Test
    void oneBatchGivesEveryRequestTheAnswerItHasAlone() throws Exception {
        PgAdmissionStore alone = new PgAdmissionStore(store.dataSource());
        List<Answer> expected = new ArrayList<>();
        for (AdmissionBatcher.Ask a : sequence()) {
            expected.add(Answer.of(alone.admit(a.prefix(), a.secretHash(), a.window())));
        }
        try (PgAdmissionStore batched = new PgAdmissionStore(store.dataSource(), 1)) {
            List<CompletableFuture<Optional<AdmissionStore.Found>>> results =
                    batched.batcher().applyAsOneBatch(sequence());
            List<Answer> actual = new ArrayList<>();
            for (CompletableFuture<Optional<AdmissionStore.Found>> r : results) {
                actual.add(Answer.of(r.get()));
            }
            assertEquals(expected, actual);
            assertEquals(13, batched.batcher().largestBatch());
            assertEquals(0, batched.batcher().fallbacks(), "applied as one batch, not item by item");
        }
        // The reference itself is the rule: a fourth request in a minute of 3 is refused, the day of 6 fills.
        assertTrue(expected.get(3).counts().orElseThrow().minute().isEmpty());
        assertTrue(expected.get(7).counts().orElseThrow().day().isEmpty());
        assertTrue(expected.get(9).found() && expected.get(9).counts().isEmpty(), "wrong secret: not counted");
        assertTrue(!expected.get(10).found(), "unknown prefix");
    }

    @Test
    void aBatchThatFailsIsAdmittedItemByItemAndCountsEachRequestOnce() throws Exception {
        ApiKeyToken a = key(account(100));
        ApiKeyToken b = key(account(100));
        // PostgreSQL refuses a NUL in text: the whole batch's statement fails, then that item alone fails too.
        AdmissionBatcher.Ask broken =
                new AdmissionBatcher.Ask("cad_\u0000", new byte[32], new AdmissionStore.Window(MINUTE, 10, DAY));
        try (PgAdmissionStore batched = new PgAdmissionStore(store.dataSource(), 1)) {
            List<CompletableFuture<Optional<AdmissionStore.Found>>> results =
                    batched.batcher().applyAsOneBatch(List.of(ask(a, 10), broken, ask(b, 10), ask(a, 10)));
            assertEquals(
                    1,
                    results.get(0)
                            .get()
                            .orElseThrow()
                            .counted()
                            .orElseThrow()
                            .minute()
                            .getAsLong());
            assertThrows(ExecutionException.class, () -> results.get(1).get());
            assertEquals(
                    1,
                    results.get(2)
                            .get()
                            .orElseThrow()
                            .counted()
                            .orElseThrow()
                            .minute()
                            .getAsLong());
            assertEquals(
                    2,
                    results.get(3)
                            .get()
                            .orElseThrow()
                            .counted()
                            .orElseThrow()
                            .minute()
                            .getAsLong());
        }
        PgAdmissionStore alone = new PgAdmissionStore(store.dataSource());
        AdmissionBatcher.Ask next = ask(a, 10);
        AdmissionStore.Counts counts = alone.admit(next.prefix(), next.secretHash(), next.window())
                .orElseThrow()
                .counted()
                .orElseThrow();
        assertEquals(3, counts.minute().getAsLong(), "the failed batch counted nothing; the fallback counted once");
        assertEquals(3, counts.day().getAsLong());
    }

    @Test
    void parallelRequestsShareCommitsAndAdmitExactlyTheLimit() throws Exception {
        ApiKeyToken k = key(account(100_000));
        AtomicInteger admitted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        try (PgAdmissionStore batched = new PgAdmissionStore(store.dataSource(), 1)) {
            ExecutorService pool = Executors.newFixedThreadPool(32);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 20; i++) {
                            AdmissionBatcher.Ask a = ask(k, 300);
                            AdmissionStore.Counts c = batched.admit(a.prefix(), a.secretHash(), a.window())
                                    .orElseThrow()
                                    .counted()
                                    .orElseThrow();
                            (c.minute().isPresent() ? admitted : refused).incrementAndGet();
                        }
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            assertTrue(batched.batcher().largestBatch() > 1, "requests queued together shared a commit");
            assertEquals(0, batched.batcher().fallbacks());
        }
        assertEquals(300, admitted.get());
        assertEquals(340, refused.get());
        AdmissionBatcher.Ask last = ask(k, 1_000);
        AdmissionStore.Counts counts = new PgAdmissionStore(store.dataSource())
                .admit(last.prefix(), last.secretHash(), last.window())
                .orElseThrow()
                .counted()
                .orElseThrow();
        assertEquals(300, counts.minuteBefore(), "the minute row holds exactly the admitted requests");
        assertEquals(300, counts.dayBefore());
    }

    @Test
    void parallelQueuesAdmitExactlyEachKeysAndEachAccountsLimitWithoutDeadlocks() throws Exception {
        // Three accounts of four keys each: an account's keys land on different queues, so batches of
        // parallel queues hold the same accounts' day rows; account order inside a batch keeps them apart.
        int accounts = 3;
        int keysPerAccount = 4;
        long perMinute = 40;
        long perDay = 100;
        List<ApiKeyToken> keys = new ArrayList<>();
        for (int a = 0; a < accounts; a++) {
            Account account = account(perDay);
            for (int k = 0; k < keysPerAccount; k++) {
                keys.add(key(account));
            }
        }
        int[] admittedPerKey = new int[keys.size()];
        try (PgAdmissionStore batched = new PgAdmissionStore(store.dataSource(), 4)) {
            AdmissionBatcher batcher = batched.batcher();
            for (ApiKeyToken k : keys) {
                assertEquals(batcher.queueOf(k.prefix()), batcher.queueOf(k.prefix()), "a key keeps its queue");
            }
            ExecutorService pool = Executors.newFixedThreadPool(48);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 48; t++) {
                    int first = t;
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 20; i++) {
                            int k = (first + i) % keys.size();
                            AdmissionBatcher.Ask a = ask(keys.get(k), perMinute);
                            AdmissionStore.Counts c = batched.admit(a.prefix(), a.secretHash(), a.window())
                                    .orElseThrow()
                                    .counted()
                                    .orElseThrow();
                            if (c.minute().isPresent() && c.day().isPresent()) {
                                synchronized (admittedPerKey) {
                                    admittedPerKey[k]++;
                                }
                            }
                        }
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            assertEquals(0, batcher.fallbacks(), "no batch failed (no deadlock between the queues)");
            assertTrue(batcher.largestBatch() > 1, "requests queued together shared a commit");
            int used = 0;
            for (int q = 0; q < 4; q++) {
                used += batcher.batchesOf(q) > 0 ? 1 : 0;
            }
            assertTrue(used > 1, "the keys' requests ran on " + used + " of 4 queues");
        }
        // 960 requests, about 80 a key: each account's day (100) fills before its keys' minutes (4 x 40).
        for (int a = 0; a < accounts; a++) {
            int admitted = 0;
            for (int k = 0; k < keysPerAccount; k++) {
                int i = a * keysPerAccount + k;
                assertTrue(admittedPerKey[i] <= perMinute, "key " + i + " admitted " + admittedPerKey[i]);
                admitted += admittedPerKey[i];
                AdmissionBatcher.Ask probe = ask(keys.get(i), 1_000);
                AdmissionStore.Counts c = new PgAdmissionStore(store.dataSource())
                        .admit(probe.prefix(), probe.secretHash(), probe.window())
                        .orElseThrow()
                        .counted()
                        .orElseThrow();
                // Requests racing for the day's last slots may spend a minute slot each (PgAdmissionStore).
                assertTrue(
                        c.minuteBefore() >= admittedPerKey[i] && c.minuteBefore() <= perMinute,
                        "key " + i + "'s minute row " + c.minuteBefore() + " against " + admittedPerKey[i]
                                + " admitted");
                assertEquals(perDay, c.dayBefore(), "account " + a + "'s day is full, not over");
            }
            assertEquals(perDay, admitted, "account " + a + " admitted exactly its daily limit");
        }
    }
}
