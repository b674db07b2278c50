package dev.cadastro.store.internal;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;

/**
 * Group commit of delivered outcomes: each attempt that got a 2xx queues its row and waits; one thread
 * takes whatever has queued (nothing waits for a batch to fill) and records it in one statement and
 * one commit, so a thousand deliveries a second cost tens of commits, not a thousand. A row is
 * recorded only while its owner still holds it, as {@code PgDeliveryQueue.delivered} alone would. An
 * attempt waits for its batch at most {@link #WAIT}, then records its row on its own, so a stuck batch
 * never holds an attempt past its lease.
 */
final class DeliveredBatcher implements AutoCloseable {
    static final int MAX_BATCH = 256;

    /** How long an attempt waits for its batch before it records its outcome on its own. */
    static final Duration WAIT = Duration.ofSeconds(2);

    private record Pending(long id, String owner, Instant at, int status, CompletableFuture<Boolean> done) {}

    private static final String UPDATE = "UPDATE call_deliveries cd SET state = 'entregue',"
            + " delivered_at = timestamptz 'epoch' + v.us * interval '1 microsecond',"
            + " last_status = v.status, last_error = NULL, lease_owner = NULL, lease_until = NULL"
            + " FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::int[]) AS v(id, owner, us, status)"
            + " WHERE cd.id = v.id AND cd.lease_owner = v.owner AND cd.state = 'pendente' RETURNING cd.id";

    private final DataSource dataSource;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread worker;
    private volatile boolean closed;

    DeliveredBatcher(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.worker = Thread.ofPlatform().daemon().name("push-delivered-batch").unstarted(this::work);
        worker.start();
    }

    boolean submit(long id, String owner, Instant at, int status) {
        Pending p = new Pending(id, owner, at, status, new CompletableFuture<>());
        if (closed) {
            return recordAlone(p);
        }
        queue.add(p);
        if (closed && queue.remove(p)) {
            return recordAlone(p);
        }
        try {
            return p.done().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // The batch is stuck (a slow database, a lost connection): record this one on its own
            // rather than hold the attempt past its lease. Should the batch still run it, it matches
            // nothing: the row is no longer pending.
            queue.remove(p);
            return recordAlone(p);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted recording delivery " + id, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    private boolean recordAlone(Pending p) {
        return record(List.of(p)).contains(p.id());
    }

    private void work() {
        List<Pending> taken = new ArrayList<>(MAX_BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                taken.add(first);
            } catch (InterruptedException e) {
                break;
            }
            queue.drainTo(taken, MAX_BATCH - 1);
            try {
                Set<Long> recorded = record(taken);
                for (Pending p : taken) {
                    p.done().complete(recorded.contains(p.id()));
                }
            } catch (RuntimeException e) {
                taken.forEach(p -> p.done().completeExceptionally(e));
            }
            taken.clear();
        }
        Pending left;
        while ((left = queue.poll()) != null) {
            left.done().completeExceptionally(new IllegalStateException("the delivery queue closed"));
        }
    }

    private Set<Long> record(List<Pending> batch) {
        return Jdbc.autoCommit(dataSource, "record deliveries", c -> {
            Long[] ids = new Long[batch.size()];
            String[] owners = new String[batch.size()];
            Long[] micros = new Long[batch.size()];
            Integer[] statuses = new Integer[batch.size()];
            for (int i = 0; i < batch.size(); i++) {
                Pending p = batch.get(i);
                ids[i] = p.id();
                owners[i] = p.owner();
                micros[i] = ChronoUnit.MICROS.between(Instant.EPOCH, p.at());
                statuses[i] = p.status();
            }
            try (PreparedStatement ps = c.prepareStatement(UPDATE)) {
                ps.setArray(1, array(c, "bigint", ids));
                ps.setArray(2, array(c, "text", owners));
                ps.setArray(3, array(c, "bigint", micros));
                ps.setArray(4, array(c, "integer", statuses));
                Set<Long> done = new HashSet<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        done.add(rs.getLong(1));
                    }
                }
                return done;
            }
        });
    }

    private static Array array(Connection c, String type, Object[] values) throws SQLException {
        return c.createArrayOf(type, values);
    }

    @Override
    public void close() {
        closed = true;
        try {
            worker.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
