package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.ledger.StatementLine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Many threads against one balance, on a real PostgreSQL: the invariants hold whatever the interleaving. */
class LedgerConcurrencyTest {
    private static final int THREADS = 16;

    private final Ledger ledger = TestDatabase.store().ledger();
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void manyThreadsSpendingOneBalanceEndAtInitialMinusSuccessfulChargesNeverBelowZero() throws Exception {
        long initial = 2_000;
        AccountId a = TestDatabase.fundedAccount(initial, 0).id();
        AtomicLong charged = new AtomicLong();
        AtomicInteger refused = new AtomicInteger();
        runAll(THREADS, t -> {
            for (int i = 0; i < 60; i++) {
                long amount = 1 + (t * 7 + i) % 9;
                try {
                    ChargeResult r = ledger.charge(new ChargeRequest(
                            a, CreditKind.CREDITS, amount, IdempotencyKey.of("c:" + t + ":" + i), "carga"));
                    assertTrue(r.balanceAfter() >= 0);
                    charged.addAndGet(r.charged());
                } catch (InsufficientCreditsException e) {
                    refused.incrementAndGet();
                }
            }
        });
        Balance b = ledger.balance(a, CreditKind.CREDITS);
        assertEquals(initial - charged.get(), b.posted());
        assertTrue(b.posted() >= 0);
        assertTrue(refused.get() > 0, "the test must overdraw to prove anything: raise the load");
        assertEquals(b.posted(), sumOfEntries(a));
    }

    @Test
    void manyThreadsReplayingOneKeyChargeOnce() throws Exception {
        AccountId a = TestDatabase.fundedAccount(1_000, 0).id();
        AtomicInteger firsts = new AtomicInteger();
        AtomicInteger replays = new AtomicInteger();
        runAll(THREADS, t -> {
            for (int i = 0; i < 25; i++) {
                ChargeResult r = ledger.charge(new ChargeRequest(
                        a, CreditKind.CREDITS, 15, IdempotencyKey.of("person:" + a + ":req-1"), "consulta pessoa"));
                (r.replay() ? replays : firsts).incrementAndGet();
            }
        });
        assertEquals(1, firsts.get());
        assertEquals(THREADS * 25 - 1, replays.get());
        assertEquals(985, ledger.balance(a, CreditKind.CREDITS).posted());
        assertEquals(985, sumOfEntries(a));
    }

    @Test
    void holdsNeverLetReservationsExceedTheBalance() throws Exception {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        AtomicInteger placed = new AtomicInteger();
        runAll(THREADS, t -> {
            for (int i = 0; i < 4; i++) {
                try {
                    ledger.hold(new HoldRequest(
                            a, CreditKind.CREDITS, 30, IdempotencyKey.of("mailing:" + t + ":" + i), "mailing"));
                    placed.incrementAndGet();
                } catch (InsufficientCreditsException expected) {
                    // the balance is reserved
                }
                try {
                    ledger.charge(
                            new ChargeRequest(a, CreditKind.CREDITS, 3, IdempotencyKey.of("c:" + t + ":" + i), "c"));
                } catch (InsufficientCreditsException expected) {
                    // the balance is reserved
                }
            }
        });
        Balance b = ledger.balance(a, CreditKind.CREDITS);
        assertTrue(placed.get() >= 1 && placed.get() <= 3, "placed " + placed.get());
        assertEquals(placed.get() * 30L, b.held());
        assertTrue(b.held() <= b.posted(), b.toString());
        assertEquals(b.posted(), sumOfEntries(a));
    }

    @Test
    void concurrentPostsAndReleasesOfOneHoldSettleItOnce() throws Exception {
        AccountId a = TestDatabase.fundedAccount(500, 0).id();
        IdempotencyKey key = IdempotencyKey.of("mailing:race");
        ledger.hold(new HoldRequest(a, CreditKind.CREDITS, 400, key, "mailing"));
        AtomicInteger posted = new AtomicInteger();
        AtomicInteger released = new AtomicInteger();
        runAll(THREADS, t -> {
            try {
                if (t % 2 == 0) {
                    if (!ledger.post(a, key, 250).replay()) {
                        posted.incrementAndGet();
                    }
                } else {
                    ledger.release(a, key);
                    released.incrementAndGet();
                }
            } catch (IllegalStateException lost) {
                // the other transition won
            }
        });
        Balance b = ledger.balance(a, CreditKind.CREDITS);
        assertEquals(0, b.held());
        if (posted.get() == 1) {
            assertEquals(250, b.posted());
            assertEquals(0, released.get());
        } else {
            assertEquals(0, posted.get());
            assertEquals(500, b.posted());
        }
        assertEquals(b.posted(), sumOfEntries(a));
    }

    private long sumOfEntries(AccountId a) {
        List<StatementLine> lines = ledger.statement(a, CreditKind.CREDITS, 10_000);
        long sum = lines.stream().mapToLong(StatementLine::amount).sum();
        assertEquals(sum, lines.get(lines.size() - 1).runningBalance());
        return sum;
    }

    interface Worker {
        void run(int thread) throws Exception;
    }

    private void runAll(int threads, Worker worker) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Void>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Callable<Void> task = () -> {
                start.await();
                worker.run(thread);
                return null;
            };
            futures.add(pool.submit(task));
        }
        start.countDown();
        for (Future<Void> f : futures) {
            f.get();
        }
    }
}
