package dev.cadastro.store.internal;

import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.calls.FeedEntry;
import dev.cadastro.core.calls.FeedPosition;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.store.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/**
 * Calls on PostgreSQL ({@code calls}) with the push outbox ({@code call_deliveries}) written in the same
 * transaction.
 *
 * <p>An {@link #ingest} is one transaction, sent in chunks of {@value #CHUNK} calls, three statements
 * each whatever the chunk's size: the new calls are inserted with {@code ON CONFLICT DO NOTHING} (which
 * waits for a concurrent insert of the same id and then leaves it alone), the known ones are read
 * {@code FOR UPDATE}, merged by {@link #merge} in Java, and the changed ones written back with one
 * {@code UPDATE ... FROM unnest(...)}; the delivery rows follow in one more statement. So two servers
 * ingesting the same call at once serialize on its row, and each change is counted and pushed once.
 *
 * <p>Locks follow one order across the whole batch: the transaction first takes a transaction-scoped
 * advisory lock on each of the batch's integrations, in key order, so two ingests of one integration
 * take turns (one source feeds an integration, so they rarely meet). Row locks alone would not do: a
 * batch of several chunks holds the inserts of its second chunk while another batch that is one chunk
 * waits on them holding a row of the first. Should PostgreSQL still report a deadlock or a serialization
 * failure, the whole transaction is run again (ingest is idempotent), up to {@value #ATTEMPTS} times.
 *
 * <p>A batch PostgreSQL refuses for its data (SQLSTATE classes 22, data exception, and 23, integrity,
 * such as an unknown integration) is reported as an {@link InvalidParameterException}, so a caller can
 * retry it record by record and set the refused record aside; any other failure is a {@link
 * StoreException}.
 *
 * <p>What {@link IngestResult} counts: {@code inserted} new calls; {@code reclassified} known calls whose
 * classification moved to a later one; {@code archived} known calls whose recording was archived now;
 * {@code unchanged} known calls whose classification and archive stayed (the exchange's other fields may
 * have been refreshed); {@code deliveriesQueued} outbox rows written. A call given twice in one ingest
 * counts once, as the merge of its states in the order given.
 *
 * <p>Each call that becomes ready, and each ready call reclassified, takes the transaction's feed position for
 * its integration ({@code available_at}; see {@link #feedPositions} for why positions commit in order).
 *
 * <p>{@link #page} is a keyset read on the partial index {@code calls_list}: every page, the first or the
 * ten-thousandth, is one index range scan of at most {@code limit} matching rows.
 */
public final class PgCallStore implements CallStore {
    /** Calls per statement in an ingest: large enough to amortize the round trips, small enough to plan fast. */
    static final int CHUNK = 500;

    /** Runs of one ingest transaction when PostgreSQL reports a deadlock or a serialization failure. */
    static final int ATTEMPTS = 5;

    /** The advisory-lock class of ingests (the two-key form, apart from the one-key locks used elsewhere). */
    private static final int INGEST_LOCK_CLASS = 0x43_41_4C_4C; // "CALL"

    /**
     * How times are bound: PostgreSQL's own ISO form, always with seconds and microseconds and an explicit
     * UTC offset (Instant.toString drops zero seconds and writes years past 9999 with a sign PostgreSQL
     * does not read).
     */
    private static final DateTimeFormatter BIND_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSxxx", java.util.Locale.ROOT);

    private static final String COLUMNS = "integration_id, id, occurrence_id, agent_id, agent_login, agent_name,"
            + " queue, result_code, result_description, classified_at, started_at, duration_seconds, archived_at,"
            + " recording_key";

    /**
     * The call columns as {@code unnest} gives them from the arrays {@link #bindCalls} sets, then the feed
     * position the ingest gives the call ({@code available_at}, null when it takes none).
     */
    private static final String UNNEST_CALLS = "unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[],"
            + " ?::text[], ?::text[], ?::text[], ?::text[], ?::text[]::timestamptz[], ?::text[]::timestamptz[],"
            + " ?::integer[], ?::text[]::timestamptz[], ?::text[], ?::text[]::timestamptz[]) AS u(integration_id, id,"
            + " occurrence_id, agent_id, agent_login, agent_name, queue, result_code, result_description,"
            + " classified_at, started_at, duration_seconds, archived_at, recording_key, available_at)";

    private static final Comparator<CallRecord> KEY_ORDER =
            Comparator.comparingLong(CallRecord::integrationId).thenComparing(CallRecord::id);

