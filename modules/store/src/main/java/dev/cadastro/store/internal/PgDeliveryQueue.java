package dev.cadastro.store.internal;

import dev.cadastro.core.calls.push.Delivery;
import dev.cadastro.core.calls.push.DeliveryQueue;
import dev.cadastro.core.calls.push.DeliveryReason;
import dev.cadastro.core.calls.push.DeliveryState;
import dev.cadastro.core.calls.push.DeliveryStatus;
import dev.cadastro.core.calls.push.RetrySchedule;
import dev.cadastro.core.work.Claimed;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The push outbox on PostgreSQL ({@code call_deliveries}).
 *
 * <p>A claim is one statement in auto-commit: it picks due rows with {@code FOR UPDATE SKIP LOCKED}
 * (so servers never wait on each other's rows), keeps each integration within its in-flight cap
 * (counting the live leases of every server), and moves the picked rows' {@code next_attempt_at} to
 * the end of their lease: no other claim sees them as due until the lease runs out, and no lock
 * outlives the statement. The call and the destination come back in the same statement.
 */
public final class PgDeliveryQueue implements DeliveryQueue, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PgDeliveryQueue.class.getName());

    /** The cap a single {@link #claim} applies: the one-at-a-time path is for tools, not for throughput. */
    private static final int SINGLE_CLAIM_CAP = 1_000_000;

    private static final String CLAIM = "WITH busy AS ("
            + " SELECT integration_id, count(*) AS n FROM call_deliveries"
            + " WHERE state = 'pendente' AND lease_owner IS NOT NULL AND lease_until > ?"
            + " GROUP BY integration_id),"
            // One lane per enabled destination with room under its cap; each lane is read in its own
            // index range (call_deliveries_due), so a long backlog of one integration costs the others
            // nothing and the claim never sorts the whole backlog.
            + " lanes AS ("
            + " SELECT d.integration_id, ? - coalesce(b.n, 0) AS room FROM call_push_destinations d"
            + " LEFT JOIN busy b ON b.integration_id = d.integration_id"
            + " WHERE d.enabled AND coalesce(b.n, 0) < ?),"
            + " pick AS ("
            + " SELECT c.id FROM lanes l CROSS JOIN LATERAL ("
            + " SELECT cd.id, cd.next_attempt_at FROM call_deliveries cd"
            + " WHERE cd.integration_id = l.integration_id AND cd.state = 'pendente' AND cd.next_attempt_at <= ?"
            + " ORDER BY cd.next_attempt_at, cd.id LIMIT least(l.room, ?) FOR UPDATE SKIP LOCKED) c"
            + " ORDER BY c.next_attempt_at, c.id LIMIT ?)"
            // The attempt is counted here, when it is claimed, so an attempt whose outcome is never
            // recorded (a server that died, a lease that ran out) still counts; a row whose last
            // attempt went that way is falhou instead of being claimed again.
            + " UPDATE call_deliveries cd SET"
            + " state = CASE WHEN cd.attempts >= ? THEN 'falhou' ELSE 'pendente' END,"
            + " last_error = CASE WHEN cd.attempts >= ? THEN ? ELSE cd.last_error END,"
            + " attempts = CASE WHEN cd.attempts >= ? THEN cd.attempts ELSE cd.attempts + 1 END,"
            + " lease_owner = CASE WHEN cd.attempts >= ? THEN NULL ELSE ? END,"
            + " lease_until = CASE WHEN cd.attempts >= ? THEN NULL ELSE ?::timestamptz END,"
            + " next_attempt_at = CASE WHEN cd.attempts >= ? THEN cd.next_attempt_at ELSE ? END"
            + " FROM pick, calls c, call_push_destinations d, call_integrations i"
            + " WHERE cd.id = pick.id AND c.integration_id = cd.integration_id AND c.id = cd.call_id"
            + " AND d.integration_id = cd.integration_id AND i.id = cd.integration_id"
            + " RETURNING cd.id AS delivery_id, cd.state, cd.webhook_id, cd.reason, cd.attempts, cd.ready_at,"
            + " cd.lease_until,"
            + " c.integration_id, c.id AS call_id, c.occurrence_id, c.agent_id, c.agent_login, c.agent_name,"
            + " c.queue, c.result_code, c.result_description, c.classified_at, c.started_at,"
            + " c.duration_seconds, c.archived_at, c.recording_key,"
            + " i.name AS integration_name, d.url, d.header_name, d.header_value, d.resend_reclassified,"
            + " d.signing_secret, d.enabled";

    /** The error a delivery is left with when its last attempt's outcome was never recorded. */
    static final String LOST_LAST_ATTEMPT =
            "a última tentativa não teve resultado registrado (o servidor parou ou o" + " prazo da reserva acabou)";

    /** The deliveries' states with their integration's name, up to the condition that picks them. */
    private static final String STATUSES = "SELECT cd.id, i.name, cd.call_id, cd.webhook_id, cd.reason, cd.state,"
            + " cd.attempts, cd.ready_at, cd.next_attempt_at, cd.delivered_at, cd.last_status, cd.last_error"
            + " FROM call_deliveries cd JOIN call_integrations i ON i.id = cd.integration_id WHERE ";

    /** A failed delivery pending again with a fresh set of attempts, up to the condition that picks it. */
    private static final String REPLAY =
            "UPDATE call_deliveries SET state = 'pendente', attempts = 0, next_attempt_at = ? WHERE ";

    private final DataSource dataSource;
    private final DeliveredBatcher delivered;

    public PgDeliveryQueue(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.delivered = new DeliveredBatcher(dataSource);
    }

    /** Stops the group commit of delivered outcomes (what is queued is recorded first). */
    @Override
    public void close() {
        delivered.close();
    }

    @Override
    public Optional<Claimed<Delivery>> claim(String owner, Instant now, Duration lease) {
        List<Claimed<Delivery>> one = claimMany(owner, now, lease, 1, SINGLE_CLAIM_CAP);
        return one.isEmpty() ? Optional.empty() : Optional.of(one.getFirst());
    }

    @Override
    public List<Claimed<Delivery>> claimMany(String owner, Instant now, Duration lease, int max, int perIntegration) {
        if (max < 1 || perIntegration < 1) {
            throw new IllegalArgumentException(
                    "max " + max + " and perIntegration " + perIntegration + " must be at least 1");
        }
        Timestamp at = Jdbc.timestamp(now);
        Timestamp until = Jdbc.timestamp(now.plus(lease));
        return Jdbc.autoCommit(dataSource, "claim push deliveries", c -> {
            try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
                int m = RetrySchedule.MAX_ATTEMPTS;
                Jdbc.set(
                        ps,
                        at,
                        perIntegration,
                        perIntegration,
                        at,
                        max,
                        max,
                        m,
                        m,
                        LOST_LAST_ATTEMPT,
                        m,
                        m,
                        owner,
                        m,
                        until,
                        m,
                        until);
                List<Claimed<Delivery>> claimed = new ArrayList<>();
                Map<Long, String> unreadable = new LinkedHashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (!rs.getString("state").equals(DeliveryState.PENDENTE.wire())) {
                            continue;
                        }
                        long id = rs.getLong("delivery_id");
                        // The claim is committed already: a row that cannot be read must not be lost
                        // under its lease, nor take the rest of the batch with it.
                        try {
                            claimed.add(claimed(rs, owner));
                        } catch (RuntimeException | SQLException e) {
                            unreadable.put(
                                    id, "entrega ilegível: " + e.getClass().getSimpleName());
                        }
                    }
                }
                unreadable.forEach((id, error) -> failUnreadable(c, id, owner, error));
                return claimed;
            }
        });
    }

    private static Claimed<Delivery> claimed(ResultSet rs, String owner) throws SQLException {
        int attempt = rs.getInt("attempts");
        Delivery d = new Delivery(
                rs.getLong("delivery_id"),
                rs.getString("webhook_id"),
                DeliveryReason.ofWire(rs.getString("reason")),
                attempt,
                rs.getTimestamp("ready_at").toInstant(),
                PgCallStore.record(rs, "call_id"),
                PgPushDestinations.destination(rs));
        return new Claimed<>(d.id(), d, owner, rs.getTimestamp("lease_until").toInstant(), attempt);
    }

    private static void failUnreadable(Connection c, long id, String owner, String error) {
        LOG.log(System.Logger.Level.ERROR, "push: delivery {0} could not be read and is falhou: {1}", id, error);
        try (PreparedStatement ps = c.prepareStatement("UPDATE call_deliveries SET state = 'falhou', last_error = ?,"
                + " lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ? AND state = 'pendente'")) {
            Jdbc.set(ps, error, id, owner);
            ps.executeUpdate();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.ERROR, "push: marking unreadable delivery " + id + " falhou failed", e);
        }
    }

    @Override
    public boolean renew(long id, String owner, Instant now, Duration lease) {
        Timestamp until = Jdbc.timestamp(now.plus(lease));
        return Jdbc.updateOne(
                dataSource,
                "renew a delivery's lease",
                "UPDATE call_deliveries SET lease_until = ?, next_attempt_at = ?"
                        + " WHERE id = ? AND lease_owner = ? AND state = 'pendente'",
                until,
                until,
                id,
                owner);
    }

    @Override
    public void handBack(long id, String owner) {
        // Due at once: created_at is in the past; the attempt counted at the claim was not made
        // (or was cut short before an answer), so it is uncounted.
        Jdbc.update(
                dataSource,
                "hand a delivery back",
                "UPDATE call_deliveries SET lease_owner = NULL,"
                        + " lease_until = NULL, next_attempt_at = created_at, attempts = greatest(attempts - 1, 0)"
                        + " WHERE id = ? AND lease_owner = ? AND state = 'pendente'",
                id,
                owner);
    }

    /** Group-committed with the other deliveries that finished meanwhile ({@link DeliveredBatcher}). */
    @Override
    public boolean delivered(long id, String owner, Instant now, int status) {
        return delivered.submit(id, owner, now, status);
    }

    @Override
    public boolean retryAt(long id, String owner, Instant next, Optional<Integer> status, String error) {
        return endAttempt("record a failed attempt", "", next, status, error, id, owner);
    }

    @Override
    public boolean failed(long id, String owner, Instant now, Optional<Integer> status, String error) {
        return endAttempt("record a failed delivery", "state = 'falhou', ", now, status, error, id, owner);
    }

    /**
     * Ends the attempt the lease covered, with its answer or error, the lease dropped: the delivery is due
     * again at {@code next} or, with {@code newState} ({@code "state = 'falhou', "}), done.
     */
    private boolean endAttempt(
            String what, String newState, Instant next, Optional<Integer> status, String error, long id, String owner) {
        return Jdbc.updateOne(
                dataSource,
                what,
                "UPDATE call_deliveries SET " + newState
                        + "next_attempt_at = ?, last_status = ?, last_error = ?, lease_owner = NULL, lease_until = NULL"
                        + " WHERE id = ? AND lease_owner = ? AND state = 'pendente'",
                Jdbc.timestamp(next),
                status.orElse(null),
                error,
                id,
                owner);
    }

    @Override
    public boolean replay(long id, Instant now) {
        return Jdbc.updateOne(
                dataSource, "replay a delivery", REPLAY + "id = ? AND state = 'falhou'", Jdbc.timestamp(now), id);
    }

    @Override
    public int replayFailed(long integrationId, Instant now) {
        return Jdbc.update(
                dataSource,
                "replay failed deliveries",
                REPLAY + "integration_id = ? AND state = 'falhou'",
                Jdbc.timestamp(now),
                integrationId);
    }

    @Override
    public List<DeliveryStatus> list(long integrationId, Optional<DeliveryState> state, int limit) {
        String s = state.map(DeliveryState::wire).orElse(null);
        return Jdbc.list(
                dataSource,
                "list deliveries",
                STATUSES + "cd.integration_id = ? AND (?::text IS NULL OR cd.state = ?) ORDER BY cd.id DESC LIMIT ?",
                PgDeliveryQueue::status,
                integrationId,
                s,
                s,
                limit);
    }

    @Override
    public Optional<DeliveryStatus> find(long id) {
        return Jdbc.first(dataSource, "find delivery", STATUSES + "cd.id = ?", PgDeliveryQueue::status, id);
    }

    private static DeliveryStatus status(ResultSet rs) throws SQLException {
        int lastStatus = rs.getInt(11);
        boolean noStatus = rs.wasNull();
        return new DeliveryStatus(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                DeliveryReason.ofWire(rs.getString(5)),
                DeliveryState.ofWire(rs.getString(6)),
                rs.getInt(7),
                rs.getTimestamp(8).toInstant(),
                rs.getTimestamp(9).toInstant(),
                Optional.ofNullable(instant(rs.getTimestamp(10))),
                noStatus ? Optional.empty() : Optional.of(lastStatus),
                Optional.ofNullable(rs.getString(12)));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
