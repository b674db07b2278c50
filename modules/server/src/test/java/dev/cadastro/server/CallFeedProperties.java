package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.http.callrecords.CallJson;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The call feed ({@code GET /v1/ligacoes?ordem=disponibilidade}, ADR 0048) against the embedded
 * PostgreSQL through a real socket: calls classified, archived 2 to 8 minutes later (so out of their
 * {@code datahistorico} order) and some reclassified, ingested by an exchange tick every 2 minutes, each
 * tick one transaction. Some ticks are held open mid-transaction (their new calls written with their feed
 * position, not committed) while the next tick runs concurrently and the clients poll. A client polling at
 * random ticks with the feed's cursor receives every change (a call becoming listable, a reclassification)
 * exactly once, at the first poll after it committed; the contract's recommended sync ({@code desde} = the
 * last {@code datahistorico} processed) polling at the same moments receives exactly what a model of the
 * committed calls predicts, which misses the calls archived after a later call was seen, and the test
 * checks that it does miss them in the histories where the model says it must.
 */
class CallFeedProperties {
    private static final Instant NOW = Instant.parse("2026-11-20T15:00:00Z");
    private static final Duration TICK = Duration.ofMinutes(2);
    private static final CallsStack stack = new CallsStack(NOW);
    private static final ExecutorService ingests = Executors.newFixedThreadPool(2);

    @AfterContainer
    static void close() {
        ingests.shutdownNow();
        stack.close();
    }

    /**
     * One call: classified {@code classifiedAfter} seconds into the history, archived {@code archiveDelay}
     * seconds later (2 to 8 minutes), reclassified {@code reclassifyDelay} seconds after the archive when
     * that is positive.
     */
    record Seed(int classifiedAfter, int archiveDelay, int reclassifyDelay) {}