    private final DataSource dataSource;
    private final Clock clock;
    private final RandomGenerator random;

    /**
     * @param random the source of the deliveries' {@code webhook-id} values (a {@code SecureRandom} in
     *     production: receivers deduplicate on them, so they must not collide or be guessable)
     */
    public PgCallStore(DataSource dataSource, Clock clock, RandomGenerator random) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    /** What merging an incoming state into a stored call gives. */
    record Merge(CallRecord merged, boolean reclassified, boolean becameReady) {}

    /**
     * The rules of {@link CallStore#ingest}: the classification moves only to a later {@code classifiedAt};
     * the archive time is set once; the exchange's other fields follow any state that is not older.
     */
    static Merge merge(CallRecord stored, CallRecord incoming) {
        Instant archivedAt = stored.archivedAt() != null ? stored.archivedAt() : incoming.archivedAt();
        boolean becameReady = stored.archivedAt() == null && archivedAt != null;
        int order = incoming.classifiedAt().compareTo(stored.classifiedAt());
        if (order < 0) {
            return new Merge(withArchive(stored, archivedAt), false, becameReady);
        }
        CallRecord classification = order > 0 ? incoming : stored;
        CallRecord merged = new CallRecord(
                stored.integrationId(),
                stored.id(),
                incoming.occurrenceId(),
                incoming.agentId(),
                incoming.agentLogin(),
                incoming.agentName(),
                incoming.queue(),
                classification.resultCode(),
                classification.resultDescription(),
                classification.classifiedAt(),
                incoming.startedAt(),
                incoming.durationSeconds(),
                archivedAt,
                incoming.recordingKey());
        return new Merge(merged, order > 0, becameReady);
    }

    private static CallRecord withArchive(CallRecord r, Instant archivedAt) {
        return new CallRecord(
                r.integrationId(),
                r.id(),
                r.occurrenceId(),
                r.agentId(),
                r.agentLogin(),
                r.agentName(),
                r.queue(),
                r.resultCode(),
                r.resultDescription(),
                r.classifiedAt(),
                r.startedAt(),
                r.durationSeconds(),
                archivedAt,
                r.recordingKey());
    }

    private record Key(long integrationId, String id) {
        static Key of(CallRecord r) {
            return new Key(r.integrationId(), r.id());
        }
    }

    /** A delivery to write: the call, and why it is pushed. */
    private record Delivery(long integrationId, String callId, String reason) {}

