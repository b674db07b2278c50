package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.EntryType;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.sms.Delivery;
import dev.cadastro.core.sms.OtpDispatch;
import dev.cadastro.core.sms.OtpStatus;
import dev.cadastro.core.sms.OtpStore;
import dev.cadastro.core.sms.OtpThrottle;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import javax.sql.DataSource;

/**
 * SMS dispatches on PostgreSQL ({@code sms_dispatches}), each move one transaction with the ledger's
 * hold, post, release or refund of its SMS credit ({@link PgLedger}'s connection-level operations).
 *
 * <ul>
 *   <li>Sends to one account and phone take turns on a transaction-scoped advisory lock, so two parallel
 *       sends cannot both pass the 30-second rule; the lock ends with the transaction, before the
 *       provider is called.
 *   <li>A check counts its attempt in the UPDATE that also requires the dispatch to be pending, under
 *       five attempts and unexpired: PostgreSQL re-evaluates the WHERE on the newest row version for
 *       every concurrent UPDATE, so at most five ever succeed, whatever the parallelism. The MAC is then
 *       compared in Java, in constant time, while that UPDATE's row lock is held, and a match is
 *       recorded in the same transaction: one commit per check.
 *   <li>Settlements lock the dispatch row ({@code FOR UPDATE}) and act only from the state they expect,
 *       so a duplicated receipt or a late provider answer changes nothing twice.
 * </ul>
 */
public final class PgOtpStore implements OtpStore {
    private static final String COLUMNS = "public_id, account_id, phone_masked, digits, key_id, created_at,"
            + " expires_at, attempts, state, delivery, failure_reported_at";
    private static final String CHECKABLE = "delivery IN ('aceito', 'falhou', 'incerto')";
    private static final String REFUND_REASON = "entrega do SMS falhou";

    /** What an accepted message costs: the whole hold of 1 SMS credit is posted. */
    private static final long CHARGE = 1;

    /**
     * {@link #acceptSending}: settle the dispatch ({@code d}), take the hold's amount off the balance's
     * posted and held sums ({@code b}), mark the hold posted ({@code h}), write the entry ({@code e}) with
     * the balance after it. The hold is read with the statement's snapshot; the dispatch row lock taken by
     * {@code d} is what every transition of an SMS hold takes first, so no other transaction can move it.
     */
    private static final String ACCEPT_SENDING = "WITH d AS ("
            + " UPDATE sms_dispatches SET delivery = 'aceito',"
            + " provider_message_id = COALESCE(?, provider_message_id), settled_at = ?"
            + " WHERE public_id = ? AND account_id = ? AND delivery = 'enviando' AND failure_reported_at IS NULL"
            + " RETURNING " + COLUMNS + ", hold_key),"
            + " b AS ("
            + " UPDATE balances SET posted = balances.posted - ?, held = balances.held - held_hold.amount"
            + " FROM d JOIN holds held_hold ON held_hold.account_id = d.account_id AND held_hold.idem_key = d.hold_key"
            + " AND held_hold.state = 'HELD'"
            + " WHERE balances.account_id = d.account_id AND balances.kind = held_hold.kind"
            + " RETURNING balances.posted, held_hold.idem_key),"
            + " h AS ("
            + " UPDATE holds SET state = 'POSTED', posted_amount = ?, settled_at = now() FROM b, d"
            + " WHERE holds.account_id = d.account_id AND holds.idem_key = b.idem_key AND holds.state = 'HELD'"
            + " RETURNING holds.account_id, holds.kind, holds.idem_key, holds.description),"
            + " e AS ("
            + " INSERT INTO ledger_entries"
            + " (account_id, kind, type, amount, idem_key, description, created_at, balance_after)"
            + " SELECT h.account_id, h.kind, 'HOLD_POST', ?, h.idem_key, h.description, ?, b.posted"
            + " FROM h JOIN b ON b.idem_key = h.idem_key WHERE h.kind = ? RETURNING 1)"
            + " SELECT d.*, (SELECT count(*) FROM e) AS entries FROM d";

