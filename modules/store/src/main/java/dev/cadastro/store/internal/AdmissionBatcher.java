package dev.cadastro.store.internal;

import dev.cadastro.core.ratelimit.AdmissionStore;
import dev.cadastro.store.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Group commit for admissions (ADR 0031): callers queue their request's key and windows and wait
 * ({@link GroupCommit}); a worker admits whatever has queued in one statement, {@code admit_batch},
 * which runs the single path's statement for each item inside one transaction, so one commit serves
 * many requests and each request gets the answer it would have had alone. There are several queues,
 * each with one worker and at most one batch (one pooled connection) in flight, and a key always goes
 * to the same queue (by its prefix): queues run in parallel on their own connections, one key's
 * requests keep their arrival order, and a key's minute row is only ever locked by one batch of this
 * process at a time. A worker takes what has queued as soon as it is free (no timer, no waiting for a
 * batch to fill), so a request waits at most for the one batch ahead of it on its own queue. A request
 * is answered only after its batch committed: no request proceeds on a count that could still be lost.
 * A batch that fails as a whole (a deadlock against another server's batch, a lost connection) counted
 * nothing, and its items are admitted again one by one through the single path.
 */
final class AdmissionBatcher implements AutoCloseable {
    /** One request to admit: the arguments of {@link AdmissionStore#admit}. */
    record Ask(String prefix, byte[] secretHash, AdmissionStore.Window window) {
        Ask {
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(secretHash, "secretHash");
            Objects.requireNonNull(window, "window");
        }
    }

    private static final System.Logger LOG = System.getLogger(AdmissionBatcher.class.getName());

    private static final String BATCH = "SELECT b.item, " + Rows.KEY + ", " + Rows.ACCOUNT + ", b.counted,"
            + " b.minute_count, b.day_count, b.day_before, b.minute_before"
            + " FROM admit_batch(?, ?, ?, ?, ?) b, LATERAL (SELECT (b.k).*) k, LATERAL (SELECT (b.a).*) a";

    private final DataSource dataSource;
    private final Function<Ask, Optional<AdmissionStore.Found>> alone;
    private final List<GroupCommit<Ask, Optional<AdmissionStore.Found>>> queues;
    private final AtomicInteger largest = new AtomicInteger();
    private final AtomicLong fallbacks = new AtomicLong();
    private final AtomicLongArray batchesPerQueue;

    /** @param queues how many queues, each with its own worker */
    AdmissionBatcher(DataSource dataSource, int queues, Function<Ask, Optional<AdmissionStore.Found>> alone) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.alone = Objects.requireNonNull(alone, "alone");
        if (queues < 1) {
            throw new IllegalArgumentException("admission queues " + queues + " must be at least 1");
        }
        this.batchesPerQueue = new AtomicLongArray(queues);
        List<GroupCommit<Ask, Optional<AdmissionStore.Found>>> list = new ArrayList<>(queues);
        for (int q = 0; q < queues; q++) {
            int queue = q;
            list.add(new GroupCommit<>("the admission counters", "cadastro-admission-batch-" + q + "-", 1, batch -> {
                batchesPerQueue.incrementAndGet(queue);
                apply(batch);
            }));
        }
        this.queues = List.copyOf(list);
    }

    Optional<AdmissionStore.Found> admit(Ask ask) {
        return queues.get(queueOf(ask.prefix())).submit(ask, "admission of key " + ask.prefix());
    }

    /** The queue of a key: always the same one for a prefix. */
    int queueOf(String prefix) {
        return Math.floorMod(prefix.hashCode(), queues.size());
    }

    /** How many batches (of one or more requests) each queue has applied. */
    long batchesOf(int queue) {
        return batchesPerQueue.get(queue);
    }

    private void apply(List<GroupCommit.Pending<Ask, Optional<AdmissionStore.Found>>> batch) {
        if (batch.size() == 1) {
            one(batch.get(0));
            return;
        }
        int n = batch.size();
        largest.accumulateAndGet(n, Math::max);
        String[] prefixes = new String[n];
        byte[][] hashes = new byte[n][];
        Long[] minutes = new Long[n];
        Date[] days = new Date[n];
        Long[] perMinute = new Long[n];
        for (int i = 0; i < n; i++) {
            Ask a = batch.get(i).item();
            prefixes[i] = a.prefix();
            hashes[i] = a.secretHash();
            minutes[i] = a.window().epochMinute();
            days[i] = Date.valueOf(a.window().day());
            perMinute[i] = a.window().perMinute();
        }
        List<Optional<AdmissionStore.Found>> found = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            found.add(Optional.empty());
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(BATCH)) {
            Array a1 = c.createArrayOf("text", prefixes);
            Array a2 = c.createArrayOf("bytea", hashes);
            Array a3 = c.createArrayOf("bigint", minutes);
            Array a4 = c.createArrayOf("date", days);
            Array a5 = c.createArrayOf("bigint", perMinute);
            Jdbc.set(ps, a1, a2, a3, a4, a5);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.set(rs.getInt("item") - 1, Optional.of(PgAdmissionStore.found(rs)));
                }
            }
        } catch (SQLException e) {
            if (Jdbc.unavailable(e)) {
                // Out of reach: fail them all now rather than wait out a timeout each, and never count twice
                // a batch the server was only slow to answer.
                StoreException failure = Jdbc.failure("admission batch of " + n, e);
                batch.forEach(p -> p.result().completeExceptionally(failure));
                return;
            }
            // Nothing of this batch was counted (auto-commit: the statement is the transaction).
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "admission batch of {0} failed ({1}); admitting one by one",
                    n,
                    e.getMessage());
            fallbacks.incrementAndGet();
            batch.forEach(this::one);
            return;
        }
        // Only after the commit (the statement's end) does any caller learn its answer.
        for (int i = 0; i < n; i++) {
            batch.get(i).result().complete(found.get(i));
        }
    }

    /** Admits the requests as one batch on the calling thread (tests compose batches exactly). */
    List<CompletableFuture<Optional<AdmissionStore.Found>>> applyAsOneBatch(List<Ask> asks) {
        List<GroupCommit.Pending<Ask, Optional<AdmissionStore.Found>>> batch = new ArrayList<>();
        for (Ask a : asks) {
            batch.add(new GroupCommit.Pending<>(a, "admission of key " + a.prefix(), new CompletableFuture<>()));
        }
        apply(batch);
        return batch.stream().map(GroupCommit.Pending::result).toList();
    }

    /** The largest batch applied so far. */
    int largestBatch() {
        return largest.get();
    }

    /** How many batches failed as a whole and were admitted item by item. */
    long fallbacks() {
        return fallbacks.get();
    }

    private void one(GroupCommit.Pending<Ask, Optional<AdmissionStore.Found>> p) {
        try {
            p.result().complete(alone.apply(p.item()));
        } catch (RuntimeException e) {
            p.result().completeExceptionally(e);
        }
    }

    @Override
    public void close() {
        queues.forEach(GroupCommit::close);
    }
}