    @Provide
    Arbitrary<List<Seed>> seeds() {
        Arbitrary<Integer> reclassify = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(30, 600)));
        return Combinators.combine(
                        Arbitraries.integers().between(0, 420),
                        Arbitraries.integers().between(120, 480),
                        reclassify)
                .as(Seed::new)
                .list()
                .ofMinSize(3)
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Boolean>> polls() {
        return Arbitraries.frequency(net.jqwik.api.Tuple.of(2, true), net.jqwik.api.Tuple.of(1, false))
                .list()
                .ofSize(16);
    }

    @Provide
    Arbitrary<List<Boolean>> holds() {
        return Arbitraries.frequency(net.jqwik.api.Tuple.of(1, true), net.jqwik.api.Tuple.of(3, false))
                .list()
                .ofSize(16);
    }

    /** A state of a call the exchange reports: its classification and whether its recording is archived. */
    private record Event(Instant at, CallRecord state) {}

    /** What a client receives of a call: one change of it. */
    private record Change(String id, String datahistorico, String result) {}

    @Property(tries = 30)
    void theFeedGivesEveryChangeOnceWhereTheRecommendedSyncMissesSome(
            @ForAll("seeds") List<Seed> seeds,
            @ForAll("polls") List<Boolean> polls,
            @ForAll("holds") List<Boolean> holds,
            @ForAll @IntRange(min = 1, max = 4) int limit)
            throws Exception {
        CallTokens.Issued issued = stack.integration();
        long integration = issued.integration().id();
        String token = issued.token();
        Instant start = NOW.minus(Duration.ofHours(2));

        // The sentinel: a ready call whose row a test transaction locks to hold a tick open mid-way.
        CallRecord sentinel = state(integration, "S", start.minusSeconds(600), start.minusSeconds(300), "Venda");
        stack.store.calls().ingest(List.of(sentinel));

        List<Event> events = new ArrayList<>();
        for (int i = 0; i < seeds.size(); i++) {
            Seed s = seeds.get(i);
            String id = "C" + i;
            Instant classified = start.plusSeconds(s.classifiedAfter());
            Instant archived = classified.plusSeconds(s.archiveDelay());
            events.add(new Event(classified, state(integration, id, classified, null, "Venda")));
            events.add(new Event(archived, state(integration, id, classified, archived, "Venda")));
            if (s.reclassifyDelay() > 0) {
                Instant again = archived.plusSeconds(s.reclassifyDelay());
                events.add(new Event(again, state(integration, id, again, archived, "Reclassificada")));
            }
        }
        events.sort(Comparator.comparing(Event::at));
        // The exchange's ticks: every change in (tick start, tick end] in one transaction.
        TreeMap<Long, List<CallRecord>> ticks = new TreeMap<>();
        for (Event e : events) {
            long tick = Duration.between(start, e.at()).dividedBy(TICK);
            ticks.computeIfAbsent(tick, k -> new ArrayList<>()).add(e.state());
        }
        List<List<CallRecord>> batches = new ArrayList<>(ticks.values());

        // The committed state the clients may see: the current state of each call.
        Map<String, CallRecord> committed = new LinkedHashMap<>();
        committed.put(sentinel.id(), sentinel);
        FeedClient feed = new FeedClient(token, limit);
        DesdeClient desde = new DesdeClient(token);
        DesdeModel model = new DesdeModel();
        Map<Change, Integer> feedReceived = new HashMap<>();

        int heldTicks = 0;
        int b = 0;
        while (b < batches.size()) {
            boolean hold = holds.get(b % holds.size()) && b + 1 < batches.size();
            if (hold) {
                // Tick b is held open after writing its new calls with their feed position; tick b+1 runs
                // concurrently and waits for it; both clients poll meanwhile and must see neither.
                List<CallRecord> held = new ArrayList<>(batches.get(b));
                held.add(sentinel); // unchanged: only makes the ingest lock the sentinel's row
                try (Connection lock = stack.store.dataSource().getConnection()) {
                    lock.setAutoCommit(false);
                    lockRow(lock, integration, sentinel.id());
                    Future<?> first = ingests.submit(() -> stack.store.calls().ingest(held));
                    awaitWaiting(1, first);
                    List<CallRecord> next = batches.get(b + 1);
                    Future<?> second = ingests.submit(() -> stack.store.calls().ingest(next));
                    awaitWaiting(2, second);
                    // The next tick waits for the held one, unless a store lets it through: then it has
                    // committed and the clients may see it (the model follows whichever happened).
                    boolean overtook = second.isDone();
                    if (overtook) {
                        second.get();
                        apply(committed, batches.get(b + 1));
                    }
                    poll(feed, desde, model, committed, feedReceived);
                    lock.commit();
                    first.get(30, TimeUnit.SECONDS);
                    second.get(30, TimeUnit.SECONDS);
                    apply(committed, batches.get(b));
                    if (!overtook) {
                        apply(committed, batches.get(b + 1));
                    }
                }
                heldTicks++;
                b += 2;
            } else {
                stack.store.calls().ingest(batches.get(b));
                apply(committed, batches.get(b));
                b++;
            }
            if (polls.get(b % polls.size())) {
                poll(feed, desde, model, committed, feedReceived);
            }
        }
        poll(feed, desde, model, committed, feedReceived);

        // Exactly once: no change twice.
        feedReceived.forEach((change, times) -> assertEquals(1, times, "received twice: " + change));
        // Every final state reached the feed's client.
        for (CallRecord c : committed.values()) {
            if (c.ready()) {
                assertTrue(feedReceived.containsKey(change(c)), "the feed never gave " + change(c));
            }
        }
        // Every reclassification of a call already seen by the feed's client reached it as a change of its own.
        long reclassifications = feedReceived.keySet().stream()
                .filter(c -> c.result().equals("Reclassificada"))
                .count();
        assertEquals(
                committed.values().stream()
                        .filter(c -> c.ready() && c.resultDescription().equals("Reclassificada"))
                        .count(),
                reclassifications);

        // The recommended sync received what the model predicts...
        assertEquals(model.received, desde.received, "the desde client against its model");
        // ...which misses the changes that became listable under a datahistorico it had already passed.
        Set<Change> missed = new HashSet<>(feedReceived.keySet());
        missed.removeAll(desde.received);
        assertEquals(model.mustMiss, missed, "what the recommended sync missed");
        Statistics.label("desde misses").collect(!missed.isEmpty());
        Statistics.label("desde misses").coverage(c -> c.check(true).percentage(p -> p >= 8));
        Statistics.label("ticks held open").collect(heldTicks);
    }

    private static CallRecord state(long integration, String id, Instant classified, Instant archived, String result) {
        return new CallRecord(
                integration,
                id,
                id,
                "F1",
                "agente.a",
                "Agente A",
                "vendas",
                "R1",
                result,
                classified,
                classified.minusSeconds(90),
                60,
                archived,
                "calls/" + integration + "/" + id + ".wav");
    }

    /** A batch as the store's contract merges it: the later classification wins, the archive stays. */
    private static void apply(Map<String, CallRecord> committed, List<CallRecord> batch) {
        for (CallRecord r : batch) {
            CallRecord before = committed.get(r.id());
            if (before == null) {
                committed.put(r.id(), r);
                continue;
            }
            CallRecord classification = r.classifiedAt().isAfter(before.classifiedAt()) ? r : before;
            Instant archived = before.ready() ? before.archivedAt() : r.archivedAt();
            committed.put(
                    r.id(),
                    state(
                            r.integrationId(),
                            r.id(),
                            classification.classifiedAt(),
                            archived,
                            classification.resultDescription()));
        }
    }

    private static Change change(CallRecord c) {
        return new Change(c.id(), CallJson.wireTime(c.classifiedAt()), c.resultDescription());
    }

    private static Change change(JsonNode metadata) {
        return new Change(
                metadata.path("id").asText(),
                metadata.path("datahistorico").asText(),
                metadata.path("ocorrencia_descricao").asText());
    }

    /**
     * Both clients poll at the same moment, when nothing commits. The feed's client must receive exactly
     * the changes committed since its last poll: every ready call whose current state it has not received.
     */
    private static void poll(
            FeedClient feed,
            DesdeClient desde,
            DesdeModel model,
            Map<String, CallRecord> committed,
            Map<Change, Integer> feedReceived) {
        Set<Change> expected = new HashSet<>();
        for (CallRecord c : committed.values()) {
            if (c.ready() && !feedReceived.containsKey(change(c))) {
                expected.add(change(c));
            }
        }
        List<Change> got = feed.poll();
        got.forEach(c -> feedReceived.merge(c, 1, Integer::sum));
        assertEquals(expected, new HashSet<>(got), "this poll of the feed");
        desde.poll();
        model.poll(committed);
    }

    /** The feed's client: keeps the last cursor, reads pages until one is short. */
    private static final class FeedClient {
        final String token;
        final int limit;
        Optional<String> cursor = Optional.empty();
        String last = "";

        FeedClient(String token, int limit) {
            this.token = token;
            this.limit = limit;
        }

        List<Change> poll() {
            List<Change> out = new ArrayList<>();
            for (int pages = 0; ; pages++) {
                assertTrue(pages < 100, "the feed does not end");
                HttpResponse<String> r = stack.get(
                        "/v1/ligacoes?ordem=disponibilidade&limite=" + limit
                                + cursor.map(c -> "&cursor=" + c).orElse(""),
                        token);
                assertEquals(200, r.statusCode(), r.body());
                JsonNode body = ServerFixture.json(r);
                for (JsonNode item : body.path("ligacoes")) {
                    JsonNode m = item.path("metadata");
                    String position = m.path("atualizado_em").asText() + " "
                            + m.path("id").asText();
                    assertTrue(position.compareTo(last) > 0, "out of order: " + position + " after " + last);
                    last = position;
                    out.add(change(m));
                }
                JsonNode next = body.at("/paginacao/proximo_cursor");
                if (!next.isNull()) {
                    cursor = Optional.of(next.asText());
                } else {
                    assertFalse(cursor.isPresent(), "a feed cursor, once given, is never taken back");
                }
                if (body.at("/paginacao/retornados").asInt() < limit) {
                    return out;
                }
            }
        }
    }

    /** The contract's recommended sync: desde = the latest datahistorico processed, cursors to the end. */
    private static final class DesdeClient {
        final String token;
        Optional<String> mark = Optional.empty();
        final Set<Change> received = new HashSet<>();

        DesdeClient(String token) {
            this.token = token;
        }

        void poll() {
            Optional<String> cursor = Optional.empty();
            String since = mark.map(m -> "&desde=" + URLEncoder.encode(m, StandardCharsets.UTF_8))
                    .orElse("");
            Optional<String> latest = mark;
            do {
                HttpResponse<String> r = stack.get(
                        "/v1/ligacoes?limite=200" + since
                                + cursor.map(c -> "&cursor=" + c).orElse(""),
                        token);
                assertEquals(200, r.statusCode(), r.body());
                JsonNode body = ServerFixture.json(r);
                for (JsonNode item : body.path("ligacoes")) {
                    Change c = change(item.path("metadata"));
                    received.add(c);
                    if (latest.isEmpty() || c.datahistorico().compareTo(latest.get()) > 0) {
                        latest = Optional.of(c.datahistorico());
                    }
                }
                JsonNode next = body.at("/paginacao/proximo_cursor");
                cursor = next.isNull() ? Optional.empty() : Optional.of(next.asText());
            } while (cursor.isPresent());
            mark = latest;
        }
    }

    /** The recommended sync run on the committed calls, not on the service. */
    private static final class DesdeModel {
        Optional<Instant> mark = Optional.empty();
        final Set<Change> received = new HashSet<>();
        /** Changes that became listable under a datahistorico the sync had already passed: never listed to it. */
        final Set<Change> mustMiss = new HashSet<>();

        void poll(Map<String, CallRecord> committed) {
            Optional<Instant> latest = mark;
            for (CallRecord c : committed.values()) {
                if (c.ready() && mark.isPresent() && c.classifiedAt().isBefore(mark.get())) {
                    if (!received.contains(change(c))) {
                        mustMiss.add(change(c));
                    }
                } else if (c.ready()) {
                    received.add(change(c));
                    if (latest.isEmpty() || c.classifiedAt().isAfter(latest.get())) {
                        latest = Optional.of(c.classifiedAt());
                    }
                }
            }
            mark = latest;
        }
    }

    private static void lockRow(Connection c, long integration, String id) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT 1 FROM calls WHERE integration_id = ? AND id = ? FOR UPDATE")) {
            ps.setLong(1, integration);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
            }
        }
    }

    /**
     * Waits until {@code waiting} sessions wait on a lock, or {@code ingest} ended (it did not have to
     * wait: a failure, which its future reports).
     */
    private static void awaitWaiting(int waiting, Future<?> ingest) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            if (ingest.isDone()) {
                ingest.get();
                return;
            }
            try (Connection c = stack.store.dataSource().getConnection();
                    PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                            + " WHERE datname = current_database() AND wait_event_type = 'Lock'");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) >= waiting) {
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, "the ingest never waited for the held lock");
            Thread.onSpinWait();
        }
    }
}
