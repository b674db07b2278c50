package dev.cadastro.store.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.StatementLine;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The group-commit path: one batch gives every item the answer it would have had alone. */
class ChargeBatcherTest {
    private static EmbeddedDatabase server;
    private static Store store;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "batch-pg-"), false);
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

    private static AccountId funded(long credits) {
        AccountId a = store.accounts().create("batch", new Plan("p", 10)).id();
        store.ledger().topUp(a, CreditKind.CREDITS, credits, IdempotencyKey.of("t"), "carga");
        return a;
    }

    private static ChargeRequest charge(AccountId a, long amount, String key) {
        return new ChargeRequest(a, CreditKind.CREDITS, amount, IdempotencyKey.of(key), "c");
    }

    @Test
    void oneBatchChargesReplaysAndRefusesItemByItem() throws Exception {
        AccountId a = funded(10);
        AccountId b = funded(100);
        store.ledger().charge(charge(b, 1, "old"));
        try (PgLedger ledger = new PgLedger(store.dataSource(), Clock.systemUTC(), 1)) {
            List<CompletableFuture<ChargeResult>> results = ledger.batcher()
                    .applyAsOneBatch(List.of(
                            charge(b, 5, "b1"),
                            charge(a, 6, "a1"),
                            charge(a, 6, "a2"), // insufficient: a has 4 left after a1
                            charge(a, 6, "a1"), // replay of an item earlier in the same batch
                            charge(b, 1, "old"), // replay of a committed charge
                            charge(new AccountId(Long.MAX_VALUE), 1, "x"),
                            charge(b, 2, "b1"))); // key reused with another amount
            assertEquals(new ChargeResult(5, 94, false), results.get(0).get());
            assertEquals(new ChargeResult(6, 4, false), results.get(1).get());
            assertEquals(
                    4, cause(results.get(2), InsufficientCreditsException.class).available());
            assertEquals(new ChargeResult(0, 4, true), results.get(3).get());
            assertEquals(new ChargeResult(0, 94, true), results.get(4).get());
            cause(results.get(5), NotFoundException.class);
            cause(results.get(6), IllegalStateException.class);
        }
        assertEquals(4, store.ledger().balance(a, CreditKind.CREDITS).posted());
        assertEquals(94, store.ledger().balance(b, CreditKind.CREDITS).posted());
    }

    @Test
    void manyThreadsThroughOneWorkerFormBatchesAndKeepTheInvariants() throws Exception {
        AccountId hot = funded(3_000);
        AtomicLong charged = new AtomicLong();
        try (PgLedger ledger = new PgLedger(store.dataSource(), Clock.systemUTC(), 1)) {
            ExecutorService pool = Executors.newFixedThreadPool(32);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    int thread = t;
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 40; i++) {
                            try {
                                // every fifth charge replays the thread's first key
                                String key = i % 5 == 4 ? "k:" + thread + ":0" : "k:" + thread + ":" + i;
                                charged.addAndGet(
                                        ledger.charge(charge(hot, 3, key)).charged());
                            } catch (InsufficientCreditsException refused) {
                                // the balance ran out: expected
                            }
                        }
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertTrue(
                    ledger.batcher().largestBatch() > 1,
                    "no batch formed: " + ledger.batcher().largestBatch());
        }
        long posted = store.ledger().balance(hot, CreditKind.CREDITS).posted();
        assertEquals(3_000 - charged.get(), posted);
        assertTrue(posted >= 0);
        List<StatementLine> lines = store.ledger().statement(hot, CreditKind.CREDITS, 10_000);
        assertEquals(posted, lines.stream().mapToLong(StatementLine::amount).sum());
        assertEquals(charged.get() / 3, lines.size() - 1, "one entry per charge, none per replay");
    }

    private static <T extends Throwable> T cause(CompletableFuture<?> f, Class<T> type) {
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, f::get);
        return assertInstanceOf(type, e.getCause());
    }
}
