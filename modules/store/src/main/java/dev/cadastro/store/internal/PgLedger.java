package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.CreditResult;
import dev.cadastro.core.ledger.EntryType;
import dev.cadastro.core.ledger.Hold;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.ledger.StatementLine;
import dev.cadastro.core.telemetry.Telemetry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The ledger on PostgreSQL.
 *
 * <p>A charge is one auto-committed statement: a conditional {@code UPDATE} of the balance row
 * ({@code posted - held >= amount}) feeding the {@code INSERT} of the entry. The update takes the row
 * lock, so changes of one balance are serialized and entry ids follow the order they took effect. The
 * {@code NOT EXISTS} in the update skips the common replay without an error; a replay racing the
 * first use of its key waits on the row lock, then hits the unique index on {@code (account_id,
 * idem_key)}, which aborts the whole statement, debit included, and is reported as a replay. The
 * balances {@code CHECK} refuses any overdraft the SQL might let through.
 *
 * <p>Holds add to {@code held}; post and release run in a transaction that locks the balance row
 * before reading the hold, so every transition of a hold sees the latest state.
 */
public final class PgLedger implements Ledger, AutoCloseable {
    private static final int ATTEMPTS = 3;

    private static final String DEBIT = "WITH debit AS ("
            + " UPDATE balances SET posted = posted - ?"
            + " WHERE account_id = ? AND kind = ? AND posted - held >= ?"
            + " AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE account_id = ? AND idem_key = ?)"
            + " RETURNING posted)"
            + " INSERT INTO ledger_entries (account_id, kind, type, amount, idem_key, description, created_at, balance_after)"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, posted FROM debit RETURNING balance_after";

    private static final String CREDIT = "WITH credit AS ("
            + " UPDATE balances SET posted = posted + ?"
            + " WHERE account_id = ? AND kind = ?"
            + " AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE account_id = ? AND idem_key = ?)"
            + " RETURNING posted)"
            + " INSERT INTO ledger_entries (account_id, kind, type, amount, idem_key, description, created_at, balance_after)"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, posted FROM credit RETURNING balance_after";

    /**
     * A hold placed when the balance covers it and its key is new: {@code reserve} raises the balance's
     * held sum, then {@code placed} inserts the hold; its creation time, or no row when nothing was
     * reserved. Its parameters are set by {@link #holdArgs}.
     */
    private static final NamedSql RESERVE = NamedSql.of("""
            WITH reserve AS (
                UPDATE balances SET held = held + :hold_amount
                WHERE account_id = :hold_account AND kind = :hold_kind AND posted - held >= :hold_amount
                  AND NOT EXISTS (SELECT 1 FROM holds WHERE account_id = :hold_account AND idem_key = :hold_key)
                RETURNING 1),
            placed AS (
                INSERT INTO holds (account_id, idem_key, kind, amount, state, description, created_at)
                SELECT :hold_account, :hold_key, :hold_kind, :hold_amount, 'HELD', :hold_description, :hold_at
                FROM reserve
                RETURNING idem_key, created_at)
            SELECT created_at FROM placed
            """);

    /** The values of {@link #RESERVE}'s parameters for the hold {@code r}. */
    private NamedSql.Args holdArgs(HoldRequest r) {
        return NamedSql.args()
                .set("hold_amount", r.amount())
                .set("hold_account", r.account().value())
                .set("hold_kind", r.kind().name())
                .set("hold_key", r.key().value())
                .set("hold_description", r.description())
                .set("hold_at", now());
    }

    /**
     * The latest entries with the balance after each: the posted balance minus the entries that came
     * later, a window over the selected rows only (one statement, one snapshot: the balance and its
     * entries are always written together), so a statement costs O(limit) however long the history.
     */
    private static final String STATEMENT = "WITH latest AS ("
            + " SELECT id, created_at, type, amount, idem_key, description FROM ledger_entries"
            + " WHERE account_id = ? AND kind = ? ORDER BY id DESC LIMIT ?)"
            + " SELECT id, created_at, type, amount, idem_key, description,"
            + " (SELECT posted FROM balances WHERE account_id = ? AND kind = ?)"
            + " - coalesce(sum(amount) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)"
            + " AS running"
            + " FROM latest ORDER BY id DESC";

