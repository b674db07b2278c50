package dev.cadastro.core.idempotency;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.time.SaoPauloTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Runs a request at most once per client key: the one mechanism behind every operation that accepts
 * an idempotency key (searches, and every paid {@code POST}).
 *
 * <ul>
 *   <li>A new key runs the operation with a reference derived from the key's row ({@code idem.<id>}),
 *       which the operation uses as its ledger reference, and stores the encoded answer.
 *   <li>The same key with the same request (same {@link RequestFingerprint}) answers the stored bytes:
 *       nothing runs, nothing is charged, and the answer is the same even if the data changed since.
 *   <li>The same key with another request is {@code PARAMETRO_INVALIDO} naming the key's field.
 *   <li>A request still running under the key is waited for (polling), then replayed; one whose server
 *       died is taken over when its lease runs out, with the same reference, so a charge it made is a
 *       ledger replay. The lease is short ({@link #LEASE}) and renewed every third of it while the
 *       request runs, so a retry of a request whose server was killed waits seconds, not minutes.
 *   <li>An operation that throws releases the key: nothing was delivered, and a retry runs again under
 *       the same reference (a charge that did commit is not made twice).
 * </ul>
 *
 * Keys are kept for {@link #retention()} from their first use, then forgotten ({@link #purge()}). The
 * renewals run on threads of these calls, started by the first attempt; their owner closes them.
 */
public final class IdempotentCalls implements AutoCloseable {
    /** How long a key is remembered from its first use. */
    public static final Duration RETENTION = Duration.ofHours(24);

    /**
     * How long an attempt holds its key before another server may take it over, unless it renews it (it
     * does every third of it while it runs). Short, because a client retrying a request whose server was
     * killed waits that long; long enough that a renewal delayed by a loaded machine or a database
     * failover does not let a retry run beside a live attempt (which would still charge once: the same
     * reference). Three seconds since the renewals run on threads and connections of their own: the fleet
     * run's server kill measured 6.6 s for a request HAProxy resent while the lease was 6 s, against a
     * goal of 5 s.
     */
    public static final Duration LEASE = Duration.ofSeconds(3);

    /** However the leases go, a retry never waits longer than this for an attempt of the same key. */
    private static final long MAX_WAIT_MILLIS = 121_000;

    private static final System.Logger LOG = System.getLogger(IdempotentCalls.class.getName());

    private static final long POLL_MILLIS = 25;

    /** How long {@link #close} waits for a renewal under way (one short UPDATE, or its network timeout). */
    private static final long CLOSE_WAIT_SECONDS = 5;

    private final IdempotencyStore store;
    private final Clock clock;
    private final Duration retention;
    private final Duration lease;

    /**
     * Times the renewals of running attempts; it never touches the database itself, so a renewal held up
     * by it cannot delay the others'. Its thread starts with the first attempt and ends at {@link #close}.
     */
    private final java.util.concurrent.ScheduledExecutorService renewalTimer;

    /**
     * Runs the renewals, each on a thread of its own (at most one per running attempt at a time): a renewal
     * waiting for a connection or a slow database holds back no other attempt's lease.
     */
    private final java.util.concurrent.ExecutorService renewers;

    public IdempotentCalls(IdempotencyStore store, Clock clock) {
        this(store, clock, RETENTION, LEASE);
    }

    /** With another retention and lease (tests, private deployments). */
    public IdempotentCalls(IdempotencyStore store, Clock clock, Duration retention, Duration lease) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.retention = positive(retention, "retention");
        this.lease = positive(lease, "lease");
        // Daemon threads, so an owner that never closes these calls does not keep its process alive.
        this.renewalTimer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("idempotency-lease-timer").factory());
        this.renewers = java.util.concurrent.Executors.newCachedThreadPool(
                Thread.ofPlatform().daemon().name("idempotency-lease-", 0).factory());
    }

    /** The outcome of {@link #run}. */
    public sealed interface Outcome<T> {
        /** The operation ran now. */
        record Fresh<T>(T value) implements Outcome<T> {}

        /** The operation ran before; its encoded answer. */
        record Replayed<T>(byte[] answer) implements Outcome<T> {}
    }

    /**
     * Runs {@code operation} once for the key and request.
     *
     * @param field how the client sent the key (e.g. the header {@code Idempotency-Key}), named in errors
     * @param operation takes the reference to charge under and returns the answer
     * @param encode the bytes to store for replays
     * @throws InvalidParameterException {@code PARAMETRO_INVALIDO} when the key was used for another request
     */
    public <T> Outcome<T> run(
            AccountId account,
            ClientKey key,
            RequestFingerprint fingerprint,
            String field,
            Function<String, T> operation,
            Function<T, byte[]> encode) {
        long waited = 0;
        long maxWait = Math.max(MAX_WAIT_MILLIS, lease.toMillis() * 2 + 1000);
        while (true) {
            IdempotencyStore.Claim claim = store.claim(account, key, fingerprint, clock.instant(), lease, retention);
            switch (claim) {
                case IdempotencyStore.Claim.Acquired acquired -> {
                    return runAcquired(acquired, operation, encode);
                }
                case IdempotencyStore.Claim.Completed done -> {
                    return new Outcome.Replayed<>(done.answer());
                }
                case IdempotencyStore.Claim.OtherRequest other ->
                    throw InvalidParameterException.of(
                            field,
                            "reused",
                            Message.IDEMPOTENCY_KEY_REUSED.with(
                                    field,
                                    Texts.quote(key.value()),
                                    SaoPauloTime.format(other.firstUsedAt()),
                                    retention.toHours()));
                case IdempotencyStore.Claim.InFlight inFlight -> {
                    if (waited > maxWait) {
                        // Only a clock that does not move gets here: a real one lets the lease run out.
                        throw new IllegalStateException("key of account " + account + " stayed in flight until "
                                + inFlight.leaseUntil() + " after " + waited + " ms of waiting");
                    }
                    sleep();
                    waited += POLL_MILLIS;
                }
            }
        }
    }

    private <T> Outcome<T> runAcquired(
            IdempotencyStore.Claim.Acquired acquired, Function<String, T> operation, Function<T, byte[]> encode) {
        long id = acquired.id();
        Lease held = new Lease(id, acquired.leaseUntil());
        long every = Math.max(1, lease.toMillis() / 3);
        java.util.concurrent.ScheduledFuture<?> renewal;
        try {
            renewal = renewalTimer.scheduleWithFixedDelay(
                    held::renewInBackground, every, every, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Closed: the claim is given back, so a retry of the key is not held in flight until the lease ends.
            giveBack(id, held, e);
            throw new IllegalStateException("the idempotent calls were closed", e);
        }
        T value;
        byte[] answer;
        try {
            value = operation.apply("idem." + id);
            answer = encode.apply(value);
        } catch (RuntimeException | Error e) {
            renewal.cancel(false);
            giveBack(id, held, e);
            throw e;
        }
        renewal.cancel(false);
        store.complete(id, held.end(), answer, clock.instant());
        return new Outcome.Fresh<>(value);
    }

    /** Releases an attempt's claim for the next one; a failure to release is added to {@code cause}. */
    private void giveBack(long id, Lease held, Throwable cause) {
        try {
            store.release(id, held.end());
        } catch (RuntimeException suppressed) {
            cause.addSuppressed(suppressed);
        }
    }

    /**
     * The lease of one running attempt: every fence the row may hold for it. A renewal whose answer was
     * lost (the database may have committed it, now or later: its {@code UPDATE} may still be on its way
     * to the row) adds the fence it tried to write instead of replacing the held one; the next renewal,
     * the completion and the release each match any of them, so the attempt neither keeps a stale fence
     * nor takes itself for lost, whenever the lost {@code UPDATE} lands. A renewal that matches one of
     * them leaves a single fence: every earlier write was conditional on an older fence, and the row
     * never holds an older fence again.
     */
    private final class Lease {
        private final long id;
        private final java.util.concurrent.atomic.AtomicBoolean renewing =
                new java.util.concurrent.atomic.AtomicBoolean();
        /** The fence a renewal last confirmed (or the claim's), then those of renewals whose outcome was lost. */
        private final List<Instant> fences = new java.util.ArrayList<>();

        private boolean ended;
        private boolean lost;

        Lease(long id, Instant until) {
            this.id = id;
            this.fences.add(until);
        }

        /** Hands one renewal to its own thread, unless the previous one of this lease still runs. */
        void renewInBackground() {
            if (!renewing.compareAndSet(false, true)) {
                return;
            }
            try {
                renewers.execute(() -> {
                    try {
                        renew();
                    } finally {
                        renewing.set(false);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                renewing.set(false);
            }
        }

        synchronized void renew() {
            if (ended || lost) {
                return;
            }
            // Microseconds, as PostgreSQL keeps them: the value fences the attempt and must compare equal.
            Instant next = clock.instant().plus(lease).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
            if (!next.isAfter(fences.getLast())) {
                return;
            }
            try {
                if (store.renew(id, List.copyOf(fences), next)) {
                    fences.clear();
                    fences.add(next);
                } else {
                    lost = true;
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "idempotency key {0} was taken over or ended while its attempt ran",
                            id);
                }
            } catch (RuntimeException e) {
                // The UPDATE may have committed, or may still commit: the row may hold either fence.
                fences.add(next);
                LOG.log(System.Logger.Level.DEBUG, "renewing the lease of idempotency key " + id + " failed", e);
            }
        }

        /** Stops the renewals; the fences to complete or release with (any one of them is this attempt's). */
        synchronized List<Instant> end() {
            ended = true;
            return List.copyOf(fences);
        }
    }

    /**
     * Stops the renewal threads, waiting a little for a renewal under way. Attempts still running lose
     * their renewals, and with them their keys once their leases run out: stop serving requests first.
     */
    @Override
    public void close() {
        renewalTimer.shutdownNow();
        renewers.shutdownNow();
        try {
            if (!renewalTimer.awaitTermination(CLOSE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)
                    || !renewers.awaitTermination(CLOSE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "an idempotency lease renewal was still running at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Forgets keys older than the retention; returns how many. */
    public long purge() {
        return store.purge(clock.instant().minus(retention));
    }

    public Duration retention() {
        return retention;
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a request with the same key", e);
        }
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " " + d + " must be positive");
        }
        return d;
    }
}
