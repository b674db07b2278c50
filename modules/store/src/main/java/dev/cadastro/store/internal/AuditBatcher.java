package dev.cadastro.store.internal;

import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.person.AuditEntry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BiFunction;
import javax.sql.DataSource;

/**
 * Group commit for person lookups' charge-and-audit statements, as {@link ChargeBatcher} is for plain
 * charges: callers queue their pair and wait; a worker takes what has queued (at most {@value
 * #MAX_BATCH}) and runs each pair's one statement in one transaction, so one WAL flush serves many
 * lookups. Each pair's debit, entry and audit row stay in one statement, hence in one transaction
 * either way. A pair the statement did not charge (a short balance, a replay) is answered after the
 * commit by the transactional path; if any statement fails, the transaction is rolled back and every
 * pair of the batch goes through that path one by one, so each caller gets the answer it would have
 * had alone.
 */
final class AuditBatcher implements AutoCloseable {
    static final int MAX_BATCH = 64;

    @FunctionalInterface
    interface OneStatement {
        /** Runs the statement on the connection: the charge, or empty when it charged nothing. */
        Optional<ChargeResult> run(Connection c, ChargeRequest charge, AuditEntry entry) throws SQLException;
    }

    private record Pending(ChargeRequest charge, AuditEntry entry, CompletableFuture<ChargeResult> result) {}

    private final DataSource dataSource;
    private final OneStatement statement;
    private final BiFunction<ChargeRequest, AuditEntry, ChargeResult> alone;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean closed;

    AuditBatcher(
            DataSource dataSource,
            int workers,
            OneStatement statement,
            BiFunction<ChargeRequest, AuditEntry, ChargeResult> alone) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.statement = Objects.requireNonNull(statement, "statement");
        this.alone = Objects.requireNonNull(alone, "alone");
        for (int i = 0; i < workers; i++) {
            Thread t = Thread.ofPlatform()
                    .daemon()
                    .name("cadastro-audit-batch-" + i)
                    .unstarted(this::work);
            this.workers.add(t);
            t.start();
        }
    }

    ChargeResult chargeAndRecord(ChargeRequest charge, AuditEntry entry) {
        if (closed) {
            throw new IllegalStateException("the audit trail is closed");
        }
        Pending pending = new Pending(charge, entry, new CompletableFuture<>());
        queue.add(pending);
        if (closed && queue.remove(pending)) {
            throw new IllegalStateException("the audit trail closed before charge " + charge.key() + " was applied");
        }
        try {
            return pending.result().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted waiting for charge " + charge.key() + "; it may still be applied", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void work() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (!closed) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                break;
            }
            queue.drainTo(batch, MAX_BATCH - 1);
            try {
                apply(batch);
            } catch (RuntimeException | Error e) {
                batch.forEach(p -> p.result().completeExceptionally(e));
            }
            batch.clear();
        }
        Pending p;
        while ((p = queue.poll()) != null) {
            p.result()
                    .completeExceptionally(new IllegalStateException("the audit trail closed before charge "
                            + p.charge().key() + " was applied; nothing was charged"));
        }
    }

    private void apply(List<Pending> batch) {
        List<Optional<ChargeResult>> results = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            results.add(Optional.empty());
        }
        // Balance rows are locked in account order, as every ledger change does, so two batches cannot
        // deadlock on each other.
        List<Integer> order = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            order.add(i);
        }
        order.sort(java.util.Comparator.comparingLong(
                i -> batch.get(i).charge().account().value()));
        boolean committed = false;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                for (int i : order) {
                    Pending p = batch.get(i);
                    results.set(i, statement.run(c, p.charge(), p.entry()));
                }
                c.commit();
                committed = true;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            committed = false;
        }
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            Optional<ChargeResult> done = committed ? results.get(i) : Optional.empty();
            if (done.isPresent()) {
                p.result().complete(done.get());
            } else {
                try {
                    p.result().complete(alone.apply(p.charge(), p.entry()));
                } catch (RuntimeException e) {
                    p.result().completeExceptionally(e);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        workers.forEach(Thread::interrupt);
    }
}
