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
import java.security.SecureRandom;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;

/**
 * SMS dispatches on PostgreSQL ({@code sms_dispatches}), each move one transaction with the ledger's
 * hold, post, release or refund of its SMS credit ({@link PgLedger}'s connection-level operations).
 *
 * <ul>
 *   <li>Sends to one account and phone take turns on a transaction-scoped advisory lock, so two parallel
 *       sends cannot both pass the 30-second rule; the lock ends with the transaction, before the
 *       provider is called.
 *   <li>A check is one UPDATE: it counts the attempt, and on a match marks the dispatch verified, only
 *       if it is still pending, under five attempts and unexpired. PostgreSQL re-evaluates that WHERE on
 *       the newest row version for every concurrent UPDATE, so at most five attempts are ever counted and
 *       one check at most verifies, whatever the parallelism. The caller sends the typed code's MAC under
 *       each key; the statement compares the one under the dispatch's key with the stored MAC, blinded
 *       (see {@link #MATCH}). The answer is given after that statement committed, and a check that found
 *       nothing to count reads the dispatch for its answer.
 *   <li>Settlements lock the dispatch row ({@code FOR UPDATE}) and act only from the state they expect,
 *       so a duplicated receipt or a late provider answer changes nothing twice.
 *   <li>A dispatch in sending has a row in {@code sms_sending}, written by the statement that inserts the
 *       dispatch and deleted by the one that settles it; housekeeping finds stuck sends there. No index
 *       of {@code sms_dispatches} names a column the acceptance, the check or a receipt sets, so those
 *       updates are heap-only (HOT): no index entries written, none for a vacuum to remove (V13).
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
     *
     * <p>Every row is named by its whole key, the account and kind as parameters and the hold's key as a
     * scalar subquery of {@code d} (a parameter to the planner), not by a join, and no condition makes a
     * partial index a path to the dispatch: a plan cached while the tables were empty and unanalyzed could
     * otherwise join on the account alone and read all of the account's holds, or scan every dispatch
     * sent since the last vacuum, for each acceptance (benchmarks/history/2026-11-24-sms.md, "sms: plans on a new
     * database").
     */
    private static final String ACCEPT_SENDING = "WITH d AS ("
            + " UPDATE sms_dispatches SET delivery = 'aceito',"
            + " provider_message_id = COALESCE(?, provider_message_id), settled_at = ?"
            // Sending is tested as settled_at IS NULL (the table's CHECK makes them one). Until V13,
            // delivery = 'enviando' was the predicate of a partial index, which would then have been a path.
            + " WHERE public_id = ? AND account_id = ? AND settled_at IS NULL AND failure_reported_at IS NULL"
            + " RETURNING id, " + COLUMNS + ", hold_key),"
            // The dispatch is no longer sending: its row in sms_sending goes in the same statement.
            + " s AS (DELETE FROM sms_sending WHERE dispatch_id = (SELECT id FROM d)),"
            + " b AS ("
            + " UPDATE balances SET posted = balances.posted - ?, held = balances.held - held_hold.amount"
            + " FROM holds held_hold"
            + " WHERE held_hold.account_id = ? AND held_hold.idem_key = (SELECT hold_key FROM d)"
            + " AND held_hold.state = 'HELD' AND held_hold.kind = ?"
            + " AND balances.account_id = ? AND balances.kind = ?"
            + " RETURNING balances.posted, held_hold.idem_key),"
            + " h AS ("
            + " UPDATE holds SET state = 'POSTED', posted_amount = ?, settled_at = now()"
            + " WHERE holds.account_id = ? AND holds.idem_key = (SELECT idem_key FROM b) AND holds.state = 'HELD'"
            + " RETURNING holds.account_id, holds.kind, holds.idem_key, holds.description),"
            + " e AS ("
            + " INSERT INTO ledger_entries"
            + " (account_id, kind, type, amount, idem_key, description, created_at, balance_after)"
            + " SELECT h.account_id, h.kind, 'HOLD_POST', ?, h.idem_key, h.description, ?, b.posted"
            + " FROM h JOIN b ON b.idem_key = h.idem_key RETURNING 1)"
            // A settled dispatch whose hold was not posted must not be committed: with no entry written,
            // the division fails the whole statement (SQLSTATE 22012), which acceptSending reports.
            + " SELECT d.*, 1 / (SELECT count(*) FROM e) AS entries FROM d";

    private static final String DIVISION_BY_ZERO = "22012";

    /** The request's earlier dispatch, locked. */
    private static final String EARLIER = "SELECT " + COLUMNS + ", hold_key FROM sms_dispatches"
            + " WHERE account_id = ? AND client_ref = ? AND delivery <> 'indisponivel' LIMIT 1 FOR UPDATE";

    private static final String RECENT = "SELECT array_agg(created_at ORDER BY created_at DESC) FROM ("
            + " SELECT created_at FROM sms_dispatches"
            + " WHERE account_id = ? AND phone_key = ? AND delivery <> 'indisponivel' AND created_at > ?"
            + " ORDER BY created_at DESC LIMIT ?) last_hour";

    /** {@link #SEND}'s throttle: a row when the times in {@code recent} allow a send; see there. */
    private static final String GATE = "SELECT 1 FROM recent WHERE NOT EXISTS (SELECT 1 FROM earlier)"
            + " AND coalesce(cardinality(times), 0) < ? AND coalesce(times[1] <= ?, true)";

    /** The CTEs {@code earlier} ({@link #EARLIER}) and {@code recent} (one row, {@link #RECENT} as {@code times}). */
    private static final String READS =
            "WITH earlier AS (" + EARLIER + "), recent AS (SELECT (" + RECENT + ") AS times)";

    /** {@code recent_1} to {@code recent_5}: the elements of {@code times}, one column each (see {@link #recent}). */
    private static final String RECENT_COLUMNS = IntStream.rangeClosed(1, OtpThrottle.PER_HOUR)
            .mapToObj(i -> " times[" + i + "] AS recent_" + i)
            .collect(Collectors.joining(","));

    /**
     * {@link #begin}'s general reads in one statement and one row: the request's earlier dispatch (all
     * nulls when there is none) and the created times of the phone's counted sends of the last hour,
     * newest first, in {@link #RECENT_COLUMNS}.
     */
    private static final String EARLIER_AND_RECENT =
            READS + " SELECT earlier.*," + RECENT_COLUMNS + " FROM recent LEFT JOIN earlier ON true";

    /** Sends to one account and phone take turns on this transaction-scoped lock. */
    private static final String LOCK_PHONE = "SELECT pg_advisory_xact_lock(hashtextextended(?, 7))";

    /**
     * The send's statements run the plans their connection cached, for the rest of the transaction:
     * {@link #SEND}, or, on the general path (when that wrote nothing and the phone's limits did not
     * refuse it), the read ({@link #EARLIER_AND_RECENT}), the ledger's hold and {@link #INSERT}; each
     * one's generic plan is the one {@code SmsPlanTest} checks, or, for the ledger's, one read by primary
     * key. Left to choose,
     * PostgreSQL kept the read's cached plan until autovacuum first analyzed a new home's tables, then
     * planned the read again at every execution for the rest of the connection's life: about 1,000
     * plannings a second at 1,000 pairs/s, roughly 0.1 ms of a backend's CPU each
     * (benchmarks/history/2026-11-24-sms.md, "sms: a send's read planned at every execution"). No other SMS statement was seen to do so.
     */
    private static final String GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan";

    private static final String INSERT_COLUMNS = "(public_id, account_id, phone_key, phone_masked, digits, key_id,"
            + " code_mac, hold_key, client_ref, created_at, expires_at)";

    /** A new dispatch is sending: its row in sms_sending is written by the same statement. */
    private static final String SENDING =
            " INSERT INTO sms_sending (dispatch_id, since) SELECT id, created_at FROM dispatch";

    private static final String INSERT = "WITH dispatch AS (INSERT INTO sms_dispatches " + INSERT_COLUMNS
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, created_at)" + SENDING;

    /**
     * The common send as one statement, run under the phone's lock: {@link #EARLIER_AND_RECENT}'s reads
     * ({@code earlier}, {@code recent}); then, only when there is no earlier dispatch and the phone's
     * limits allow a send ({@code gate}), the ledger's hold ({@code reserve}, {@code placed}), the
     * dispatch and its row in sms_sending. One row: {@code started}, 1 when the dispatch was written;
     * {@code earlier}, whether the request has an earlier dispatch; {@code recent_1} to {@code recent_5},
     * the phone's counted sends of the window, newest first (nulls past the last), enough for {@link
     * OtpThrottle#wait} to answer a throttled send from this transaction.
     *
     * <p>Only columns of fixed size: pgjdbc sends a statement whose row it cannot bound (a text column,
     * an array) only after a Sync and the answers to everything sent before it, and the next statement
     * only after another, two more round trips; with this answer the lock, this statement and the commit
     * go out together.
     *
     * <p>{@code gate} is {@link OtpThrottle#wait}'s rule on the same times: a send is allowed when fewer
     * than {@link OtpThrottle#PER_HOUR} of them are in the window (they are the newest, and all after its
     * start) and the newest is no later than the send's time minus {@link OtpThrottle#SPACING}, to the
     * microsecond PostgreSQL keeps. {@code SmsSendGateProperties} checks that the two agree.
     */
    private static final String SEND = READS + ","
            + " gate AS (" + GATE + "),"
            + PgLedger.reserveCtes(" AND EXISTS (SELECT 1 FROM gate)")
            + ", dispatch AS (INSERT INTO sms_dispatches " + INSERT_COLUMNS
            + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM placed RETURNING id, created_at),"
            + " sending AS (INSERT INTO sms_sending (dispatch_id, since) SELECT id, created_at FROM dispatch RETURNING 1)"
            + " SELECT (SELECT count(*) FROM sending) AS started, EXISTS (SELECT 1 FROM earlier) AS earlier,"
            + RECENT_COLUMNS
            + " FROM recent";

    /** A dispatch the client may check, whatever its status. */
    private static final String READ_CHECKABLE =
            "SELECT " + COLUMNS + " FROM sms_dispatches WHERE public_id = ? AND account_id = ? AND " + CHECKABLE;

    /**
     * Whether the typed code's MAC under the dispatch's key equals the stored one, as {@code hit}:
     * parameters the typed MACs' key ids ({@code text[]}), the MACs ({@code bytea[]}) in the same order,
     * paired by {@code unnest} whatever the arrays' bounds, and a nonce. A key id not sent (a dropped key)
     * makes the typed MAC NULL, no match.
     *
     * <p>PostgreSQL compares {@code bytea} with {@code memcmp}, whose time grows with the common prefix.
     * So it compares the SHA-256 of each MAC after a nonce of 32 bytes drawn for each check from {@link
     * SecureRandom} instead: no one can predict or steer those digests, so how long their comparison
     * takes says nothing about the stored MAC (the double-MAC comparison). The stored MAC never leaves
     * the database.
     */
    private static final String MATCH = "SELECT coalesce(sha256(n.nonce || code_mac) = sha256(n.nonce"
            + " || (SELECT k.mac FROM unnest(?::text[], ?::bytea[]) AS k(id, mac) WHERE k.id = key_id)), false) AS hit"
            + " FROM (SELECT ?::bytea AS nonce) n";

    /**
     * A check: counts the attempt, and on a match ({@link #MATCH}, computed once for both columns) spends
     * the code, only if the dispatch can still be checked (see the class comment); its answer's state
     * tells whether this check verified it.
     */
    private static final String COUNT_ATTEMPT = "UPDATE sms_dispatches SET attempts = attempts + 1,"
            + " (state, verified_at) = (SELECT CASE WHEN m.hit THEN 'verificado' ELSE state END,"
            + " CASE WHEN m.hit THEN ?::timestamptz ELSE verified_at END FROM (" + MATCH + ") m)"
            + " WHERE public_id = ? AND account_id = ? AND " + CHECKABLE
            + " AND state = 'pendente' AND attempts < " + OtpDispatch.MAX_ATTEMPTS + " AND expires_at > ?"
            + " RETURNING " + COLUMNS;

    /** The blinding nonce's size: as many bytes as the digests it blinds. */
    private static final int NONCE_BYTES = 32;

    private static final String FIND =
            "SELECT " + COLUMNS + " FROM sms_dispatches WHERE public_id = ? AND account_id = ?";

    private static final String LOCK = "SELECT " + COLUMNS + ", hold_key FROM sms_dispatches WHERE ";

    private static final String BY_ACCOUNT_AND_ID = "public_id = ? AND account_id = ?";

    /** A receipt names the dispatch alone (the provider does not know our accounts). */
    private static final String BY_ID = "public_id = ?";

    /** A sending dispatch settled (accepted, unavailable or abandoned): it leaves sms_sending. */
    private static final String SETTLE = "WITH d AS (UPDATE sms_dispatches SET delivery = ?,"
            + " provider_message_id = COALESCE(?, provider_message_id), settled_at = ? WHERE public_id = ?"
            + " RETURNING id)"
            + " DELETE FROM sms_sending WHERE dispatch_id = (SELECT id FROM d)";

    /** Housekeeping's read: the oldest sends in flight since before the lease, locked, skipping busy ones. */
    private static final String STUCK = "SELECT " + COLUMNS + ", hold_key"
            + " FROM sms_sending s JOIN sms_dispatches d ON d.id = s.dispatch_id"
            + " WHERE s.since <= ? AND d.settled_at IS NULL ORDER BY s.since LIMIT 100 FOR UPDATE OF d SKIP LOCKED";

    private final DataSource dataSource;
    private final PgLedger ledger;
    private final SecureRandom random = new SecureRandom();

    public PgOtpStore(DataSource dataSource, PgLedger ledger) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    /**
     * The statements of the hot path and of the moves of one dispatch, by name, with their {@code ?}
     * parameters: for tests of the plans PostgreSQL makes for them (they must find each row by a key or
     * by the few rows of one phone or one request reference, whatever the tables' statistics).
     */
    public static Map<String, String> planned() {
        return Map.of(
                "send",
                SEND,
                "send read",
                EARLIER_AND_RECENT,
                "accept",
                ACCEPT_SENDING,
                "count attempt",
                COUNT_ATTEMPT,
                "read checkable",
                READ_CHECKABLE,
                "find",
                FIND,
                "lock",
                LOCK + BY_ACCOUNT_AND_ID + " FOR UPDATE",
                "lock for a receipt",
                LOCK + BY_ID + " FOR UPDATE",
                "settle",
                SETTLE);
    }

    /**
     * {@link #SEND}'s throttle, for a test that it agrees with {@link OtpThrottle#wait}: a row when a send
     * is allowed, from the CTEs {@code earlier} (the request's earlier dispatch) and {@code recent} (one
     * row, {@code times}: the phone's counted sends of the window, newest first, at most {@link
     * OtpThrottle#PER_HOUR}), with two parameters, {@link OtpThrottle#PER_HOUR} and {@link
     * #spacingBound}.
     */
    public static String sendGate() {
        return GATE;
    }

    @Override
    public Begun begin(OtpDispatch d, String phoneKey, byte[] mac, HoldRequest hold, String clientRef) {
        if (d.delivery() != Delivery.ENVIANDO || d.attempts() != 0) {
            throw new IllegalArgumentException("a new dispatch is enviando with no attempt, not " + d);
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
        String what = "begin SMS dispatch " + d.id();
        // The common case, a new request whose phone may receive a code, with credit enough and a new hold
        // key, in one round trip: the lock, the reads, the hold, the dispatch and the commit; a send the
        // phone's limits refuse is answered from the same round trip. When it wrote nothing for another
        // reason (an earlier dispatch of the request, short of credit, or the hold's key taken), its COMMIT
        // ended a transaction that wrote nothing and released the phone's lock, and the general path
        // starts over and tells which.
        Optional<Begun> common = Jdbc.ownTransaction(dataSource, what, c -> send(c, d, phoneKey, row, hold, clientRef));
        return common.orElseGet(
                () -> Jdbc.transaction(dataSource, what, c -> begin(c, d, phoneKey, row, hold, clientRef)));
    }

    /**
     * {@link #begin}'s common transaction, on a connection in auto-commit mode: {@code BEGIN}, the cached
     * plans for it, the phone's lock, {@link #SEND}, and the {@code COMMIT}, five statements sent in one
     * round trip and answered at once (see {@link Jdbc#ownTransaction}). Each takes its own snapshot when
     * it starts, so {@link #SEND} sees what the lock's previous holder committed. The transaction is over
     * when this returns.
     *
     * @return started, throttled, or empty when the general path must tell what the send is
     */
    private Optional<Begun> send(
            Connection c, OtpDispatch d, String phoneKey, Object[] row, HoldRequest hold, String clientRef)
            throws SQLException {
        Instant now = d.createdAt();
        try (PreparedStatement ps =
                c.prepareStatement("BEGIN; " + GENERIC_PLANS + "; " + LOCK_PHONE + "; " + SEND + "; COMMIT")) {
            int next = setLockAndReads(ps, d, phoneKey, clientRef);
            Jdbc.setFrom(ps, next, OtpThrottle.PER_HOUR, Jdbc.timestamp(spacingBound(now)));
            Jdbc.setFrom(ps, ledger.setReserve(ps, next + 2, hold), row);
            try (ResultSet rs = afterTheLock(ps, 2)) {
                rs.next();
                if (rs.getLong("started") == 1) {
                    return Optional.of(new Begun.Started(d));
                }
                if (rs.getBoolean("earlier")) {
                    return Optional.empty();
                }
                return OtpThrottle.wait(recent(rs), now).map(Begun.Throttled::new);
            }
        }
    }

    /**
     * {@link #begin}'s general transaction, after {@link #send} wrote nothing and the phone's limits did
     * not refuse it: the phone's lock, the reads (the request's earlier dispatch, the phone's limits),
     * then the ledger's own path places the hold, finds the one its key already placed, or refuses it;
     * then the dispatch. The caller commits.
     */
    private Begun begin(Connection c, OtpDispatch d, String phoneKey, Object[] row, HoldRequest hold, String clientRef)
            throws SQLException {
        // The cached plans for this transaction, the phone's lock, then under it the request's earlier
        // dispatch, if any (so a retry racing its original sees the original's row), and the phone's
        // counted sends of the last hour, in one round trip.
        Instant now = d.createdAt();
        List<Instant> recent;
        try (PreparedStatement ps = c.prepareStatement(GENERIC_PLANS + "; " + LOCK_PHONE + "; " + EARLIER_AND_RECENT)) {
            setLockAndReads(ps, d, phoneKey, clientRef);
            try (ResultSet rs = afterTheLock(ps, 1)) {
                rs.next();
                if (rs.getString("public_id") != null) {
                    return new Begun.Existing(dispatch(rs));
                }
                recent = recent(rs);
            }
        }
        Optional<Duration> wait = OtpThrottle.wait(recent, now);
        if (wait.isPresent()) {
            return new Begun.Throttled(wait.get());
        }
        ledger.hold(c, hold);
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            Jdbc.set(ps, row);
            ps.executeUpdate();
        }
        return new Begun.Started(d);
    }

    /**
     * The start of the phone's window for a send at {@code now}, to the microsecond PostgreSQL keeps: a
     * send's time, in microseconds, is after it exactly when it is after {@code now} minus {@link
     * OtpThrottle#WINDOW} (the driver would round a bound with more than 500 ns to the next microsecond).
     */
    public static Instant windowStart(Instant now) {
        return now.minus(OtpThrottle.WINDOW).truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * {@link #sendGate()}'s bound for a send at {@code now}: the newest send's time, in microseconds, is
     * at or before it exactly when it is at or before {@code now} minus {@link OtpThrottle#SPACING}.
     */
    public static Instant spacingBound(Instant now) {
        return now.minus(OtpThrottle.SPACING).truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * Sets the parameters that {@link #SEND} and {@link #EARLIER_AND_RECENT}, each after {@link
     * #LOCK_PHONE}, begin with: the phone's lock, the request's earlier dispatch, the phone's recent sends.
     *
     * @return the index of the parameter after them
     */
    private static int setLockAndReads(PreparedStatement ps, OtpDispatch d, String phoneKey, String clientRef)
            throws SQLException {
        long account = d.account().value();
        Object[] values = {
            "sms:" + account + ":" + phoneKey,
            account,
            clientRef,
            account,
            phoneKey,
            Jdbc.timestamp(windowStart(d.createdAt())),
            OtpThrottle.PER_HOUR
        };
        Jdbc.set(ps, values);
        return values.length + 1;
    }

    /**
     * Runs a batch of {@code counts} statements without rows ({@link #GENERIC_PLANS}, after a {@code
     * BEGIN} or not), {@link #LOCK_PHONE} and the statement after them (and anything after that, such as
     * a {@code COMMIT}): that statement's rows.
     */
    private static ResultSet afterTheLock(PreparedStatement ps, int counts) throws SQLException {
        ps.execute(); // the first statement's count
        for (int i = 1; i < counts; i++) {
            ps.getMoreResults();
        }
        if (!ps.getMoreResults() || !ps.getMoreResults()) {
            throw new IllegalStateException("the phone's lock or the statement after it did not answer");
        }
        return ps.getResultSet();
    }

    /** The {@link #RECENT_COLUMNS}: the phone's counted sends of the last hour, newest first. */
    private static List<Instant> recent(ResultSet rs) throws SQLException {
        List<Instant> recent = new ArrayList<>();
        for (int i = 1; i <= OtpThrottle.PER_HOUR; i++) {
            Timestamp t = rs.getTimestamp("recent_" + i);
            if (t != null) {
                recent.add(t.toInstant());
            }
        }
        return recent;
    }

    @Override
    public OtpDispatch accepted(AccountId account, String id, String providerMessageId, Instant now) {
        // The common case is one statement, its own transaction: no second round trip to commit.
        Optional<OtpDispatch> common = Jdbc.autoCommit(
                dataSource, "accept SMS dispatch " + id, c -> acceptSending(c, account, id, providerMessageId, now));
        if (common.isPresent()) {
            return common.get();
        }
        return Jdbc.transaction(dataSource, "accept SMS dispatch " + id, c -> {
            // Not sending with no receipt yet (uncertain, a receipt came first, or settled): the general path.
            Locked row = lock(c, BY_ACCOUNT_AND_ID, id, account.value())
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
     * @throws IllegalStateException when the dispatch was sending but its hold was not held: the statement
     *     failed as a whole, so the dispatch is still sending
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
                    account.value(),
                    CreditKind.SMS_CREDITS.name(),
                    account.value(),
                    CreditKind.SMS_CREDITS.name(),
                    CHARGE,
                    account.value(),
                    -CHARGE,
                    ledger.timestamp());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                OtpDispatch accepted = dispatch(rs);
                ledger.debitWritten(
                        EntryType.HOLD_POST,
                        IdempotencyKey.of(rs.getString("hold_key")),
                        CreditKind.SMS_CREDITS,
                        CHARGE);
                return Optional.of(accepted);
            }
        } catch (SQLException e) {
            if (DIVISION_BY_ZERO.equals(e.getSQLState())) {
                throw new IllegalStateException(
                        "SMS dispatch " + id + " was sending but its hold could not be posted; nothing was changed", e);
            }
            throw e;
        }
    }

    @Override
    public OtpDispatch unavailable(AccountId account, String id, Instant now) {
        return Jdbc.transaction(dataSource, "release SMS dispatch " + id, c -> {
            Locked row = lock(c, BY_ACCOUNT_AND_ID, id, account.value())
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
            Optional<Locked> locked = lock(c, BY_ID, id);
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
                Jdbc.allowLongStatements(c); // housekeeping
                List<Locked> stuck = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(STUCK)) {
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
            try (PreparedStatement ps = c.prepareStatement(FIND)) {
                Jdbc.set(ps, id, account.value());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(dispatch(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public Optional<Checked> check(AccountId account, String id, Instant now, Map<String, byte[]> typedMacs) {
        String[] keyIds = typedMacs.keySet().toArray(String[]::new);
        byte[][] macs = new byte[keyIds.length][];
        for (int i = 0; i < keyIds.length; i++) {
            macs[i] = typedMacs.get(keyIds[i]);
        }
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        // PostgreSQL keeps microseconds and the driver rounds to the nearest one: truncated, a check 1 ns
        // before the term still compares as before it, as OtpDispatch.status says.
        Timestamp at = Jdbc.timestamp(now.truncatedTo(ChronoUnit.MICROS));
        return Jdbc.autoCommit(dataSource, "check SMS dispatch", c -> {
            Array macArray = c.createArrayOf("bytea", macs);
            Array idArray = c.createArrayOf("text", keyIds);
            try (PreparedStatement ps = c.prepareStatement(COUNT_ATTEMPT)) {
                Jdbc.set(ps, at, idArray, macArray, nonce, id, account.value(), at);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        OtpDispatch counted = dispatch(rs);
                        // The UPDATE acts only on a pending dispatch, so verified now means by this check.
                        return Optional.of(new Checked(counted, counted.state() == OtpStatus.VERIFICADO));
                    }
                }
            }
            // Not counted: unknown, not the account's, not checkable, or no longer pending (verified,
            // blocked, expired), maybe by a parallel check in between.
            try (PreparedStatement ps = c.prepareStatement(READ_CHECKABLE)) {
                Jdbc.set(ps, id, account.value());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new Checked(dispatch(rs), false)) : Optional.empty();
                }
            }
        });
    }

    private record Locked(OtpDispatch dispatch, IdempotencyKey holdKey) {}

    private static Optional<Locked> lock(Connection c, String where, Object... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOCK + where + " FOR UPDATE")) {
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
        try (PreparedStatement ps = c.prepareStatement(SETTLE)) {
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