    /**
     * {@link #begin}'s reads in one statement and one row: the request's earlier dispatch, locked (all
     * nulls when there is none), and the created times of the phone's counted sends of the last hour,
     * newest first (null when none).
     */
    private static final String EARLIER_AND_RECENT = "WITH earlier AS ("
            + " SELECT " + COLUMNS + ", hold_key FROM sms_dispatches"
            + " WHERE account_id = ? AND client_ref = ? AND delivery <> 'indisponivel' LIMIT 1 FOR UPDATE)"
            + " SELECT earlier.*, (SELECT array_agg(created_at ORDER BY created_at DESC) FROM ("
            + " SELECT created_at FROM sms_dispatches"
            + " WHERE account_id = ? AND phone_key = ? AND delivery <> 'indisponivel' AND created_at > ?"
            + " ORDER BY created_at DESC LIMIT ?) last_hour) AS recent"
            + " FROM (SELECT 1) one LEFT JOIN earlier ON true";

    private static final String INSERT_COLUMNS = "(public_id, account_id, phone_key, phone_masked, digits, key_id,"
            + " code_mac, hold_key, client_ref, created_at, expires_at)";

    private static final String INSERT =
            "INSERT INTO sms_dispatches " + INSERT_COLUMNS + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** The dispatch's insert when {@link PgLedger#holdThen} placed its hold ({@code placed}) in the same statement. */
    private static final String INSERT_HELD =
            "INSERT INTO sms_dispatches " + INSERT_COLUMNS + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM placed";

    private final DataSource dataSource;
    private final PgLedger ledger;

