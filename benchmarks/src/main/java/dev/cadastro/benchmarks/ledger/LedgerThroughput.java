package dev.cadastro.benchmarks.ledger;

import dev.cadastro.benchmarks.Flags;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sustained charges per second of the production ledger path, {@code PgLedger.charge} (a conditional
 * UPDATE + INSERT per charge through HikariCP and pgjdbc, grouped or alone), on the embedded
 * PostgreSQL, with the concurrency tests' invariants checked when each run ends.
 *
 * <p>Not a JMH benchmark: what is measured is a fixed-duration run of N threads against a database
 * whose state must be audited afterwards, which JMH's forked iterations do not fit. Each scenario:
 *
 * <ul>
 *   <li>{@code spread}: charges of 1 credit on random accounts out of {@code --accounts};
 *   <li>{@code hot}: every thread charges one account (the row lock serializes them);
 *   <li>{@code drain}: one account with a small balance, charged until it refuses; checks it ends at
 *       exactly initial minus the successful charges and never below zero.
 * </ul>
 *
 * Every 50th operation replays a key the same thread charged before; a replay must report {@code
 * replay} and charge nothing. The peer, {@code plain-insert}, is one auto-committed single-row INSERT
 * per operation with the same pool and threads: the floor any durable write pays on this machine.
 *
 * <p>Invariants checked at the end of every scenario, from the database: each account's posted balance
 * equals its initial balance minus the successful charges the harness counted, equals the sum of its
 * entries; no balance is negative; the number of CHARGE entries equals the successful charges; no
 * replay charged. Any failure prints {@code ANOMALY} and exits 1.
 *
 * <p>{@code --group-commit true} (the store's default) routes charges through {@code ChargeBatcher},
 * which applies whatever charges are waiting in one transaction ({@code ledger_charge_batch}); {@code
 * false} commits each charge alone. Running both is the same-machine comparison of the two paths.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.ledger.LedgerThroughput
 * [--threads 16] [--seconds 20] [--accounts 64] [--durable true|false] [--group-commit true|false]
 * [--dir target/ledger-bench]}
 */
public final class LedgerThroughput {
    private static final long BIG = 1_000_000_000_000L;

    private final Store store;
    private final Ledger ledger;
    private final int threads;
    private final int seconds;

    private LedgerThroughput(Store store, int threads, int seconds) {
        this.store = store;
        this.ledger = store.ledger();
        this.threads = threads;
        this.seconds = seconds;
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(Flags.value(args, "threads", "16"));
        int seconds = Integer.parseInt(Flags.value(args, "seconds", "20"));
        int accounts = Integer.parseInt(Flags.value(args, "accounts", "64"));
        boolean durable = Boolean.parseBoolean(Flags.value(args, "durable", "true"));
        boolean group = Boolean.parseBoolean(Flags.value(args, "group-commit", "true"));
        Path dir = Path.of(Flags.value(args, "dir", "target/ledger-bench-" + (durable ? "durable" : "async")));
        Files.createDirectories(dir);
        Database db = Database.builder()
                .embedded(dir)
                .durableCommits(durable)
                .groupCommit(group)
                .poolSize(threads)
                .build();
        System.out.printf(
                Locale.ROOT,
                "ledger throughput: %d threads, %d s per scenario, %d accounts, synchronous_commit=%s,"
                        + " group commit %s, %d cores%n",
                threads,
                seconds,
                accounts,
                durable ? "on" : "off",
                group ? "on" : "off",
                Runtime.getRuntime().availableProcessors());
        boolean ok;
        try (Store store = Store.open(db, Clock.systemUTC())) {
            LedgerThroughput bench = new LedgerThroughput(store, threads, seconds);
            bench.plainInsert();
            ok = bench.charges("spread", accounts, BIG);
            ok &= bench.charges("hot", 1, BIG);
            ok &= bench.drain();
        }
        System.out.println(ok ? "invariants: all held, zero anomalies" : "invariants: ANOMALIES FOUND");
        System.exit(ok ? 0 : 1);
    }

    private boolean charges(String name, int accountCount, long initial) throws Exception {
        List<AccountId> accounts = newAccounts(accountCount, initial);
        AtomicLongArray charged = new AtomicLongArray(accountCount);
        LongAdder ops = new LongAdder();
        LongAdder replays = new LongAdder();
        LongAdder badReplays = new LongAdder();
        long nanos = run(t -> {
            SplittableRandom random = new SplittableRandom(t);
            List<ChargeRequest> mine = new ArrayList<>();
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            for (long i = 0; System.nanoTime() < deadline; i++) {
                if (i % 50 == 49 && !mine.isEmpty()) {
                    ChargeResult r = ledger.charge(mine.get(random.nextInt(mine.size())));
                    replays.increment();
                    if (!r.replay() || r.charged() != 0) {
                        badReplays.increment();
                    }
                } else {
                    int index = random.nextInt(accountCount);
                    ChargeRequest req = new ChargeRequest(
                            accounts.get(index),
                            CreditKind.CREDITS,
                            1,
                            IdempotencyKey.of(name + ":" + t + ":" + i),
                            "bench");
                    ChargeResult r = ledger.charge(req);
                    charged.addAndGet(index, r.charged());
                    if (mine.size() < 10_000) {
                        mine.add(req);
                    }
                }
                ops.increment();
            }
        });
        long total = 0;
        for (int i = 0; i < accountCount; i++) {
            total += charged.get(i);
        }
        report(name, ops.sum(), total, replays.sum(), nanos);
        boolean ok = audit(name, accounts, initial, charged);
        if (badReplays.sum() > 0) {
            System.out.println("ANOMALY " + name + ": " + badReplays.sum() + " replays charged");
            ok = false;
        }
        return ok;
    }