    private final DataSource dataSource;
    private final Clock clock;
    private final ChargeBatcher batcher;
    private final Telemetry telemetry;

    /** A ledger whose charges each commit alone. */
    public PgLedger(DataSource dataSource, Clock clock) {
        this(dataSource, clock, 0);
    }

    /**
     * @param batchWorkers threads that group concurrent charges into one transaction each ({@link
     *     ChargeBatcher}); 0 to commit every charge alone
     */
    public PgLedger(DataSource dataSource, Clock clock, int batchWorkers) {
        this(dataSource, clock, batchWorkers, Telemetry.NONE);
    }

    /**
     * @param telemetry told of every entry written and the credits each debit took (counted when the
     *     statement succeeds: a caller's transaction that rolls back afterwards is still counted)
     */
    public PgLedger(DataSource dataSource, Clock clock, int batchWorkers, Telemetry telemetry) {
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (batchWorkers < 0) {
            throw new IllegalArgumentException("batch workers " + batchWorkers + " must not be negative");
        }
        this.batcher = batchWorkers == 0 ? null : new ChargeBatcher(dataSource, clock, batchWorkers, this::chargeAlone);
    }

    @Override
    public ChargeResult charge(ChargeRequest r) {
        if (r.amount() == 0) {
            return new ChargeResult(0, balance(r.account(), r.kind()).posted(), false);
        }
        return charged(r, batcher == null ? chargeAlone(r) : batcher.charge(r));
    }

    private void entryWritten(EntryType type) {
        try {
            telemetry.ledgerEntryWritten(type.name());
        } catch (RuntimeException e) {
            // Monitoring never fails a ledger write.
        }
    }

    /** Reports a debit that was applied (not a replay) to the telemetry. */
    private ChargeResult charged(ChargeRequest r, ChargeResult result) {
        debited(r.key(), r.kind(), result, EntryType.CHARGE);
        return result;
    }

    /**
     * Reports a debit entry that another store class wrote with its own SQL (a person lookup's charge
     * with its audit row, an SMS hold's post with its dispatch), once its statement succeeded, so every
     * debit path is counted as {@link #charge} and {@link #post} count theirs.
     */
    void debitWritten(EntryType type, IdempotencyKey key, CreditKind kind, long credits) {
        debited(key, kind, new ChargeResult(credits, 0, false), type);
    }

    private void debited(IdempotencyKey key, CreditKind kind, ChargeResult result, EntryType type) {
        if (result.replay() || result.charged() == 0) {
            return;
        }
        try {
            telemetry.ledgerEntryWritten(type.name());
            telemetry.creditsCharged(Telemetry.operationOf(key.value()), kind.name(), result.charged());
        } catch (RuntimeException e) {
            // Monitoring never fails a charge.
        }
    }

    @Override
    public boolean affordable(ChargeRequest r) {
        if (r.amount() == 0) {
            return true;
        }
        return Jdbc.autoCommit(dataSource, "check charge " + r.key(), c -> {
            State state = state(c, r.account(), r.kind(), r.key());
            return state.entryAmount != null || state.posted - state.held >= r.amount();
        });
    }

