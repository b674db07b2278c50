package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.idempotency.ClientKey;
import dev.cadastro.core.idempotency.IdempotencyStore;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.idempotency.RequestFingerprint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lease of a running idempotent request under a database that misbehaves for real: every pooled
 * connection taken by other work, and a renewal that commits on the server after its client gave up
 * waiting (a server-side delay longer than the network timeout). Each test opens its own store on a
 * database of its own.
 */
class IdempotencyLeaseTest {
    private final OpenedCalls opened = new OpenedCalls();

    @AfterEach
    void closeCalls() {
        opened.close();
    }

    private static final Duration RETENTION = Duration.ofHours(24);

    private static RequestFingerprint request(String value) {
        return RequestFingerprint.of("GET /test", Map.of("q", List.of(value)));
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aLeaseIsRenewedWhileEveryPooledConnectionIsTakenSoNoRetryTakesTheLiveAttemptOver() throws Exception {
        String url = TestDatabase.freshDatabase();
        int poolSize = 3;
        Duration lease = Duration.ofSeconds(3);
        try (Store store = Store.open(
                        Database.builder().url(url).poolSize(poolSize).build(), Clock.systemUTC());
                Store other = Store.open(Database.builder().url(url).poolSize(2).build(), Clock.systemUTC())) {
            AccountId account = TestDatabase.fundedAccount(store, 0, 0).id();
            ClientKey key = new ClientKey("saturated");
            IdempotentCalls calls =
                    opened.track(new IdempotentCalls(store.idempotency(), Clock.systemUTC(), RETENTION, lease));
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch finish = new CountDownLatch(1);
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<IdempotentCalls.Outcome<byte[]>> running = pool.submit(() -> calls.run(
                        account,
                        key,
                        request("a"),
                        "Idempotency-Key",
                        reference -> {
                            inside.countDown();
                            try {
                                finish.await();
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            return new byte[] {9};
                        },
                        b -> b));
                List<Connection> taken = new ArrayList<>();
                try {
                    inside.await();
                    // Other work holds every connection of the server's pool for three leases.
                    for (int i = 0; i < poolSize; i++) {
                        taken.add(store.dataSource().getConnection());
                    }
                    Instant started = Instant.now();
                    while (Duration.between(started, Instant.now()).compareTo(lease.multipliedBy(3)) < 0) {
                        assertInstanceOf(
                                IdempotencyStore.Claim.InFlight.class,
                                other.idempotency().claim(account, key, request("a"), Instant.now(), lease, RETENTION),
                                "another server took the live attempt's key over");
                        Thread.sleep(100);
                    }
                } finally {
                    for (Connection c : taken) {
                        c.close();
                    }
                    finish.countDown();
                }
                assertInstanceOf(IdempotentCalls.Outcome.Fresh.class, running.get());
            }
            IdempotencyStore.Claim.Completed done = assertInstanceOf(
                    IdempotencyStore.Claim.Completed.class,
                    other.idempotency().claim(account, key, request("a"), Instant.now(), lease, RETENTION));
            assertArrayEquals(new byte[] {9}, done.answer());
        }
    }

    @Test
    void aRenewalThatCommittedAfterItsClientGaveUpKeepsTheAttemptsLeaseAndItsAnswer() throws Exception {
        // The server takes 1.6 s over one renewal, the client waits 1 s for it: the UPDATE commits on the
        // server after the client saw it fail.
        assertAnswerStoredAfterASlowRenewal(
                "lost-answer",
                (byte) 5,
                false,
                "the slow renewal committed",
                "the answer was stored under the fence the renewal wrote",
                "CREATE FUNCTION slow_renewal() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF NEW.answer IS NULL AND NEW.locked_until > OLD.locked_until THEN"
                        + " DELETE FROM slow_renewals; IF FOUND THEN PERFORM pg_sleep(1.6); END IF; END IF;"
                        + " RETURN NEW; END $$",
                "CREATE TRIGGER slow_renewal BEFORE UPDATE ON idempotency_requests"
                        + " FOR EACH ROW EXECUTE FUNCTION slow_renewal()");
    }

    @Test
    void aRenewalThatReachesTheRowAfterItsClientGaveUpAndTheRowWasReadKeepsTheAttemptsAnswer() throws Exception {
        // A statement trigger holds one renewal 2.5 s before its UPDATE touches the row, the client waits 1
        // s for it: whatever the attempt reads of the row in between is the old fence, and the UPDATE then
        // commits the new one. Armed from inside the operation: the claim inserted the row, so the next UPDATE
        // of the table is a renewal.
        assertAnswerStoredAfterASlowRenewal(
                "late-renewal",
                (byte) 7,
                true,
                "the late renewal committed",
                "the answer was stored under the fence the late renewal wrote",
                "CREATE FUNCTION late_renewal() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " DELETE FROM slow_renewals; IF FOUND THEN PERFORM pg_sleep(2.5); END IF;"
                        + " RETURN NULL; END $$",
                "CREATE TRIGGER late_renewal BEFORE UPDATE ON idempotency_requests"
                        + " FOR EACH STATEMENT EXECUTE FUNCTION late_renewal()");
    }

    /**
     * One call under a store whose client waits 1 s, on a fresh database with {@code trigger} (statements
     * that create a trigger delaying one renewal while {@code slow_renewals} holds a row) installed: the
     * delay is armed before the call, or from inside the operation when {@code armInside}; the operation
     * waits until that renewal committed a later fence, then answers {@code answer}. The answer must be
     * fresh and stored, found by the next claim of the key.
     */
    private void assertAnswerStoredAfterASlowRenewal(
            String keyName, byte answer, boolean armInside, String committed, String stored, String... trigger)
            throws Exception {
        String url = TestDatabase.freshDatabase();
        try (Store store = storeWaitingOneSecond(url)) {
            execute(url, "CREATE TABLE slow_renewals (n int)");
            execute(url, trigger);
            if (!armInside) {
                execute(url, "INSERT INTO slow_renewals VALUES (1)");
            }
            AccountId account = TestDatabase.fundedAccount(store, 0, 0).id();
            ClientKey key = new ClientKey(keyName);
            IdempotentCalls calls = opened.track(
                    new IdempotentCalls(store.idempotency(), Clock.systemUTC(), RETENTION, IdempotentCalls.LEASE));
            try (Connection watch = DriverManager.getConnection(url)) {
                IdempotentCalls.Outcome<byte[]> outcome = calls.run(
                        account,
                        key,
                        request("a"),
                        "Idempotency-Key",
                        reference -> {
                            try (Statement s = watch.createStatement()) {
                                if (armInside) {
                                    s.execute("INSERT INTO slow_renewals VALUES (1)");
                                }
                                Timestamp acquired = lockedUntil(watch, account);
                                // Runs until the slow renewal committed: the database holds the new fence.
                                await(
                                        committed,
                                        () -> pending(watch) == 0
                                                && lockedUntil(watch, account).after(acquired));
                            } catch (SQLException | InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            return new byte[] {answer};
                        },
                        b -> b);
                assertInstanceOf(IdempotentCalls.Outcome.Fresh.class, outcome);
            }
            IdempotencyStore.Claim.Completed done = assertInstanceOf(
                    IdempotencyStore.Claim.Completed.class,
                    store.idempotency()
                            .claim(account, key, request("a"), Instant.now(), IdempotentCalls.LEASE, RETENTION),
                    stored);
            assertArrayEquals(new byte[] {answer}, done.answer());
        }
    }

    /** A store whose client waits 1 s for any statement's answer, as a renewal's network timeout. */
    private static Store storeWaitingOneSecond(String url) {
        return Store.open(
                Database.builder()
                        .url(url)
                        .poolSize(4)
                        .networkTimeout(Duration.ofSeconds(1))
                        .build(),
                Clock.systemUTC());
    }

    private static void execute(String url, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    private static long pending(Connection c) {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM slow_renewals")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Timestamp lockedUntil(Connection c, AccountId account) {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT locked_until FROM idempotency_requests WHERE account_id = " + account.value())) {
            rs.next();
            return rs.getTimestamp(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