    private boolean drain() throws Exception {
        long initial = 20_000;
        List<AccountId> accounts = newAccounts(1, initial);
        AtomicLongArray charged = new AtomicLongArray(1);
        LongAdder refused = new LongAdder();
        LongAdder ops = new LongAdder();
        long nanos = run(t -> {
            SplittableRandom random = new SplittableRandom(t);
            for (long i = 0; refused.sum() < 10_000; i++) {
                long amount = 1 + random.nextInt(5);
                try {
                    charged.addAndGet(
                            0,
                            ledger.charge(new ChargeRequest(
                                            accounts.get(0),
                                            CreditKind.CREDITS,
                                            amount,
                                            IdempotencyKey.of("drain:" + t + ":" + i),
                                            "bench"))
                                    .charged());
                } catch (InsufficientCreditsException e) {
                    refused.increment();
                }
                ops.increment();
            }
        });
        report("drain", ops.sum(), charged.get(0), 0, nanos);
        return audit("drain", accounts, initial, charged);
    }

    private void plainInsert() throws Exception {
        try (Connection c = store.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TABLE IF NOT EXISTS bench_plain_insert (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                            + " thread int NOT NULL, seq bigint NOT NULL)");
        }
        LongAdder ops = new LongAdder();
        long nanos = run(t -> {
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            try (Connection c = store.dataSource().getConnection();
                    PreparedStatement ps =
                            c.prepareStatement("INSERT INTO bench_plain_insert (thread, seq) VALUES (?, ?)")) {
                for (long i = 0; System.nanoTime() < deadline; i++) {
                    ps.setInt(1, t);
                    ps.setLong(2, i);
                    ps.executeUpdate();
                    ops.increment();
                }
            }
        });
        report("plain-insert (peer)", ops.sum(), 0, 0, nanos);
    }

    private List<AccountId> newAccounts(int count, long initial) {
        List<AccountId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            AccountId id = store.accounts()
                    .create("bench", new Plan("bench", 1_000_000))
                    .id();
            ledger.topUp(id, CreditKind.CREDITS, initial, IdempotencyKey.of("bench-initial"), "bench");
            ids.add(id);
        }
        return ids;
    }

    private boolean audit(String name, List<AccountId> accounts, long initial, AtomicLongArray charged)
            throws SQLException {
        boolean ok = true;
        try (Connection c = store.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT b.posted, b.held,"
                        + " (SELECT coalesce(sum(amount), 0) FROM ledger_entries e WHERE e.account_id = b.account_id AND e.kind = b.kind),"
                        + " (SELECT count(*) FROM ledger_entries e WHERE e.account_id = b.account_id AND e.kind = b.kind AND e.type = 'CHARGE'),"
                        + " (SELECT coalesce(sum(-amount), 0) FROM ledger_entries e WHERE e.account_id = b.account_id AND e.kind = b.kind AND e.type = 'CHARGE')"
                        + " FROM balances b WHERE b.account_id = ? AND b.kind = 'CREDITS'")) {
            c.setNetworkTimeout(Runnable::run, 0); // the audit sums every entry: not a request
            for (int i = 0; i < accounts.size(); i++) {
                ps.setLong(1, accounts.get(i).value());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long posted = rs.getLong(1);
                    long sum = rs.getLong(3);
                    long chargedInDb = rs.getLong(5);
                    long expected = initial - charged.get(i);
                    if (posted != expected
                            || posted != sum
                            || posted < 0
                            || chargedInDb != charged.get(i)
                            || rs.getLong(2) != 0) {
                        System.out.printf(
                                Locale.ROOT,
                                "ANOMALY %s account %s: posted=%d expected=%d sumOfEntries=%d chargedInDb=%d chargedCounted=%d%n",
                                name,
                                accounts.get(i),
                                posted,
                                expected,
                                sum,
                                chargedInDb,
                                charged.get(i));
                        ok = false;
                    }
                }
            }
        }
        System.out.printf(
                Locale.ROOT, "  %-20s audit of %d account(s): %s%n", name, accounts.size(), ok ? "ok" : "FAILED");
        return ok;
    }

    private void report(String name, long ops, long charged, long replays, long nanos) {
        double perSecond = ops / (nanos / 1e9);
        System.out.printf(
                Locale.ROOT,
                "  %-20s %,10.0f ops/s  (%,d ops in %.1f s; %,d credits charged; %,d replays)%n",
                name,
                perSecond,
                ops,
                nanos / 1e9,
                charged,
                replays);
    }

    interface Worker {
        void run(int thread) throws Exception;
    }

    private long run(Worker worker) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    worker.run(thread);
                    return null;
                }));
            }
            long begin = System.nanoTime();
            start.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
            return System.nanoTime() - begin;
        } finally {
            pool.shutdownNow();
        }
    }
}