    public PgOtpStore(DataSource dataSource, PgLedger ledger) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    @Override
    public Begun begin(OtpDispatch d, String phoneKey, byte[] mac, HoldRequest hold, String clientRef) {
        if (d.delivery() != Delivery.ENVIANDO || d.attempts() != 0) {
            throw new IllegalArgumentException("a new dispatch is enviando with no attempt, not " + d);
        }
        Instant now = d.createdAt();
        return Jdbc.transaction(dataSource, "begin SMS dispatch " + d.id(), c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 7))")) {
                Jdbc.set(ps, "sms:" + d.account().value() + ":" + phoneKey);
                ps.execute();
            }
            // Under the phone's lock (a statement of its own, so the next one's snapshot sees what the
            // lock's previous holder committed): the request's earlier dispatch, if any (so a retry racing
            // its original sees the original's row), and the phone's counted sends of the last hour.
            List<Instant> recent = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(EARLIER_AND_RECENT)) {
                Jdbc.set(
                        ps,
                        d.account().value(),
                        clientRef,
                        d.account().value(),
                        phoneKey,
                        Jdbc.timestamp(now.minus(OtpThrottle.WINDOW)),
                        OtpThrottle.PER_HOUR);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getString("public_id") != null) {
                        return new Begun.Existing(dispatch(rs));
                    }
                    java.sql.Array times = rs.getArray("recent");
                    if (times != null) {
                        for (Object t : (Object[]) times.getArray()) {
                            recent.add(((java.sql.Timestamp) t).toInstant());
                        }
                    }
                }
            }
            Optional<Duration> wait = OtpThrottle.wait(recent, now);
            if (wait.isPresent()) {
                return new Begun.Throttled(wait.get());
            }
            Object[] row = {
                d.id(),
                d.account().value(),
                phoneKey,
                d.phoneMasked(),
                d.digits(),
                d.keyId(),
                mac,
                hold.key().value(),
                clientRef,
                Jdbc.timestamp(d.createdAt()),
                Jdbc.timestamp(d.expiresAt())
            };
            if (!ledger.holdThen(c, hold, INSERT_HELD, row)) {
                // Short of credit (or the key was taken): the ledger's own path answers or refuses it.
                ledger.hold(c, hold);
                try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                    Jdbc.set(ps, row);
                    ps.executeUpdate();
                }
            }
            return new Begun.Started(d);
        });
    }

    @Override
    public OtpDispatch accepted(AccountId account, String id, String providerMessageId, Instant now) {
        return Jdbc.transaction(dataSource, "accept SMS dispatch " + id, c -> {
            Optional<OtpDispatch> common = acceptSending(c, account, id, providerMessageId, now);
            if (common.isPresent()) {
                return common.get();
            }
            // Not sending with no receipt yet (uncertain, a receipt came first, or settled): the general path.
            Locked row = lock(c, "public_id = ? AND account_id = ?", id, account.value())
                    .orElseThrow(() -> new IllegalStateException("no SMS dispatch " + id));
            if (row.dispatch.delivery() == Delivery.INCERTO) {
                // The provider answered after the sending lease ran out and the hold was released: the
                // message went out, uncharged; the code stays checkable.
                return row.dispatch;
            }
            OtpDispatch after = row.dispatch.accepted();
            ledger.post(c, account, row.holdKey, 1);
            if (after.delivery() == Delivery.FALHOU) {
                ledger.refund(c, account, row.holdKey, REFUND_REASON);
            }
            settle(c, id, after.delivery(), providerMessageId, now);
            return after;
        });
    }

    /**
     * The common acceptance, a dispatch still sending with no receipt yet, as one statement: the dispatch
     * row is settled first (its row lock orders every move of the dispatch and its hold), then the
     * balance row is updated (posted and held, as {@link PgLedger#post} does), then the hold is marked
     * posted and the entry written. Data-modifying CTEs run once each; each one here reads the previous
     * one's rows, so the locks are taken in that order, the order every other ledger change follows.
     * Empty, having written nothing, when the dispatch is in any other state.
     *
     * @throws IllegalStateException when the dispatch was settled but its hold was not held (the
     *     caller's transaction then rolls back the settlement)
     */
    private Optional<OtpDispatch> acceptSending(
            Connection c, AccountId account, String id, String providerMessageId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ACCEPT_SENDING)) {
            Jdbc.set(
                    ps,
                    providerMessageId,
                    Jdbc.timestamp(now),
                    id,
                    account.value(),
                    CHARGE,
                    CHARGE,
                    -CHARGE,
                    ledger.timestamp(),
                    CreditKind.SMS_CREDITS.name());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                if (rs.getInt("entries") != 1) {
                    throw new IllegalStateException("SMS dispatch " + id + " was sending but its hold "
                            + rs.getString("hold_key") + " could not be posted");
                }
                OtpDispatch accepted = dispatch(rs);
                ledger.debitWritten(
                        EntryType.HOLD_POST,
                        IdempotencyKey.of(rs.getString("hold_key")),
                        CreditKind.SMS_CREDITS,
                        CHARGE);
                return Optional.of(accepted);
            }
        }
    }

    @Override
    public OtpDispatch unavailable(AccountId account, String id, Instant now) {
        return Jdbc.transaction(dataSource, "release SMS dispatch " + id, c -> {
            Locked row = lock(c, "public_id = ? AND account_id = ?", id, account.value())
                    .orElseThrow(() -> new IllegalStateException("no SMS dispatch " + id));
            if (row.dispatch.delivery() != Delivery.ENVIANDO) {
                return row.dispatch;
            }
            OtpDispatch after = row.dispatch.unavailable();
            ledger.release(c, account, row.holdKey);
            settle(c, id, after.delivery(), null, now);
            return after;
        });
    }

    @Override
    public boolean deliveryFailed(String id, Instant now) {
        return Jdbc.transaction(dataSource, "failed delivery of SMS dispatch " + id, c -> {
            Optional<Locked> locked = lock(c, "public_id = ?", id);
            if (locked.isEmpty()) {
                return false;
            }
            Locked row = locked.get();
            OtpDispatch.Receipt receipt = row.dispatch.deliveryFailed();
            if (receipt.refund()) {
                ledger.refund(c, row.dispatch.account(), row.holdKey, REFUND_REASON);
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE sms_dispatches SET delivery = 'falhou', failure_reported_at = ? WHERE public_id = ?")) {
                    Jdbc.set(ps, Jdbc.timestamp(now), id);
                    ps.executeUpdate();
                }
            } else if (receipt.after().failureReported() && !row.dispatch.failureReported()) {
                try (PreparedStatement ps =
                        c.prepareStatement("UPDATE sms_dispatches SET failure_reported_at = ? WHERE public_id = ?")) {
                    Jdbc.set(ps, Jdbc.timestamp(now), id);
                    ps.executeUpdate();
                }
            }
            return receipt.refund();
        });
    }

    @Override
    public int abandonSending(Instant createdBefore, Instant now) {
        int total = 0;
        while (true) {
            int released = Jdbc.transaction(dataSource, "release stuck SMS dispatches", c -> {
                List<Locked> stuck = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + ", hold_key FROM sms_dispatches"
                        + " WHERE delivery = 'enviando' AND created_at <= ? ORDER BY created_at LIMIT 100"
                        + " FOR UPDATE SKIP LOCKED")) {
                    Jdbc.set(ps, Jdbc.timestamp(createdBefore));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            stuck.add(new Locked(dispatch(rs), IdempotencyKey.of(rs.getString("hold_key"))));
                        }
                    }
                }
                for (Locked row : stuck) {
                    OtpDispatch after = row.dispatch.abandoned();
                    ledger.release(c, row.dispatch.account(), row.holdKey);
                    settle(c, row.dispatch.id(), after.delivery(), null, now);
                }
                return stuck.size();
            });
            total += released;
            if (released < 100) {
                return total;
            }
        }
    }

    @Override
    public Optional<OtpDispatch> find(AccountId account, String id) {
        return Jdbc.autoCommit(dataSource, "find SMS dispatch", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM sms_dispatches WHERE public_id = ? AND account_id = ?")) {
                Jdbc.set(ps, id, account.value());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(dispatch(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public Optional<Checked> check(
            AccountId account, String id, Instant now, BiPredicate<OtpDispatch, byte[]> matches) {
        return Jdbc.transaction(dataSource, "check SMS dispatch", c -> {
            OtpDispatch counted = null;
            byte[] mac = null;
            try (PreparedStatement ps = c.prepareStatement("UPDATE sms_dispatches SET attempts = attempts + 1"
                    + " WHERE public_id = ? AND account_id = ? AND " + CHECKABLE
                    + " AND state = 'pendente' AND attempts < " + OtpDispatch.MAX_ATTEMPTS + " AND expires_at > ?"
                    + " RETURNING " + COLUMNS + ", code_mac")) {
                Jdbc.set(ps, id, account.value(), Jdbc.timestamp(now));
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        counted = dispatch(rs);
                        mac = rs.getBytes("code_mac");
                    }
                }
            }
            if (counted == null) {
                try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM sms_dispatches"
                        + " WHERE public_id = ? AND account_id = ? AND " + CHECKABLE)) {
                    Jdbc.set(ps, id, account.value());
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? Optional.of(new Checked(dispatch(rs), false)) : Optional.empty();
                    }
                }
            }
            if (!matches.test(counted, mac)) {
                return Optional.of(new Checked(counted, false));
            }
            // The row is locked by the UPDATE above until commit: no other check can verify it first.
            try (PreparedStatement ps = c.prepareStatement("UPDATE sms_dispatches SET state = 'verificado',"
                    + " verified_at = ? WHERE public_id = ? AND state = 'pendente' RETURNING " + COLUMNS)) {
                Jdbc.set(ps, Jdbc.timestamp(now), id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return Optional.of(new Checked(dispatch(rs), true));
                }
            }
        });
    }

    private record Locked(OtpDispatch dispatch, IdempotencyKey holdKey) {}

    private static Optional<Locked> lock(Connection c, String where, Object... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + COLUMNS + ", hold_key FROM sms_dispatches WHERE " + where + " FOR UPDATE")) {
            Jdbc.set(ps, values);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new Locked(dispatch(rs), IdempotencyKey.of(rs.getString("hold_key"))))
                        : Optional.empty();
            }
        }
    }

    private static void settle(Connection c, String id, Delivery delivery, String providerMessageId, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sms_dispatches SET delivery = ?,"
                + " provider_message_id = COALESCE(?, provider_message_id), settled_at = ? WHERE public_id = ?")) {
            Jdbc.set(ps, delivery.wire(), providerMessageId, Jdbc.timestamp(now), id);
            ps.executeUpdate();
        }
    }

    private static OtpDispatch dispatch(ResultSet rs) throws SQLException {
        return new OtpDispatch(
                rs.getString("public_id"),
                new AccountId(rs.getLong("account_id")),
                rs.getString("phone_masked"),
                rs.getInt("digits"),
                rs.getString("key_id"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("expires_at").toInstant(),
                rs.getInt("attempts"),
                OtpStatus.ofWire(rs.getString("state")),
                Delivery.ofWire(rs.getString("delivery")),
                rs.getTimestamp("failure_reported_at") != null);
    }
}