    @Override
    public IngestResult ingest(List<CallRecord> calls) {
        Objects.requireNonNull(calls, "calls");
        if (calls.isEmpty()) {
            return IngestResult.NOTHING;
        }
        // One state per call: later states in the list merge into earlier ones, as if ingested in turn.
        Map<Key, CallRecord> folded = new LinkedHashMap<>();
        for (CallRecord r : calls) {
            folded.merge(
                    Key.of(Objects.requireNonNull(r, "call")),
                    r,
                    (a, b) -> merge(a, b).merged());
        }
        List<CallRecord> sorted = new ArrayList<>(folded.values());
        // Rows are locked in key order within a chunk; across chunks, the integrations' advisory locks (taken
        // first, see the class comment) keep two ingests of overlapping calls from deadlocking.
        sorted.sort(KEY_ORDER);
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        String what = "ingest " + sorted.size() + " calls";
        for (int attempt = 1; ; attempt++) {
            try {
                return Jdbc.transaction(dataSource, what, c -> {
                    // An ingest (a worker's, or `calls import`) may wait for another's integration lock.
                    Jdbc.allowLongStatements(c);
                    lockIntegrations(c, sorted);
                    Map<Long, Instant> positions = feedPositions(c, sorted, now);
                    Map<Long, Boolean> destinations = destinations(c, sorted);
                    IngestResult total = IngestResult.NOTHING;
                    for (int from = 0; from < sorted.size(); from += CHUNK) {
                        total = total.plus(chunk(
                                c,
                                sorted.subList(from, Math.min(sorted.size(), from + CHUNK)),
                                now,
                                destinations,
                                positions));
                    }
                    return total;
                });
            } catch (StoreException e) {
                String state = e.getCause() instanceof SQLException sql ? sql.getSQLState() : null;
                if (("40P01".equals(state) || "40001".equals(state)) && attempt < ATTEMPTS) {
                    continue;
                }
                if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                    throw InvalidParameterException.of(
                            "calls", "store-refused", Message.CALLS_STORE_REFUSED.with("SQLSTATE " + state));
                }
                throw e;
            }
        }
    }

    /** Takes the batch's integrations' advisory locks, in one global order: the lock keys, ascending. */
    private static void lockIntegrations(Connection c, List<CallRecord> calls) throws SQLException {
        int[] keys = calls.stream()
                .mapToInt(r -> (int) r.integrationId())
                .distinct()
                .sorted()
                .toArray();
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
            for (int key : keys) {
                Jdbc.set(ps, INGEST_LOCK_CLASS, key);
                ps.execute();
            }
        }
    }

    /**
     * The feed position this transaction gives, per integration of the batch, to the calls that become ready
     * or are reclassified: the integration's latest position plus one second, or {@code now}'s second when
     * that is later. Read after {@link #lockIntegrations}: each statement of a READ COMMITTED transaction
     * sees what committed before it started, and the previous holder of the lock had committed, and become
     * visible, before it let the lock go (PostgreSQL releases a transaction's locks after its commit is
     * visible). So the position is later than every committed one, and no other transaction of the
     * integration takes a position until this one has committed: the integration's positions commit in
     * order, and a reader never sees a position while an earlier one is still to come (ADR 0048).
     */
    private static Map<Long, Instant> feedPositions(Connection c, List<CallRecord> calls, Instant now)
            throws SQLException {
        Long[] ids = calls.stream().map(CallRecord::integrationId).distinct().toArray(Long[]::new);
        Instant second = now.truncatedTo(ChronoUnit.SECONDS);
        Map<Long, Instant> out = new HashMap<>();
        // One probe of calls_feed per integration (the max of an index's leading columns is its last entry).
        try (PreparedStatement ps = c.prepareStatement("SELECT k.id, (SELECT max(available_at) FROM calls"
                + " WHERE integration_id = k.id AND archived_at IS NOT NULL) FROM unnest(?::bigint[]) AS k(id)")) {
            ps.setArray(1, c.createArrayOf("bigint", ids));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    OffsetDateTime latest = rs.getObject(2, OffsetDateTime.class);
                    Instant next = latest == null
                            ? second
                            : latest.toInstant().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
                    out.put(rs.getLong(1), next.isAfter(second) ? next : second);
                }
            }
        }
        return out;
    }

    /** The integrations among {@code calls} that have a push destination, enabled or paused: whether they want resends. */
    private static Map<Long, Boolean> destinations(Connection c, List<CallRecord> calls) throws SQLException {
        Long[] ids = calls.stream().map(CallRecord::integrationId).distinct().toArray(Long[]::new);
        Map<Long, Boolean> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT integration_id, resend_reclassified"
                + " FROM call_push_destinations WHERE integration_id = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("bigint", ids));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), rs.getBoolean(2));
                }
            }
        }
        return out;
    }

    private IngestResult chunk(
            Connection c,
            List<CallRecord> chunk,
            Instant now,
            Map<Long, Boolean> destinations,
            Map<Long, Instant> positions)
            throws SQLException {
        Set<Key> inserted = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO calls (" + COLUMNS
                + ", available_at, ingested_at, updated_at)"
                + " SELECT u.*, ?, ? FROM " + UNNEST_CALLS
                + " ORDER BY u.integration_id, u.id COLLATE \"C\" ON CONFLICT (integration_id, id) DO NOTHING"
                + " RETURNING integration_id, id")) {
            ps.setObject(1, time(now));
            ps.setObject(2, time(now));
            // A new call enters the feed when it arrives ready.
            bindCalls(c, ps, 3, chunk, r -> r.ready() ? positions.get(r.integrationId()) : null);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    inserted.add(new Key(rs.getLong(1), rs.getString(2)));
                }
            }
        }
        List<Delivery> deliveries = new ArrayList<>();
        List<CallRecord> known = new ArrayList<>();
        for (CallRecord r : chunk) {
            if (!inserted.contains(Key.of(r))) {
                known.add(r);
            } else if (r.ready() && destinations.containsKey(r.integrationId())) {
                deliveries.add(new Delivery(r.integrationId(), r.id(), "pronta"));
            }
        }
        int reclassified = 0;
        int archived = 0;
        int unchanged = 0;
        if (!known.isEmpty()) {
            Map<Key, CallRecord> stored = lockKnown(c, known);
            List<CallRecord> changed = new ArrayList<>();
            Set<Key> moved = new HashSet<>();
            for (CallRecord incoming : known) {
                CallRecord before = stored.get(Key.of(incoming));
                if (before == null) {
                    throw new IllegalStateException("call " + incoming.id() + " was neither inserted nor found");
                }
                Merge m = merge(before, incoming);
                if (!m.merged().equals(before)) {
                    changed.add(m.merged());
                }
                // A known call enters the feed when it becomes ready, and again whenever a ready call
                // changes (a reclassification, or the exchange correcting its agent, queue or recording):
                // a client following the feed, or filtering it by queue, must see every change.
                if (m.becameReady() || (before.ready() && !m.merged().equals(before))) {
                    moved.add(Key.of(incoming));
                }
                Boolean resend = destinations.get(incoming.integrationId());
                if (m.becameReady()) {
                    archived++;
                    if (resend != null) {
                        deliveries.add(new Delivery(incoming.integrationId(), incoming.id(), "pronta"));
                    }
                } else if (m.reclassified() && before.ready() && Boolean.TRUE.equals(resend)) {
                    deliveries.add(new Delivery(incoming.integrationId(), incoming.id(), "reclassificada"));
                }
                if (m.reclassified()) {
                    reclassified++;
                }
                if (!m.reclassified() && !m.becameReady()) {
                    unchanged++;
                }
            }
            update(c, changed, now, r -> moved.contains(Key.of(r)) ? positions.get(r.integrationId()) : null);
        }
        queue(c, deliveries, now);
        return new IngestResult(inserted.size(), reclassified, archived, unchanged, deliveries.size());
    }

    private static Map<Key, CallRecord> lockKnown(Connection c, List<CallRecord> known) throws SQLException {
        Map<Key, CallRecord> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + prefixed("c") + " FROM calls c"
                + " JOIN unnest(?::bigint[], ?::text[]) AS k(integration_id, id)"
                + " ON c.integration_id = k.integration_id AND c.id = k.id"
                + " ORDER BY c.integration_id, c.id FOR UPDATE OF c")) {
            ps.setArray(
                    1,
                    c.createArrayOf(
                            "bigint",
                            known.stream().map(CallRecord::integrationId).toArray()));
            ps.setArray(
                    2,
                    c.createArrayOf("text", known.stream().map(CallRecord::id).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    CallRecord r = record(rs);
                    out.put(Key.of(r), r);
                }
            }
        }
        return out;
    }

    private static void update(
            Connection c,
            List<CallRecord> changed,
            Instant now,
            java.util.function.Function<CallRecord, Instant> position)
            throws SQLException {
        if (changed.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE calls c SET occurrence_id = u.occurrence_id,"
                + " agent_id = u.agent_id, agent_login = u.agent_login, agent_name = u.agent_name, queue = u.queue,"
                + " result_code = u.result_code, result_description = u.result_description,"
                + " classified_at = u.classified_at, started_at = u.started_at,"
                + " duration_seconds = u.duration_seconds, archived_at = u.archived_at,"
                + " recording_key = u.recording_key, available_at = coalesce(u.available_at, c.available_at),"
                + " updated_at = ?"
                + " FROM " + UNNEST_CALLS + " WHERE c.integration_id = u.integration_id AND c.id = u.id")) {
            ps.setObject(1, time(now));
            bindCalls(c, ps, 2, changed, position);
            ps.executeUpdate();
        }
    }

    private void queue(Connection c, List<Delivery> deliveries, Instant now) throws SQLException {
        if (deliveries.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_deliveries (integration_id, call_id,"
                + " webhook_id, reason, state, attempts, next_attempt_at, created_at, ready_at)"
                + " SELECT u.integration_id, u.call_id, u.webhook_id, u.reason, 'pendente', 0, ?, ?, ?"
                + " FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[])"
                + " AS u(integration_id, call_id, webhook_id, reason)")) {
            ps.setObject(1, time(now));
            ps.setObject(2, time(now));
            ps.setObject(3, time(now));
            ps.setArray(
                    4,
                    c.createArrayOf(
                            "bigint",
                            deliveries.stream().map(Delivery::integrationId).toArray()));
            ps.setArray(
                    5,
                    c.createArrayOf(
                            "text", deliveries.stream().map(Delivery::callId).toArray()));
            ps.setArray(
                    6,
                    c.createArrayOf(
                            "text", deliveries.stream().map(d -> webhookId()).toArray()));
            ps.setArray(
                    7,
                    c.createArrayOf(
                            "text", deliveries.stream().map(Delivery::reason).toArray()));
            ps.executeUpdate();
        }
    }

    /** {@code msg_} and 128 random bits, base64url: one per delivery, kept across its retries. */
    private String webhookId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return "msg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Sets the 15 array parameters of {@link #UNNEST_CALLS} from {@code first}, the last one each call's new
     * feed position or null; the next free index.
     */
    private static int bindCalls(
            Connection c,
            PreparedStatement ps,
            int first,
            List<CallRecord> calls,
            java.util.function.Function<CallRecord, Instant> position)
            throws SQLException {
        int n = calls.size();
        Object[][] cols = new Object[15][n];
        for (int i = 0; i < n; i++) {
            CallRecord r = calls.get(i);
            cols[0][i] = r.integrationId();
            cols[1][i] = r.id();
            cols[2][i] = r.occurrenceId();
            cols[3][i] = r.agentId();
            cols[4][i] = r.agentLogin();
            cols[5][i] = r.agentName();
            cols[6][i] = r.queue();
            cols[7][i] = r.resultCode();
            cols[8][i] = r.resultDescription();
            cols[9][i] = bindTime(r.classifiedAt());
            cols[10][i] = bindTime(r.startedAt());
            cols[11][i] = r.durationSeconds();
            cols[12][i] = r.archivedAt() == null ? null : bindTime(r.archivedAt());
            cols[13][i] = r.recordingKey();
            Instant at = position.apply(r);
            cols[14][i] = at == null ? null : bindTime(at);
        }
        for (int col = 0; col < cols.length; col++) {
            String type = col == 0 ? "bigint" : col == 11 ? "integer" : "text";
            Array array = c.createArrayOf(type, cols[col]);
            ps.setArray(first + col, array);
        }
        return first + cols.length;
    }

    @Override
    public List<CallRecord> page(
            long integrationId, CallFilter filter, Optional<CallPosition> after, Instant windowStart, int limit) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(windowStart, "windowStart");
        if (limit < 1) {
            throw new IllegalArgumentException("limit " + limit + " must be at least 1");
        }
        return rows(
                "page calls of integration " + integrationId,
                pageQuery(integrationId, filter, after, windowStart, limit),
                limit,
                PgCallStore::record);
    }

    /** Runs {@code q} as one auto-committed statement (one snapshot) and reads its rows with {@code row}. */
    private <T> List<T> rows(String what, PageQuery q, int limit, Jdbc.Row<T> row) {
        return Jdbc.autoCommit(dataSource, what, c -> {
            try (PreparedStatement ps = c.prepareStatement(q.sql())) {
                Jdbc.set(ps, q.params().toArray());
                List<T> out = new ArrayList<>(Math.min(limit, 1024));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(row.read(rs));
                    }
                }
                return out;
            }
        });
    }

    /** The filters both listings apply as equalities: agent, queue, result. */
    private static void equalityFilters(CallFilter filter, StringBuilder sql, List<Object> params) {
        filter.agent().ifPresent(a -> {
            sql.append(" AND agent_login = ?");
            params.add(a);
        });
        filter.queue().ifPresent(q -> {
            sql.append(" AND queue = ?");
            params.add(q);
        });
        filter.result().ifPresent(r -> {
            sql.append(" AND result_description = ?");
            params.add(r);
        });
    }

    /** The statement of one page and its parameters (public for the store's plan test; the package is not exported). */
    public record PageQuery(String sql, List<Object> params) {}

    /** The statement {@link #page} runs. */
    public static PageQuery pageQuery(
            long integrationId, CallFilter filter, Optional<CallPosition> after, Instant windowStart, int limit) {
        // One lower bound, the later of the window's start and desde, so the index range starts there.
        Instant from = filter.since()
                .filter(s -> s.isAfter(windowStart))
                .orElse(windowStart)
                .truncatedTo(ChronoUnit.MICROS);
        StringBuilder sql = new StringBuilder(256)
                .append("SELECT ")
                .append(COLUMNS)
                .append(" FROM calls WHERE integration_id = ? AND archived_at IS NOT NULL AND classified_at >= ?");
        List<Object> params = new ArrayList<>(List.of(integrationId, time(from)));
        filter.until().ifPresent(u -> {
            sql.append(" AND classified_at <= ?");
            params.add(time(u));
        });
        equalityFilters(filter, sql, params);
        after.ifPresent(p -> {
            // A row comparison, which the btree takes as the start of its range scan.
            sql.append(" AND (classified_at, id) < (?, ?)");
            params.add(time(p.classifiedAt()));
            params.add(p.id());
        });
        sql.append(" ORDER BY classified_at DESC, id DESC LIMIT ?");
        params.add(limit);
        return new PageQuery(sql.toString(), params);
    }

    @Override
    public List<FeedEntry> feed(
            long integrationId,
            CallFilter filter,
            Optional<Instant> availableSince,
            Optional<FeedPosition> after,
            Instant windowStart,
            int limit) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(availableSince, "availableSince");
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(windowStart, "windowStart");
        if (limit < 1) {
            throw new IllegalArgumentException("limit " + limit + " must be at least 1");
        }
        // One statement, one snapshot: what it sees of the feed is a prefix of the feed's final order (see
        // feedPositions), so the page ends at a position nothing committed later can come before.
        return rows(
                "feed calls of integration " + integrationId,
                feedQuery(integrationId, filter, availableSince, after, windowStart, limit),
                limit,
                rs -> new FeedEntry(
                        record(rs),
                        rs.getObject("available_at", OffsetDateTime.class).toInstant()));
    }

    /** The statement {@link #feed} runs: one range scan of {@code calls_feed}. */
    public static PageQuery feedQuery(
            long integrationId,
            CallFilter filter,
            Optional<Instant> availableSince,
            Optional<FeedPosition> after,
            Instant windowStart,
            int limit) {
        if (filter.since().isPresent() || filter.until().isPresent()) {
            throw new IllegalArgumentException("the feed takes no datahistorico bounds");
        }
        StringBuilder sql = new StringBuilder(256)
                .append("SELECT ")
                .append(COLUMNS)
                .append(", available_at FROM calls WHERE integration_id = ? AND archived_at IS NOT NULL")
                .append(" AND classified_at >= ?");
        List<Object> params = new ArrayList<>(List.of(integrationId, time(windowStart)));
        availableSince.ifPresent(s -> {
            sql.append(" AND available_at >= ?");
            params.add(time(s));
        });
        equalityFilters(filter, sql, params);
        after.ifPresent(p -> {
            sql.append(" AND (available_at, id) > (?, ?)");
            params.add(time(p.availableAt()));
            params.add(p.id());
        });
        sql.append(" ORDER BY available_at, id LIMIT ?");
        params.add(limit);
        return new PageQuery(sql.toString(), params);
    }

    @Override
    public Optional<CallRecord> find(long integrationId, String id) {
        Objects.requireNonNull(id, "id");
        return Jdbc.first(
                dataSource,
                "find call",
                "SELECT " + COLUMNS + " FROM calls WHERE integration_id = ? AND id = ?",
                PgCallStore::record,
                integrationId,
                id);
    }

    private static String prefixed(String alias) {
        StringBuilder b = new StringBuilder();
        for (String col : COLUMNS.split(",\\s*")) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(alias).append('.').append(col);
        }
        return b.toString();
    }

    static CallRecord record(ResultSet rs) throws SQLException {
        return record(rs, "id");
    }

    /**
     * A call read from a row that has the {@code calls} columns under their own names, but for its id,
     * which is under {@code idColumn} (a join that also returns another table's id names it apart).
     */
    static CallRecord record(ResultSet rs, String idColumn) throws SQLException {
        OffsetDateTime archived = rs.getObject("archived_at", OffsetDateTime.class);
        return new CallRecord(
                rs.getLong("integration_id"),
                rs.getString(idColumn),
                rs.getString("occurrence_id"),
                rs.getString("agent_id"),
                rs.getString("agent_login"),
                rs.getString("agent_name"),
                rs.getString("queue"),
                rs.getString("result_code"),
                rs.getString("result_description"),
                rs.getObject("classified_at", OffsetDateTime.class).toInstant(),
                rs.getObject("started_at", OffsetDateTime.class).toInstant(),
                rs.getInt("duration_seconds"),
                archived == null ? null : archived.toInstant(),
                rs.getString("recording_key"));
    }

    /**
     * An instant as the driver binds it, cut to the microsecond. PostgreSQL keeps microseconds and the
     * driver rounds a finer instant to the nearest one, which may be later than the instant: a checkpoint
     * or a list's {@code ate} bound rounded up would take in a call that is after it.
     */
    static OffsetDateTime time(Instant instant) {
        return OffsetDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    /** An instant as an element of a {@code text[]} cast to {@code timestamptz[]}: see {@link #BIND_TIME}. */
    static String bindTime(Instant instant) {
        return BIND_TIME.format(time(instant));
    }
}
