package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Walking every page through a real socket against the embedded PostgreSQL returns exactly the full
 * ordered result, with no call twice, on data with heavy ties on the second and on the microsecond
 * (the store's precision; {@code CallRecord} cuts finer fractions before anything reaches the store,
 * so none are generated here), while new calls are ingested at the top between pages. The
 * oracle orders by {@link CallPosition#LIST_ORDER}'s rule written out here again: newest first, then id
 * descending in byte order.
 */
class CallRecordsPagingProperties {
    private static final Instant NOW = Instant.parse("2026-11-20T15:00:00Z");
    private static final CallsStack stack = new CallsStack(NOW);
    private static final String IDS = "aAbBzZ09-_.";

    @AfterContainer
    static void close() {
        stack.close();
    }

    /** A call's place: a second among four, a microsecond among three. */
    record Seed(String id, int second, int micro, boolean queueA, boolean archived) {}

    @Provide
    Arbitrary<List<Seed>> seeds() {
        Arbitrary<String> id = Arbitraries.strings()
                .withChars(IDS)
                .ofMinLength(1)
                .ofMaxLength(4)
                .filter(CallRecord::validId)
                // ".a" or "a." would make the recording key calls/N/.a.wav or calls/N/a..wav, which the
                // file store refuses.
                .filter(i -> !i.startsWith(".") && !i.endsWith(".") && !i.contains(".."));
        Arbitrary<Integer> second = Arbitraries.integers().between(0, 3);
        Arbitrary<Integer> micro = Arbitraries.of(0, 1, 999_999);
        Arbitrary<Boolean> flag = Arbitraries.of(true, false);
        Arbitrary<Boolean> archived = Arbitraries.of(true, true, true, true, false);
        return Combinators.combine(id, second, micro, flag, archived)
                .as(Seed::new)
                .list()
                .ofMinSize(0)
                .ofMaxSize(60)
                .uniqueElements(Seed::id);
    }

    @Property(tries = 60)
    void concatenatedPagesAreTheOrderedResultWhileNewCallsArrive(
            @ForAll("seeds") List<Seed> seeds,
            @ForAll @IntRange(min = 1, max = 7) int limit,
            @ForAll boolean filterQueue,
            @ForAll @IntRange(min = 0, max = 3) int arrivingPerPage) {
        CallTokens.Issued issued = stack.integration();
        long integration = issued.integration().id();
        Instant base = stack.clock.instant().minus(Duration.ofHours(1));
        List<CallRecord> calls = new ArrayList<>();
        for (Seed s : seeds) {
            Instant at = base.plusSeconds(s.second()).plusNanos(s.micro() * 1_000L);
            calls.add(CallsStack.call(
                    integration, s.id(), at, s.archived() ? at.plusSeconds(30) : null, s.queueA() ? "a" : "b"));
        }
        stack.ingest(calls);
        List<String> expected = calls.stream()
                .filter(CallRecord::ready)
                .filter(c -> !filterQueue || c.queue().equals("a"))
                .sorted((x, y) -> {
                    int byTime = y.classifiedAt().compareTo(x.classifiedAt());
                    return byTime != 0 ? byTime : y.id().compareTo(x.id());
                })
                .map(CallRecord::id)
                .toList();

        List<String> walked = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            String q = "/v1/ligacoes?limite=" + limit + (filterQueue ? "&fila=a" : "")
                    + cursor.map(c -> "&cursor=" + c).orElse("");
            HttpResponse<String> r = stack.get(q, issued.token());
            assertEquals(200, r.statusCode(), r.body());
            JsonNode body = ServerFixture.json(r);
            body.path("ligacoes")
                    .forEach(item -> walked.add(item.at("/metadata/id").asText()));
            assertEquals(
                    body.path("ligacoes").size(),
                    body.at("/paginacao/retornados").asInt());
            assertTrue(body.at("/paginacao/retornados").asInt() <= limit);
            JsonNode next = body.at("/paginacao/proximo_cursor");
            cursor = next.isNull() ? Optional.empty() : Optional.of(next.asText());
            // New calls arrive at the top (newer than anything listed), some sharing one microsecond.
            List<CallRecord> arriving = new ArrayList<>();
            Instant top = stack.clock.instant().minusSeconds(1).plusNanos(pages * 1_000L);
            for (int i = 0; i < arrivingPerPage; i++) {
                arriving.add(CallsStack.call(integration, "new-" + pages + "-" + i, top, top, i % 2 == 0 ? "a" : "b"));
            }
            stack.ingest(arriving);
            pages++;
            assertTrue(pages <= expected.size() + 2, "the walk does not end");
        } while (cursor.isPresent());

        Set<String> unique = new LinkedHashSet<>(walked);
        assertEquals(walked.size(), unique.size(), "a call came twice: " + walked);
        assertEquals(expected, walked);
        // The walk ends with an empty page only when the result is empty.
        assertEquals(Math.max(1, (expected.size() + limit - 1) / limit), pages, "pages of " + expected.size());
    }
}
