package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.idempotency.ClientKey;
import dev.cadastro.core.idempotency.IdempotencyStore;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.internal.ManualClock;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Client idempotency keys on the real PostgreSQL: races, leases, scoping and retention. */
class IdempotencyTest {
    private final OpenedCalls opened = new OpenedCalls();

    @AfterEach
    void closeCalls() {
        opened.close();
    }

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private final IdempotencyStore store = TestDatabase.store().idempotency();

    private static RequestFingerprint request(String value) {
        return RequestFingerprint.of("GET /test", Map.of("q", List.of(value)));
    }

    @Test
    void concurrentAttemptsWithOneKeyRunTheOperationOnceAndAllGetItsAnswer() throws Exception {
        AccountId account = TestDatabase.fundedAccount(0, 0).id();
        IdempotentCalls calls = opened.track(new IdempotentCalls(store, Clock.systemUTC()));
        AtomicInteger runs = new AtomicInteger();
        int threads = 16;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<byte[]>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    IdempotentCalls.Outcome<byte[]> outcome = calls.run(
                            account,
                            new ClientKey("race"),
                            request("a"),
                            "Idempotency-Key",
                            reference -> {
                                runs.incrementAndGet();
                                sleep(200); // long enough that the others find it in flight
                                return reference.getBytes(StandardCharsets.US_ASCII);
                            },
                            b -> b);
                    return switch (outcome) {
                        case IdempotentCalls.Outcome.Fresh<byte[]> f -> f.value();
                        case IdempotentCalls.Outcome.Replayed<byte[]> r -> r.answer();
                    };
                }));
            }
            go.countDown();
            byte[] first = answers.get(0).get();
            for (Future<byte[]> f : answers) {
                assertArrayEquals(first, f.get());
            }
        }
        assertEquals(1, runs.get(), "one attempt ran; the others waited and replayed it");
    }

    @Test
    void aCallAfterCloseGivesItsClaimBackSoTheKeyIsNotHeldInFlight() {
        AccountId account = TestDatabase.fundedAccount(0, 0).id();
        // A minute's lease: a claim left behind would hold the key that long.
        IdempotentCalls closed =
                new IdempotentCalls(store, Clock.systemUTC(), Duration.ofHours(24), Duration.ofMinutes(1));
        closed.close();
        AtomicInteger runs = new AtomicInteger();
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> closed.run(
                        account,
                        new ClientKey("after-close"),
                        request("a"),
                        "Idempotency-Key",
                        reference -> {
                            runs.incrementAndGet();
                            return new byte[0];
                        },
                        b -> b));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertEquals(0, runs.get(), "nothing ran on closed calls");
        IdempotentCalls open =
                new IdempotentCalls(store, Clock.systemUTC(), Duration.ofHours(24), Duration.ofMinutes(1));
        try {
            IdempotentCalls.Outcome<byte[]> retry = assertTimeoutPreemptively(
                    Duration.ofSeconds(10),
                    () -> open.run(
                            account,
                            new ClientKey("after-close"),
                            request("a"),
                            "Idempotency-Key",
                            reference -> {
                                runs.incrementAndGet();
                                return new byte[] {1};
                            },
                            b -> b));
            assertTrue(retry instanceof IdempotentCalls.Outcome.Fresh<byte[]>, "the retry ran: " + retry);
            assertEquals(1, runs.get());
        } finally {
            open.close();
        }
    }

    @Test
    void theSameKeyOnAnotherRequestIsRefusedNamingTheField() {
        AccountId account = TestDatabase.fundedAccount(0, 0).id();
        IdempotentCalls calls = opened.track(new IdempotentCalls(store, Clock.fixed(T0, java.time.ZoneOffset.UTC)));
        calls.run(account, new ClientKey("k"), request("a"), "Idempotency-Key", r -> new byte[] {1}, b -> b);
        InvalidParameterException e = assertThrows(
                InvalidParameterException.class,
                () -> calls.run(
                        account, new ClientKey("k"), request("b"), "Idempotency-Key", r -> new byte[] {2}, b -> b));
        assertEquals("Idempotency-Key", e.violation().field());
        assertTrue(e.getMessage().contains("another request"), e.getMessage());
    }

    @Test
    void keysAreScopedToTheAccount() {
        AccountId a = TestDatabase.fundedAccount(0, 0).id();
        AccountId b = TestDatabase.fundedAccount(0, 0).id();
        IdempotentCalls calls = opened.track(new IdempotentCalls(store, Clock.fixed(T0, java.time.ZoneOffset.UTC)));
        calls.run(a, new ClientKey("shared"), request("a"), "Idempotency-Key", r -> new byte[] {1}, b2 -> b2);
        IdempotentCalls.Outcome<byte[]> other =
                calls.run(b, new ClientKey("shared"), request("b"), "Idempotency-Key", r -> new byte[] {2}, b2 -> b2);
        assertInstanceOf(IdempotentCalls.Outcome.Fresh.class, other, "another account's key is another key");
    }

    @Test
    void aStaleAttemptCanNeitherCompleteNorReleaseAKeyAnotherAttemptTookOver() {
        AccountId account = TestDatabase.fundedAccount(0, 0).id();
        ClientKey key = new ClientKey("fenced");
        Duration lease = Duration.ofSeconds(60);
        Duration retention = Duration.ofHours(24);
        IdempotencyStore.Claim.Acquired slow = assertInstanceOf(
                IdempotencyStore.Claim.Acquired.class, store.claim(account, key, request("a"), T0, lease, retention));
        // The slow attempt outlives its lease; another takes the key over.
        IdempotencyStore.Claim.Acquired taker = assertInstanceOf(
                IdempotencyStore.Claim.Acquired.class,
                store.claim(account, key, request("a"), T0.plusSeconds(61), lease, retention));
        assertEquals(slow.id(), taker.id(), "the same row, so the same ledger reference");
        store.release(slow.id(), java.util.List.of(slow.leaseUntil()));
        assertInstanceOf(
                IdempotencyStore.Claim.InFlight.class,
                store.claim(account, key, request("a"), T0.plusSeconds(62), lease, retention),
                "the stale release did not free the key the taker holds");
        assertFalse(
                store.complete(slow.id(), java.util.List.of(slow.leaseUntil()), new byte[] {1}, T0.plusSeconds(63)));
        assertTrue(
                store.complete(taker.id(), java.util.List.of(taker.leaseUntil()), new byte[] {2}, T0.plusSeconds(63)));
        IdempotencyStore.Claim.Completed done = assertInstanceOf(
                IdempotencyStore.Claim.Completed.class,
                store.claim(account, key, request("a"), T0.plusSeconds(64), lease, retention));
        assertArrayEquals(new byte[] {2}, done.answer(), "the taker's answer is the one kept");
    }

    @Test
    void anAttemptWhoseServerDiedIsTakenOverWithTheSameReferenceAfterItsLease() {
        AccountId account = TestDatabase.fundedAccount(0, 0).id();
        ManualClock clock = new ManualClock(T0);
        ClientKey key = new ClientKey("crash");
        Duration lease = Duration.ofSeconds(60);
        IdempotencyStore.Claim first = store.claim(account, key, request("a"), T0, lease, Duration.ofHours(24));
        long id = assertInstanceOf(IdempotencyStore.Claim.Acquired.class, first).id();
        // The server holding it dies: nothing completes or releases it.
        assertInstanceOf(
                IdempotencyStore.Claim.InFlight.class,
                store.claim(account, key, request("a"), T0.plusSeconds(59), lease, Duration.ofHours(24)));
        clock.set(T0.plusSeconds(61));
        IdempotentCalls calls = opened.track(new IdempotentCalls(store, clock, Duration.ofHours(24), lease));
        IdempotentCalls.Outcome<String> outcome = calls.run(
                account,
                key,
                request("a"),
                "Idempotency-Key",
                reference -> reference,
                s -> s.getBytes(StandardCharsets.US_ASCII));
        assertEquals("idem." + id, ((IdempotentCalls.Outcome.Fresh<String>) outcome).value());
    }

    @Test
    void aRunningAttemptRenewsItsShortLeaseSoNoRetryTakesItsKeyOver() throws Exception {
        AccountId account = TestDatabase.fundedAccount(0, 0).id();
        ClientKey key = new ClientKey("renewed");
        Duration lease = Duration.ofMillis(900);
        IdempotentCalls calls =
                opened.track(new IdempotentCalls(store, Clock.systemUTC(), Duration.ofHours(24), lease));
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
                        return new byte[] {7};
                    },
                    b -> b));
            try {
                inside.await();
                Instant started = Instant.now();
                // Three leases long, another server's claim keeps finding the attempt in flight.
                while (Duration.between(started, Instant.now()).compareTo(lease.multipliedBy(3)) < 0) {
                    assertInstanceOf(
                            IdempotencyStore.Claim.InFlight.class,
                            store.claim(account, key, request("a"), Instant.now(), lease, Duration.ofHours(24)),
                            "the live attempt's key was taken over");
                    Thread.sleep(50);
                }
            } finally {
                finish.countDown();
            }
            assertInstanceOf(IdempotentCalls.Outcome.Fresh.class, running.get());
        }
        IdempotencyStore.Claim.Completed done = assertInstanceOf(
                IdempotencyStore.Claim.Completed.class,
                store.claim(account, key, request("a"), Instant.now(), lease, Duration.ofHours(24)));
        assertArrayEquals(new byte[] {7}, done.answer(), "its answer was kept under the renewed lease");
    }

    @Test
    void aKilledServersKeyIsTakenOverWithinSecondsByDefault() {
        assertTrue(
                IdempotentCalls.LEASE.compareTo(Duration.ofSeconds(10)) <= 0,
                "a retry of a request whose server died waits out this lease: " + IdempotentCalls.LEASE);
    }

    @Test
    void aKeyIsForgottenAfterItsRetentionAndPurged() {
        AccountId account = TestDatabase.fundedAccount(0, 0).id();
        ManualClock clock = new ManualClock(T0);
        IdempotentCalls calls =
                opened.track(new IdempotentCalls(store, clock, Duration.ofHours(24), Duration.ofSeconds(60)));
        calls.run(account, new ClientKey("old"), request("a"), "Idempotency-Key", r -> new byte[] {1}, b -> b);
        clock.advance(Duration.ofHours(24).minusSeconds(1));
        assertThrows(
                InvalidParameterException.class,
                () -> calls.run(
                        account, new ClientKey("old"), request("b"), "Idempotency-Key", r -> new byte[] {2}, b -> b),
                "still remembered one second before 24 hours");
        clock.advance(Duration.ofSeconds(1));
        assertInstanceOf(
                IdempotentCalls.Outcome.Fresh.class,
                calls.run(account, new ClientKey("old"), request("b"), "Idempotency-Key", r -> new byte[] {2}, b -> b));
        clock.advance(Duration.ofHours(25));
        assertTrue(calls.purge() >= 1, "the purge deletes keys past their retention");
        assertInstanceOf(
                IdempotentCalls.Outcome.Fresh.class,
                calls.run(account, new ClientKey("old"), request("c"), "Idempotency-Key", r -> new byte[] {3}, b -> b));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