    /**
     * One statement, {@code ledger_charge_in_order} (migrations V15 and V17): the balance row is locked, the
     * replays are found by one probe of the key index, and the new requests the available balance covers
     * are written and debited together, in order, their balance checked once for the statement.
     */
    @Override
    public List<Optional<ChargeResult>> chargeInOrder(List<ChargeRequest> requests) {
        ChargeRequest.requireOneBalance(requests);
        if (requests.isEmpty()) {
            return List.of();
        }
        List<Integer> paid = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            if (requests.get(i).amount() > 0) {
                paid.add(i);
            }
        }
        ChargeRequest first = requests.get(0);
        List<Optional<ChargeResult>> out = new ArrayList<>(Collections.nCopies(requests.size(), Optional.empty()));
        long last = Jdbc.autoCommit(dataSource, "charge " + requests.size() + " in order", c -> {
            if (paid.isEmpty()) {
                return balance(c, first.account(), first.kind(), false).posted();
            }
            Long[] amounts = new Long[paid.size()];
            String[] keys = new String[paid.size()];
            String[] descriptions = new String[paid.size()];
            for (int k = 0; k < paid.size(); k++) {
                ChargeRequest r = requests.get(paid.get(k));
                amounts[k] = r.amount();
                keys[k] = r.key().value();
                descriptions[k] = r.description();
            }
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT item, outcome, balance FROM ledger_charge_in_order(?, ?, ?, ?, ?, ?)")) {
                Jdbc.set(
                        ps,
                        first.account().value(),
                        first.kind().name(),
                        c.createArrayOf("bigint", amounts),
                        c.createArrayOf("text", keys),
                        c.createArrayOf("text", descriptions),
                        now());
                // Every row's balance is at least the final one, which the rows not charged carry.
                long posted = Long.MAX_VALUE;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int position = paid.get(rs.getInt(1) - 1);
                        ChargeRequest r = requests.get(position);
                        long balance = rs.getLong(3);
                        switch (rs.getString(2)) {
                            case "CHARGED" ->
                                out.set(
                                        position,
                                        Optional.of(charged(r, new ChargeResult(r.amount(), balance, false))));
                            case "REPLAY" -> out.set(position, Optional.of(new ChargeResult(0, balance, true)));
                            default -> {}
                        }
                        posted = Math.min(posted, balance);
                    }
                }
                return posted;
            } catch (SQLException e) {
                if ("P0002".equals(e.getSQLState())) {
                    throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(first.account()));
                }
                throw e;
            }
        });
        for (int i = 0; i < requests.size(); i++) {
            if (requests.get(i).amount() == 0) {
                out.set(i, Optional.of(new ChargeResult(0, last, false)));
            }
        }
        return out;
    }

    /**
     * {@link #charge} inside the caller's transaction, so the debit commits with the caller's other
     * writes (a credit report and its cache row). The balance row is locked first, as every ledger
     * change does, so a concurrent first use of the key waits here and then sees the entry as a replay.
     *
     * @throws InsufficientCreditsException when the available balance does not cover the amount
     */
    public ChargeResult charge(Connection c, ChargeRequest r) throws SQLException {
        Balance locked = balance(c, r.account(), r.kind(), true);
        if (r.amount() == 0) {
            return new ChargeResult(0, locked.posted(), false);
        }
        State state = state(c, r.account(), r.kind(), r.key());
        if (state.entryAmount != null) {
            requireSameDebit(r.key(), r.kind(), -r.amount(), state);
            return new ChargeResult(0, state.posted, true);
        }
        if (locked.available() < r.amount()) {
            throw new InsufficientCreditsException(r.account(), r.kind(), r.amount(), locked.available());
        }
        try (PreparedStatement ps = c.prepareStatement(DEBIT)) {
            long account = r.account().value();
            String kind = r.kind().name();
            Jdbc.set(ps, r.amount(), account, kind, r.amount(), account, r.key().value());
            Jdbc.setFrom(
                    ps,
                    7,
                    account,
                    kind,
                    EntryType.CHARGE.name(),
                    -r.amount(),
                    r.key().value(),
                    r.description(),
                    now());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("charge " + r.key() + " found its locked balance changed");
                }
                return charged(r, new ChargeResult(r.amount(), rs.getLong(1), false));
            }
        }
    }

    /** Stops the batching threads; charges still queued fail without being applied. */
    @Override
    public void close() {
        if (batcher != null) {
            batcher.close();
        }
    }

    /** The group-commit path, for tests in this package; null when off. */
    ChargeBatcher batcher() {
        return batcher;
    }

    /** One charge, one auto-committed statement. */
    ChargeResult chargeAlone(ChargeRequest r) {
        return Jdbc.autoCommit(dataSource, "charge " + r.key(), c -> {
            for (int attempt = 1; ; attempt++) {
                try (PreparedStatement ps = c.prepareStatement(DEBIT)) {
                    long account = r.account().value();
                    String kind = r.kind().name();
                    String key = r.key().value();
                    Jdbc.set(ps, r.amount(), account, kind, r.amount(), account, key);
                    Jdbc.setFrom(
                            ps, 7, account, kind, EntryType.CHARGE.name(), -r.amount(), key, r.description(), now());
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            return new ChargeResult(r.amount(), rs.getLong(1), false);
                        }
                    }
                } catch (SQLException e) {
                    if (!Jdbc.isUniqueViolation(e)) {
                        throw e;
                    }
                    // A concurrent first use of the key committed while we waited for the row lock.
                }
                State state = state(c, r.account(), r.kind(), r.key());
                if (state.entryAmount != null) {
                    requireSameDebit(r.key(), r.kind(), -r.amount(), state);
                    return new ChargeResult(0, state.posted, true);
                }
                long available = state.posted - state.held;
                if (available < r.amount() || attempt == ATTEMPTS) {
                    throw new InsufficientCreditsException(r.account(), r.kind(), r.amount(), available);
                }
                // The balance moved between the two statements (a top-up or release): try again.
            }
        });
    }

    @Override
    public CreditResult topUp(AccountId account, CreditKind kind, long amount, IdempotencyKey key, String description) {
        if (amount <= 0) {
            throw new IllegalArgumentException("top-up amount " + amount + " must be positive");
        }
        Objects.requireNonNull(description, "description");
        return Jdbc.autoCommit(
                dataSource, "top-up " + key, c -> credit(c, account, kind, amount, key, EntryType.TOP_UP, description));
    }

    @Override
    public CreditResult refund(AccountId account, IdempotencyKey chargeKey, String reason) {
        Objects.requireNonNull(reason, "reason");
        return Jdbc.autoCommit(dataSource, "refund " + chargeKey, c -> refund(c, account, chargeKey, reason));
    }

    /**
     * {@link #refund} inside the caller's transaction, so the returned credit commits with the caller's
     * other writes (an SMS dispatch marked as failed in delivery).
     */
    public CreditResult refund(Connection c, AccountId account, IdempotencyKey chargeKey, String reason)
            throws SQLException {
        Objects.requireNonNull(reason, "reason");
        IdempotencyKey refundKey =
                IdempotencyKey.of(truncate("refund:" + chargeKey.value(), IdempotencyKey.MAX_LENGTH));
        CreditKind kind;
        long amount;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT kind, amount, type FROM ledger_entries WHERE account_id = ? AND idem_key = ?")) {
            Jdbc.set(ps, account.value(), chargeKey.value());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getLong(2) >= 0) {
                    throw new NotFoundException(Message.DEBIT_NOT_FOUND.with(account, chargeKey));
                }
                kind = CreditKind.valueOf(rs.getString(1));
                amount = -rs.getLong(2);
            }
        }
        return credit(c, account, kind, amount, refundKey, EntryType.REFUND, truncate("estorno: " + reason, 200));
    }

    private CreditResult credit(
            Connection c,
            AccountId account,
            CreditKind kind,
            long amount,
            IdempotencyKey key,
            EntryType type,
            String description)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CREDIT)) {
            Jdbc.set(ps, amount, account.value(), kind.name(), account.value(), key.value());
            Jdbc.setFrom(ps, 6, account.value(), kind.name(), type.name(), amount, key.value(), description, now());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    entryWritten(type);
                    return new CreditResult(amount, rs.getLong(1), false);
                }
            }
        } catch (SQLException e) {
            if (!Jdbc.isUniqueViolation(e)) {
                throw e;
            }
        }
        State state = state(c, account, kind, key);
        if (state.entryAmount == null) {
            throw new IllegalStateException("credit " + key + " neither applied nor found: concurrent schema change?");
        }
        requireSameDebit(key, kind, amount, state);
        return new CreditResult(0, state.posted, true);
    }

    @Override
    public Hold hold(HoldRequest r) {
        return Jdbc.autoCommit(dataSource, "hold " + r.key(), c -> {
            for (int attempt = 1; ; attempt++) {
                try {
                    Optional<Hold> placed = reserve(c, r);
                    if (placed.isPresent()) {
                        return placed.get();
                    }
                } catch (SQLException e) {
                    if (!Jdbc.isUniqueViolation(e)) {
                        throw e;
                    }
                }
                Optional<Hold> existing = findHold(c, r.account(), r.key(), false);
                if (existing.isPresent()) {
                    Hold h = existing.get();
                    if (h.amount() != r.amount() || h.kind() != r.kind()) {
                        throw new IllegalStateException("hold key " + r.key() + " was used for " + h.amount() + " "
                                + h.kind() + ", now " + r.amount() + " " + r.kind());
                    }
                    return h;
                }
                Balance b = balance(c, r.account(), r.kind(), false);
                if (b.available() < r.amount() || attempt == ATTEMPTS) {
                    throw new InsufficientCreditsException(r.account(), r.kind(), r.amount(), b.available());
                }
            }
        });
    }

    /** Runs the conditional reservation: the new hold, or empty when the key exists or the balance is short. */
    private Optional<Hold> reserve(Connection c, HoldRequest r) throws SQLException {
        try (PreparedStatement ps = RESERVE.prepare(c)) {
            RESERVE.bind(ps, holdArgs(r));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Hold(
                        r.account(),
                        r.kind(),
                        r.key(),
                        r.amount(),
                        Hold.State.HELD,
                        Optional.empty(),
                        rs.getTimestamp(1).toInstant()));
            }
        }
    }

    /**
     * Places a hold inside the caller's transaction, so it commits with the caller's other writes (a
     * mailing job's row). A hold whose key exists is returned unchanged.
     *
     * @throws InsufficientCreditsException when the available balance does not cover it
     */
    public Hold hold(Connection c, HoldRequest r) throws SQLException {
        Optional<Hold> placed = reserve(c, r);
        if (placed.isPresent()) {
            return placed.get();
        }
        Optional<Hold> existing = findHold(c, r.account(), r.key(), false);
        if (existing.isPresent()) {
            return existing.get();
        }
        throw new InsufficientCreditsException(
                r.account(),
                r.kind(),
                r.amount(),
                balance(c, r.account(), r.kind(), false).available());
    }

    @Override
    public ChargeResult post(AccountId account, IdempotencyKey holdKey, long amount) {
        if (amount < 0) {
            throw new IllegalArgumentException("post amount " + amount + " must not be negative");
        }
        return Jdbc.transaction(dataSource, "post hold " + holdKey, c -> post(c, account, holdKey, amount));
    }

    /**
     * {@link #post} inside the caller's transaction, so the charge commits with the caller's other
     * writes (a mailing job's completion).
     */
    public ChargeResult post(Connection c, AccountId account, IdempotencyKey holdKey, long amount) throws SQLException {
        if (amount < 0) {
            throw new IllegalArgumentException("post amount " + amount + " must not be negative");
        }
        Hold hold = lockHold(c, account, holdKey);
        switch (hold.state()) {
            case POSTED -> {
                return new ChargeResult(
                        0, balance(c, account, hold.kind(), false).posted(), true);
            }
            case RELEASED -> throw new IllegalStateException("hold " + holdKey + " was released; it cannot be posted");
            case HELD -> {
                /* settle below */
            }
        }
        if (amount > hold.amount()) {
            throw new IllegalStateException("post of " + amount + " exceeds hold " + holdKey + " of " + hold.amount());
        }
        long posted;
        try (PreparedStatement ps = c.prepareStatement("UPDATE balances SET posted = posted - ?, held = held - ?"
                + " WHERE account_id = ? AND kind = ? RETURNING posted")) {
            Jdbc.set(ps, amount, hold.amount(), account.value(), hold.kind().name());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                posted = rs.getLong(1);
            }
        }
        settle(c, account, holdKey, Hold.State.POSTED, amount);
        if (amount > 0) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_entries"
                    + " (account_id, kind, type, amount, idem_key, description, created_at, balance_after)"
                    + " SELECT account_id, kind, 'HOLD_POST', ?, idem_key, description, ?, ? FROM holds"
                    + " WHERE account_id = ? AND idem_key = ?")) {
                Jdbc.set(ps, -amount, now(), posted, account.value(), holdKey.value());
                ps.executeUpdate();
            }
        }
        ChargeResult result = new ChargeResult(amount, posted, false);
        debited(holdKey, hold.kind(), result, EntryType.HOLD_POST);
        return result;
    }

    @Override
    public Hold release(AccountId account, IdempotencyKey holdKey) {
        return Jdbc.transaction(dataSource, "release hold " + holdKey, c -> release(c, account, holdKey));
    }

    /** {@link #release} inside the caller's transaction (a mailing job's failure). */
    public Hold release(Connection c, AccountId account, IdempotencyKey holdKey) throws SQLException {
        Hold hold = lockHold(c, account, holdKey);
        switch (hold.state()) {
            case RELEASED -> {
                return hold;
            }
            case POSTED -> throw new IllegalStateException("hold " + holdKey + " was posted; it cannot be released");
            case HELD -> {
                /* release below */
            }
        }
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE balances SET held = held - ? WHERE account_id = ? AND kind = ?")) {
            Jdbc.set(ps, hold.amount(), account.value(), hold.kind().name());
            ps.executeUpdate();
        }
        settle(c, account, holdKey, Hold.State.RELEASED, null);
        return findHold(c, account, holdKey, false).orElseThrow();
    }

    @Override
    public Optional<Hold> findHold(AccountId account, IdempotencyKey holdKey) {
        return Jdbc.autoCommit(dataSource, "find hold " + holdKey, c -> findHold(c, account, holdKey, false));
    }

    @Override
    public Balance balance(AccountId account, CreditKind kind) {
        return Jdbc.autoCommit(dataSource, "balance of " + account, c -> balance(c, account, kind, false));
    }

    @Override
    public List<StatementLine> statement(AccountId account, CreditKind kind, int limit) {
        if (limit < 1 || limit > 10_000) {
            throw new IllegalArgumentException("statement limit " + limit + " must be between 1 and 10000");
        }
        return Jdbc.autoCommit(dataSource, "statement of " + account, c -> {
            balance(c, account, kind, false); // NotFoundException for an unknown account
            List<StatementLine> lines = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(STATEMENT)) {
                Jdbc.set(ps, account.value(), kind.name(), limit, account.value(), kind.name());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        lines.add(new StatementLine(
                                rs.getLong(1),
                                rs.getTimestamp(2).toInstant(),
                                EntryType.valueOf(rs.getString(3)),
                                rs.getLong(4),
                                IdempotencyKey.of(rs.getString(5)),
                                rs.getString(6),
                                rs.getLong(7)));
                    }
                }
            }
            Collections.reverse(lines);
            return lines;
        });
    }

    private Hold lockHold(Connection c, AccountId account, IdempotencyKey holdKey) throws SQLException {
        Hold unlocked = findHold(c, account, holdKey, false)
                .orElseThrow(() -> new NotFoundException(Message.HOLD_NOT_FOUND.with(account, holdKey)));
        balance(c, account, unlocked.kind(), true); // the balance row lock orders every hold transition
        return findHold(c, account, holdKey, false).orElseThrow();
    }

    private static void settle(Connection c, AccountId account, IdempotencyKey key, Hold.State state, Long postedAmount)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE holds SET state = ?, posted_amount = ?, settled_at = now()"
                        + " WHERE account_id = ? AND idem_key = ? AND state = 'HELD'")) {
            Jdbc.set(ps, state.name(), postedAmount, account.value(), key.value());
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("hold " + key + " changed state under the balance lock");
            }
        }
    }

    private static Optional<Hold> findHold(Connection c, AccountId account, IdempotencyKey key, boolean lock)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT kind, amount, state, posted_amount, created_at FROM holds"
                        + " WHERE account_id = ? AND idem_key = ?" + (lock ? " FOR UPDATE" : ""))) {
            Jdbc.set(ps, account.value(), key.value());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                long posted = rs.getLong(4);
                return Optional.of(new Hold(
                        account,
                        CreditKind.valueOf(rs.getString(1)),
                        key,
                        rs.getLong(2),
                        Hold.State.valueOf(rs.getString(3)),
                        rs.wasNull() ? Optional.empty() : Optional.of(posted),
                        rs.getTimestamp(5).toInstant()));
            }
        }
    }

    private static Balance balance(Connection c, AccountId account, CreditKind kind, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT posted, held FROM balances WHERE account_id = ? AND kind = ?" + (lock ? " FOR UPDATE" : ""))) {
            Jdbc.set(ps, account.value(), kind.name());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(account));
                }
                return new Balance(kind, rs.getLong(1), rs.getLong(2));
            }
        }
    }

    /** The balance and, when the key was used, the entry it wrote: read in one statement. */
    private static State state(Connection c, AccountId account, CreditKind kind, IdempotencyKey key)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT b.posted, b.held, e.amount, e.kind FROM balances b"
                + " LEFT JOIN ledger_entries e ON e.account_id = b.account_id AND e.idem_key = ?"
                + " WHERE b.account_id = ? AND b.kind = ?")) {
            Jdbc.set(ps, key.value(), account.value(), kind.name());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(account));
                }
                long entry = rs.getLong(3);
                Long entryAmount = rs.wasNull() ? null : entry;
                String entryKind = rs.getString(4);
                return new State(
                        rs.getLong(1),
                        rs.getLong(2),
                        entryAmount,
                        entryKind == null ? null : CreditKind.valueOf(entryKind));
            }
        }
    }

    /** A replayed key must carry the entry it first wrote (a debit's or a credit's signed amount, and kind). */
    private static void requireSameDebit(IdempotencyKey key, CreditKind kind, long amount, State state) {
        IllegalStateException mismatch = replayMismatch(key, state.entryAmount, state.entryKind, amount, kind);
        if (mismatch != null) {
            throw mismatch;
        }
    }

    /**
     * The failure of a replayed key whose entry was another amount or kind than the replay asks, or null
     * when they agree (then the replay is a true retry). Every charge path checks replays with it.
     */
    static IllegalStateException replayMismatch(
            IdempotencyKey key, Long usedAmount, CreditKind usedKind, long amount, CreditKind kind) {
        if (usedAmount != null && usedAmount == amount && usedKind == kind) {
            return null;
        }
        return new IllegalStateException("idempotency key " + key + " was used for " + usedAmount + " " + usedKind
                + ", now " + amount + " " + kind);
    }

    /** The ledger clock's now, for an entry a store writes in a statement of its own. */
    java.sql.Timestamp timestamp() {
        return now();
    }

    private java.sql.Timestamp now() {
        return Jdbc.timestamp(clock.instant());
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    private record State(long posted, long held, Long entryAmount, CreditKind entryKind) {}
}
