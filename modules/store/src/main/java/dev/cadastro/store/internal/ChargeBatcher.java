package dev.cadastro.store.internal;

import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.store.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Group commit for charges: callers hand their charge to a queue and wait ({@link GroupCommit});
 * worker threads (one by default, {@code Database.Builder.groupCommitWorkers}) take whatever has
 * queued up (at most {@value #MAX_BATCH}) and apply it in one transaction through {@code
 * ledger_charge_batch}, so one WAL flush serves many charges. Nothing waits for a batch to fill: under
 * light load a batch is one charge. The per-item rules are those of the single-statement path; a
 * batch that fails as a whole (a concurrent first use of a key, a lost connection) is applied again
 * item by item through that path, so every caller gets the answer it would have had alone.
 */
final class ChargeBatcher implements AutoCloseable {
    static final int MAX_BATCH = GroupCommit.MAX_BATCH;

    private static final System.Logger LOG = System.getLogger(ChargeBatcher.class.getName());

    private final DataSource dataSource;
    private final Clock clock;
    private final Function<ChargeRequest, ChargeResult> single;
    private final GroupCommit<ChargeRequest, ChargeResult> group;
    private volatile int largest;

    ChargeBatcher(DataSource dataSource, Clock clock, int workers, Function<ChargeRequest, ChargeResult> single) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.single = Objects.requireNonNull(single, "single");
        this.group = new GroupCommit<>("the ledger", "cadastro-ledger-batch-", workers, this::apply);
    }

    ChargeResult charge(ChargeRequest request) {
        return group.submit(request, "charge " + request.key());
    }

    private void apply(List<GroupCommit.Pending<ChargeRequest, ChargeResult>> batch) {
        if (batch.size() == 1) {
            one(batch.get(0));
            return;
        }
        int n = batch.size();
        if (n > largest) {
            largest = n;
        }
        Long[] accounts = new Long[n];
        String[] kinds = new String[n];
        Long[] amounts = new Long[n];
        String[] keys = new String[n];
        String[] descriptions = new String[n];
        for (int i = 0; i < n; i++) {
            ChargeRequest r = batch.get(i).item();
            accounts[i] = r.account().value();
            kinds[i] = r.kind().name();
            amounts[i] = r.amount();
            keys[i] = r.key().value();
            descriptions[i] = r.description();
        }
        List<Runnable> completions = new ArrayList<>(n);
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT item, outcome, balance, available, used_amount, used_kind"
                                + " FROM ledger_charge_batch(?, ?, ?, ?, ?, ?)")) {
            Array a1 = c.createArrayOf("bigint", accounts);
            Array a2 = c.createArrayOf("text", kinds);
            Array a3 = c.createArrayOf("bigint", amounts);
            Array a4 = c.createArrayOf("text", keys);
            Array a5 = c.createArrayOf("text", descriptions);
            Jdbc.set(ps, a1, a2, a3, a4, a5, Jdbc.timestamp(clock.instant()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    GroupCommit.Pending<ChargeRequest, ChargeResult> p = batch.get(rs.getInt(1) - 1);
                    ChargeRequest r = p.item();
                    String outcome = rs.getString(2);
                    long balance = rs.getLong(3);
                    long available = rs.getLong(4);
                    long usedAmount = rs.getLong(5);
                    String usedKind = rs.getString(6);
                    completions.add(
                            switch (outcome) {
                                case "CHARGED" ->
                                    () -> p.result().complete(new ChargeResult(r.amount(), balance, false));
                                case "REPLAY" ->
                                    () -> {
                                        IllegalStateException mismatch = PgLedger.replayMismatch(
                                                r.key(),
                                                usedAmount,
                                                usedKind == null ? null : CreditKind.valueOf(usedKind),
                                                -r.amount(),
                                                r.kind());
                                        if (mismatch != null) {
                                            p.result().completeExceptionally(mismatch);
                                        } else {
                                            p.result().complete(new ChargeResult(0, balance, true));
                                        }
                                    };
                                case "INSUFFICIENT" ->
                                    () -> p.result()
                                            .completeExceptionally(new InsufficientCreditsException(
                                                    r.account(), r.kind(), r.amount(), available));
                                case "NO_ACCOUNT" ->
                                    () -> p.result()
                                            .completeExceptionally(
                                                    new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(r.account())));
                                default -> throw new IllegalStateException("unknown batch outcome " + outcome);
                            });
                }
            }
        } catch (SQLException e) {
            if (Jdbc.unavailable(e)) {
                // The server is out of reach: one by one would wait out a timeout each, and a batch the
                // server was only slow to answer may still commit, so a retry would read its charges as replays.
                StoreException failure = Jdbc.failure("charge batch of " + n, e);
                batch.forEach(p -> p.result().completeExceptionally(failure));
                return;
            }
            // Typically a concurrent first use of one of the keys: nothing of this batch was applied.
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "charge batch of {0} failed ({1}); applying one by one",
                    n,
                    e.getMessage());
            batch.forEach(this::one);
            return;
        }
        if (completions.size() != n) {
            throw new IllegalStateException("charge batch of " + n + " answered " + completions.size() + " items");
        }
        // Only after the commit (auto-commit: the statement's end) do callers learn the outcome.
        completions.forEach(Runnable::run);
    }

    /** Applies the requests as one batch on the calling thread (tests compose batches exactly). */
    List<CompletableFuture<ChargeResult>> applyAsOneBatch(List<ChargeRequest> requests) {
        List<GroupCommit.Pending<ChargeRequest, ChargeResult>> batch = new ArrayList<>();
        for (ChargeRequest r : requests) {
            batch.add(new GroupCommit.Pending<>(r, "charge " + r.key(), new CompletableFuture<>()));
        }
        apply(batch);
        return batch.stream().map(GroupCommit.Pending::result).toList();
    }

    /** The largest batch applied so far. */
    int largestBatch() {
        return largest;
    }

    private void one(GroupCommit.Pending<ChargeRequest, ChargeResult> p) {
        try {
            p.result().complete(single.apply(p.item()));
        } catch (RuntimeException e) {
            p.result().completeExceptionally(e);
        }
    }

    @Override
    public void close() {
        group.close();
    }
}
