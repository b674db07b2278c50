package dev.cadastro.store.internal;

import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.person.AuditEntry;
import dev.cadastro.store.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Group commit for person lookups' charge-and-audit statements, as {@link ChargeBatcher} is for plain
 * charges, on the same queue and workers ({@link GroupCommit}): callers queue their pair and wait; a
 * worker takes what has queued (at most {@value
 * #MAX_BATCH}) and runs each pair's one statement in one transaction, so one WAL flush serves many
 * lookups. Each pair's debit, entry and audit row stay in one statement, hence in one transaction
 * either way. A pair the statement did not charge (a short balance, a replay) is answered after the
 * commit by the transactional path; if any statement fails, the transaction is rolled back and every
 * pair of the batch goes through that path one by one, so each caller gets the answer it would have
 * had alone.
 */
final class AuditBatcher implements AutoCloseable {
    static final int MAX_BATCH = GroupCommit.MAX_BATCH;

    @FunctionalInterface
    interface OneStatement {
        /** Runs the statement on the connection: the charge, or empty when it charged nothing. */
        Optional<ChargeResult> run(Connection c, ChargeRequest charge, AuditEntry entry) throws SQLException;
    }

    /** A lookup's charge and the audit row that must commit with it. */
    private record Paired(ChargeRequest charge, AuditEntry entry) {}

    private final DataSource dataSource;
    private final OneStatement statement;
    private final BiFunction<ChargeRequest, AuditEntry, ChargeResult> alone;
    private final Consumer<ChargeRequest> committedInOneStatement;
    private final GroupCommit<Paired, ChargeResult> group;

    AuditBatcher(
            DataSource dataSource,
            int workers,
            OneStatement statement,
            BiFunction<ChargeRequest, AuditEntry, ChargeResult> alone,
            Consumer<ChargeRequest> committedInOneStatement) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.statement = Objects.requireNonNull(statement, "statement");
        this.alone = Objects.requireNonNull(alone, "alone");
        this.committedInOneStatement = Objects.requireNonNull(committedInOneStatement, "committedInOneStatement");
        this.group = new GroupCommit<>("the audit trail", "cadastro-audit-batch-", workers, this::apply);
    }

    ChargeResult chargeAndRecord(ChargeRequest charge, AuditEntry entry) {
        return group.submit(new Paired(charge, entry), "charge " + charge.key());
    }

    private void apply(List<GroupCommit.Pending<Paired, ChargeResult>> batch) {
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
                i -> batch.get(i).item().charge().account().value()));
        boolean committed = false;
        SQLException unreachable = null;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                for (int i : order) {
                    Paired p = batch.get(i).item();
                    results.set(i, statement.run(c, p.charge(), p.entry()));
                }
                c.commit();
                committed = true;
            } catch (SQLException | RuntimeException e) {
                if (e instanceof SQLException sql && Jdbc.unavailable(sql)) {
                    unreachable = sql;
                }
                c.rollback();
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            committed = false;
            if (unreachable == null && Jdbc.unavailable(e)) {
                unreachable = e;
            }
        }
        if (!committed && unreachable != null) {
            // Out of reach: one by one would wait out a timeout each, and a batch the server was only slow
            // to answer may still commit, so a retry would read its charges as replays.
            StoreException failure = Jdbc.failure("audited charge batch of " + batch.size(), unreachable);
            batch.forEach(p -> p.result().completeExceptionally(failure));
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            GroupCommit.Pending<Paired, ChargeResult> p = batch.get(i);
            Optional<ChargeResult> done = committed ? results.get(i) : Optional.empty();
            if (done.isPresent()) {
                committedInOneStatement.accept(p.item().charge());
                p.result().complete(done.get());
            } else {
                try {
                    p.result().complete(alone.apply(p.item().charge(), p.item().entry()));
                } catch (RuntimeException e) {
                    p.result().completeExceptionally(e);
                }
            }
        }
    }

    @Override
    public void close() {
        group.close();
    }
}
