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
import java.util.Locale;
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
 *       (see {@link #COUNT_ATTEMPT}). The answer is given after that statement committed, and a check that found
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
    private static final String REFUND_REASON = "entrega do SMS falhou";

    /** What an accepted message costs: the whole hold of 1 SMS credit is posted. */
    private static final long CHARGE = 1;

    /** A statement's text with {@code {dispatch}} standing for the columns {@link #dispatch} reads. */
    private static NamedSql sql(String text) {
        return NamedSql.of(text.replace("{dispatch}", COLUMNS));
    }

    /**
     * {@link #acceptSending}: settle the dispatch ({@code d}), take the hold's amount off the balance's
     * posted and held sums ({@code b}), mark the hold posted ({@code h}), write the entry ({@code e}) with
     * the balance after it. The hold is read with the statement's snapshot; the dispatch row lock taken by
     * {@code d} is what every transition of an SMS hold takes first, so no other transaction can move it.
     * A settled dispatch whose hold was not posted must not be committed: with no entry written, {@code
     * store_require} (V14) fails the whole statement with SQLSTATE ST001, which acceptSending reports.
     *
     * <p>Every row is named by its whole key, the account and kind as parameters and the hold's key as a
     * scalar subquery of {@code d} (a parameter to the planner), not by a join, and no condition makes a
     * partial index a path to the dispatch: a plan cached while the tables were empty and unanalyzed could
     * otherwise join on the account alone and read all of the account's holds, or scan every dispatch
     * sent since the last vacuum, for each acceptance (benchmarks/history/2026-11-24-sms.md, "sms: plans on a new
     * database"). Sending is tested as {@code settled_at IS NULL} (the table's CHECK makes them one); until
     * V13, {@code delivery = 'enviando'} was the predicate of a partial index, which would then have been a
     * path.
     */
    private static final NamedSql ACCEPT_SENDING = sql("""
            WITH d AS (
                UPDATE sms_dispatches
                SET delivery = 'aceito', provider_message_id = COALESCE(:provider_message_id, provider_message_id),
                    settled_at = :now
                WHERE public_id = :id AND account_id = :account
                  AND settled_at IS NULL AND failure_reported_at IS NULL
                RETURNING id, {dispatch}, hold_key),
            s AS (DELETE FROM sms_sending WHERE dispatch_id = (SELECT id FROM d)),
            b AS (
                UPDATE balances SET posted = balances.posted - :charge, held = balances.held - held_hold.amount
                FROM holds held_hold
                WHERE held_hold.account_id = :account AND held_hold.idem_key = (SELECT hold_key FROM d)
                  AND held_hold.state = 'HELD' AND held_hold.kind = :kind
                  AND balances.account_id = :account AND balances.kind = :kind
                RETURNING balances.posted, held_hold.idem_key),
            h AS (
                UPDATE holds SET state = 'POSTED', posted_amount = :charge, settled_at = now()
                WHERE holds.account_id = :account AND holds.idem_key = (SELECT idem_key FROM b)
                  AND holds.state = 'HELD'
                RETURNING holds.account_id, holds.kind, holds.idem_key, holds.description),
            e AS (
                INSERT INTO ledger_entries
                    (account_id, kind, type, amount, idem_key, description, created_at, balance_after)
                SELECT h.account_id, h.kind, 'HOLD_POST', :entry_amount, h.idem_key, h.description, :entry_at, b.posted
                FROM h JOIN b ON b.idem_key = h.idem_key
                RETURNING 1)
            SELECT d.*, store_require((SELECT count(*) FROM e) > 0, 'the dispatch settled but its hold was not posted')
                AS posted
            FROM d
            """);

    /** {@code recent_1} to {@code recent_5}: the elements of {@code times}, one column each (see {@link #recent}). */
    private static final String RECENT_COLUMNS = IntStream.rangeClosed(1, OtpThrottle.PER_HOUR)
            .mapToObj(i -> " times[" + i + "] AS recent_" + i)
            .collect(Collectors.joining(","));

    /**
     * {@link #begin}'s reads in one statement and one row, under the phone's lock: the request's earlier
     * dispatch, locked ({@code earlier}, its row's {@code id}, null when there is none), and the created
     * times of the phone's counted sends of the window, newest first, at most as many as the throttle
     * looks at, one column each ({@code recent_1} to {@code recent_5}, nulls past the last). What they
     * allow is decided in Java, by {@link OtpThrottle#wait}: the SQL only reads.
     *
     * <p>Only columns of fixed size: pgjdbc sends a statement whose row it cannot bound (a text column, an
     * array) only after a Sync and the answers to everything sent before it, one more round trip; with
     * this answer the plan setting, the lock and the reads go out together. A retry's earlier dispatch is
     * then read by its id ({@link #EARLIER}).
     */
    private static final NamedSql EARLIER_AND_RECENT = sql(String.format(Locale.ROOT, """
            WITH earlier AS (
                SELECT id FROM sms_dispatches
                WHERE account_id = :account AND client_ref = :client_ref AND delivery <> 'indisponivel'
                LIMIT 1 FOR UPDATE),
            recent AS (
                SELECT array_agg(created_at ORDER BY created_at DESC) AS times FROM (
                    SELECT created_at FROM sms_dispatches
                    WHERE account_id = :account AND phone_key = :phone_key AND delivery <> 'indisponivel'
                      AND created_at > :window_start
                    ORDER BY created_at DESC LIMIT :per_hour) last_hour)
            SELECT (SELECT id FROM earlier) AS earlier, %s FROM recent
            """, RECENT_COLUMNS));

    /** The request's earlier dispatch, which {@link #EARLIER_AND_RECENT} found and locked. */
    private static final NamedSql EARLIER = sql("SELECT {dispatch} FROM sms_dispatches WHERE id = :earlier");

    /** Sends to one account and phone take turns on this transaction-scoped lock. */
    private static final NamedSql LOCK_PHONE = sql("SELECT pg_advisory_xact_lock(hashtextextended(:phone_lock, 7))");

    /**
     * The send's statements run the plans their connection cached, for the rest of the transaction: the
     * read ({@link #EARLIER_AND_RECENT}), the ledger's hold and {@link #INSERT}; the read's generic plan
     * is the one {@code SmsPlanTest} checks, the hold's one read by primary key. Left to choose,
     * PostgreSQL kept the read's cached plan until autovacuum first analyzed a new home's tables, then
     * planned the read again at every execution for the rest of the connection's life: about 1,000
     * plannings a second at 1,000 pairs/s, roughly 0.1 ms of a backend's CPU each
     * (benchmarks/history/2026-11-24-sms.md, "sms: a send's read planned at every execution"). No other SMS statement was seen to do so.
     */
    private static final NamedSql GENERIC_PLANS = sql("SET LOCAL plan_cache_mode = force_generic_plan");

    /** {@link #begin}'s first round trip: the cached plans, the phone's lock, then under it the reads. */
    private static final NamedSql READ_UNDER_LOCK = NamedSql.join(GENERIC_PLANS, LOCK_PHONE, EARLIER_AND_RECENT);

    /** A new dispatch is sending: its row in sms_sending is written by the same statement. */
    private static final NamedSql INSERT = sql("""
            WITH dispatch AS (
                INSERT INTO sms_dispatches (public_id, account_id, phone_key, phone_masked, digits, key_id,
                    code_mac, hold_key, client_ref, created_at, expires_at)
                VALUES (:public_id, :account, :phone_key, :phone_masked, :digits, :key_id,
                    :code_mac, :hold_key, :client_ref, :created_at, :expires_at)
                RETURNING id, created_at)
            INSERT INTO sms_sending (dispatch_id, since) SELECT id, created_at FROM dispatch
            """);

    /** Dispatches the client may check, whatever their status. */
    private static final String CHECKABLE = "delivery IN ('aceito', 'falhou', 'incerto')";

    /** A dispatch the client may check, whatever its status. */
    private static final NamedSql READ_CHECKABLE = sql(
            "SELECT {dispatch} FROM sms_dispatches WHERE public_id = :id AND account_id = :account AND " + CHECKABLE);

    /**
     * A check: counts the attempt, and on a match ({@code hit}, computed once for both columns) spends the
     * code, only if the dispatch can still be checked (see the class comment); its answer's state tells
     * whether this check verified it.
     *
     * <p>{@code hit} says whether the typed code's MAC under the dispatch's key equals the stored one:
     * parameters the typed MACs' key ids ({@code text[]}), the MACs ({@code bytea[]}) in the same order,
     * paired by {@code unnest} whatever the arrays' bounds, and a nonce. A key id not sent (a dropped key)
     * makes the typed MAC NULL, no match. PostgreSQL compares {@code bytea} with {@code memcmp}, whose time
     * grows with the common prefix. So it compares the SHA-256 of each MAC after a nonce of 32 bytes drawn
     * for each check from {@link SecureRandom} instead: no one can predict or steer those digests, so how
     * long their comparison takes says nothing about the stored MAC (the double-MAC comparison). The
     * stored MAC never leaves the database.
     */
    private static final NamedSql COUNT_ATTEMPT =
            sql(String.format(Locale.ROOT, """
            UPDATE sms_dispatches SET attempts = attempts + 1,
                (state, verified_at) = (
                    SELECT CASE WHEN m.hit THEN 'verificado' ELSE state END,
                           CASE WHEN m.hit THEN :now::timestamptz ELSE verified_at END
                    FROM (
                        SELECT coalesce(sha256(n.nonce || code_mac) = sha256(n.nonce || (
                            SELECT k.mac FROM unnest(:key_ids::text[], :macs::bytea[]) AS k(id, mac)
                            WHERE k.id = key_id)), false) AS hit
                        FROM (SELECT :nonce::bytea AS nonce) n) m)
            WHERE public_id = :id AND account_id = :account AND %s
              AND state = 'pendente' AND attempts < %d AND expires_at > :now
            RETURNING {dispatch}
            """, CHECKABLE, OtpDispatch.MAX_ATTEMPTS));

    /** The blinding nonce's size: as many bytes as the digests it blinds. */
    private static final int NONCE_BYTES = 32;

    private static final NamedSql FIND =
            sql("SELECT {dispatch} FROM sms_dispatches WHERE public_id = :id AND account_id = :account");

    /** A dispatch of the account, locked, with its hold's key. */
    private static final NamedSql LOCK = sql(
            "SELECT {dispatch}, hold_key FROM sms_dispatches WHERE public_id = :id AND account_id = :account FOR UPDATE");

    /** A receipt names the dispatch alone (the provider does not know our accounts). */
    private static final NamedSql LOCK_FOR_RECEIPT =
            sql("SELECT {dispatch}, hold_key FROM sms_dispatches WHERE public_id = :id FOR UPDATE");

    /** A sending dispatch settled (accepted, unavailable or abandoned): it leaves sms_sending. */
    private static final NamedSql SETTLE = sql("""
            WITH d AS (
                UPDATE sms_dispatches
                SET delivery = :delivery, provider_message_id = COALESCE(:provider_message_id, provider_message_id),
                    settled_at = :now
                WHERE public_id = :id
                RETURNING id)
            DELETE FROM sms_sending WHERE dispatch_id = (SELECT id FROM d)
            """);

    /** A failed delivery of an accepted message, refunded. */
    private static final NamedSql FAILED =
            sql("UPDATE sms_dispatches SET delivery = 'falhou', failure_reported_at = :now WHERE public_id = :id");

    /** A failed delivery reported before the acceptance, to apply then. */
    private static final NamedSql FAILURE_REPORTED =
            sql("UPDATE sms_dispatches SET failure_reported_at = :now WHERE public_id = :id");

    /** Housekeeping's read: the oldest sends in flight since before the lease, locked, skipping busy ones. */
    private static final NamedSql STUCK = sql("""
            SELECT {dispatch}, hold_key
            FROM sms_sending s JOIN sms_dispatches d ON d.id = s.dispatch_id
            WHERE s.since <= :before AND d.settled_at IS NULL
            ORDER BY s.since LIMIT 100 FOR UPDATE OF d SKIP LOCKED
            """);

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
                "send read",
                EARLIER_AND_RECENT.sql(),
                "earlier",
                EARLIER.sql(),
                "accept",
                ACCEPT_SENDING.sql(),
                "count attempt",
                COUNT_ATTEMPT.sql(),
                "read checkable",
                READ_CHECKABLE.sql(),
                "find",
                FIND.sql(),
                "lock",
                LOCK.sql(),
                "lock for a receipt",
                LOCK_FOR_RECEIPT.sql(),
                "settle",
                SETTLE.sql());
    }

    /**
     * Begins a send in one transaction, under the phone's lock: the request's earlier dispatch, if any (so
     * a retry racing its original sees the original's row), and the phone's counted sends of the window,
     * in one round trip; then {@link OtpThrottle#wait} applies the phone's limits; then the ledger places
     * the hold ({@link PgLedger#hold(Connection, HoldRequest)}: a new hold, the one its key already
     * placed, or a refusal for short credit) and the dispatch is written. Every rule is stated once, where
     * it belongs: the throttle in {@link OtpThrottle}, the hold's in the ledger.
     */
    @Override
    public Begun begin(OtpDispatch d, String phoneKey, byte[] mac, HoldRequest hold, String clientRef) {
        if (d.delivery() != Delivery.ENVIANDO || d.attempts() != 0) {
            throw new IllegalArgumentException("a new dispatch is enviando with no attempt, not " + d);
        }
        return Jdbc.transaction(
                dataSource, "begin SMS dispatch " + d.id(), c -> begin(c, d, phoneKey, mac, hold, clientRef));
    }

    private Begun begin(Connection c, OtpDispatch d, String phoneKey, byte[] mac, HoldRequest hold, String clientRef)
            throws SQLException {
        Instant now = d.createdAt();
        List<Instant> recent;
        long earlier;
        try (PreparedStatement ps = READ_UNDER_LOCK.prepare(c)) {
            READ_UNDER_LOCK.bind(ps, lockAndReads(d, phoneKey, clientRef));
            try (ResultSet rs = afterTheLock(ps)) {
                rs.next();
                earlier = rs.getLong("earlier");
                earlier = rs.wasNull() ? 0 : earlier;
                recent = recent(rs);
            }
        }
        if (earlier != 0) {
            try (PreparedStatement ps = EARLIER.prepare(c)) {
                EARLIER.bind(ps, NamedSql.args().set("earlier", earlier));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new Begun.Existing(dispatch(rs));
                }
            }
        }
        Optional<Duration> wait = OtpThrottle.wait(recent, now);
        if (wait.isPresent()) {
            return new Begun.Throttled(wait.get());
        }
        ledger.hold(c, hold);
        try (PreparedStatement ps = INSERT.prepare(c)) {
            INSERT.bind(
                    ps,
                    dispatchRow(d, mac)
                            .set("account", d.account().value())
                            .set("phone_key", phoneKey)
                            .set("client_ref", clientRef)
                            .set("hold_key", hold.key().value()));
            ps.executeUpdate();
        }
        return new Begun.Started(d);
    }

    /**
     * The new dispatch's columns for {@link #INSERT} but those it shares with the reads ({@code account},
     * {@code phone_key}, {@code client_ref}) and with the hold ({@code hold_key}).
     */
    private static NamedSql.Args dispatchRow(OtpDispatch d, byte[] mac) {
        return NamedSql.args()
                .set("public_id", d.id())
                .set("phone_masked", d.phoneMasked())
                .set("digits", d.digits())
                .set("key_id", d.keyId())
                .set("code_mac", mac)
                .set("created_at", Jdbc.timestamp(d.createdAt()))
                .set("expires_at", Jdbc.timestamp(d.expiresAt()));
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
     * The values of {@link #READ_UNDER_LOCK}'s parameters: the phone's lock, the request's earlier
     * dispatch, the phone's recent sends.
     */
    private static NamedSql.Args lockAndReads(OtpDispatch d, String phoneKey, String clientRef) {
        long account = d.account().value();
        return NamedSql.args()
                .set("phone_lock", "sms:" + account + ":" + phoneKey)
                .set("account", account)
                .set("client_ref", clientRef)
                .set("phone_key", phoneKey)
                .set("window_start", Jdbc.timestamp(windowStart(d.createdAt())))
                .set("per_hour", OtpThrottle.PER_HOUR);
    }

    /**
     * Runs {@link #READ_UNDER_LOCK}, {@link #GENERIC_PLANS} and {@link #LOCK_PHONE} then the reads, in one
     * batch: the reads' rows.
     */
    private static ResultSet afterTheLock(PreparedStatement ps) throws SQLException {
        ps.execute(); // the plan setting's count
        if (!ps.getMoreResults() || !ps.getMoreResults()) {
            throw new IllegalStateException("the phone's lock or the reads after it did not answer");
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
            Locked row = lock(c, LOCK, NamedSql.args().set("id", id).set("account", account.value()))
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
        try (PreparedStatement ps = ACCEPT_SENDING.prepare(c)) {
            ACCEPT_SENDING.bind(
                    ps,
                    NamedSql.args()
                            .set("provider_message_id", providerMessageId)
                            .set("now", Jdbc.timestamp(now))
                            .set("id", id)
                            .set("account", account.value())
                            .set("charge", CHARGE)
                            .set("kind", CreditKind.SMS_CREDITS.name())
                            .set("entry_amount", -CHARGE)
                            .set("entry_at", ledger.timestamp()));
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
            if (Jdbc.REQUIREMENT_FAILED.equals(e.getSQLState())) {
                throw new IllegalStateException(
                        "SMS dispatch " + id + " was sending but its hold could not be posted; nothing was changed", e);
            }
            throw e;
        }
    }

    @Override
    public OtpDispatch unavailable(AccountId account, String id, Instant now) {
        return Jdbc.transaction(dataSource, "release SMS dispatch " + id, c -> {
            Locked row = lock(c, LOCK, NamedSql.args().set("id", id).set("account", account.value()))
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
            Optional<Locked> locked = lock(c, LOCK_FOR_RECEIPT, NamedSql.args().set("id", id));
            if (locked.isEmpty()) {
                return false;
            }
            Locked row = locked.get();
            OtpDispatch.Receipt receipt = row.dispatch.deliveryFailed();
            if (receipt.refund()) {
                ledger.refund(c, row.dispatch.account(), row.holdKey, REFUND_REASON);
                try (PreparedStatement ps = FAILED.prepare(c)) {
                    FAILED.bind(
                            ps, NamedSql.args().set("now", Jdbc.timestamp(now)).set("id", id));
                    ps.executeUpdate();
                }
            } else if (receipt.after().failureReported() && !row.dispatch.failureReported()) {
                try (PreparedStatement ps = FAILURE_REPORTED.prepare(c)) {
                    FAILURE_REPORTED.bind(
                            ps, NamedSql.args().set("now", Jdbc.timestamp(now)).set("id", id));
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
                try (PreparedStatement ps = STUCK.prepare(c)) {
                    STUCK.bind(ps, NamedSql.args().set("before", Jdbc.timestamp(createdBefore)));
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
            try (PreparedStatement ps = FIND.prepare(c)) {
                FIND.bind(ps, NamedSql.args().set("id", id).set("account", account.value()));
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
            try (PreparedStatement ps = COUNT_ATTEMPT.prepare(c)) {
                COUNT_ATTEMPT.bind(
                        ps,
                        NamedSql.args()
                                .set("now", at)
                                .set("key_ids", idArray)
                                .set("macs", macArray)
                                .set("nonce", nonce)
                                .set("id", id)
                                .set("account", account.value()));
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
            try (PreparedStatement ps = READ_CHECKABLE.prepare(c)) {
                READ_CHECKABLE.bind(ps, NamedSql.args().set("id", id).set("account", account.value()));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new Checked(dispatch(rs), false)) : Optional.empty();
                }
            }
        });
    }

    private record Locked(OtpDispatch dispatch, IdempotencyKey holdKey) {}

    private static Optional<Locked> lock(Connection c, NamedSql lock, NamedSql.Args args) throws SQLException {
        try (PreparedStatement ps = lock.prepare(c)) {
            lock.bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new Locked(dispatch(rs), IdempotencyKey.of(rs.getString("hold_key"))))
                        : Optional.empty();
            }
        }
    }

    private static void settle(Connection c, String id, Delivery delivery, String providerMessageId, Instant now)
            throws SQLException {
        try (PreparedStatement ps = SETTLE.prepare(c)) {
            SETTLE.bind(
                    ps,
                    NamedSql.args()
                            .set("delivery", delivery.wire())
                            .set("provider_message_id", providerMessageId)
                            .set("now", Jdbc.timestamp(now))
                            .set("id", id));
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
