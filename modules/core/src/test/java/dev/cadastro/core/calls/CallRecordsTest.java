package dev.cadastro.core.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.internal.ManualClock;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CallRecordsTest {
    private static final Instant NOW = Instant.parse("2026-03-10T15:00:00Z");
    private final ManualClock clock = new ManualClock(NOW);
    private final MemoryCallStore store = new MemoryCallStore();
    private final RecordingLinks links =
            new RecordingLinks(Keys.one(), "http://127.0.0.1:1", clock, new SecureRandom());
    private final CallRecords records = new CallRecords(store, new CallCursors(Keys.one()), links, clock);
    private final Integration mine = new Integration(1, "mine");
    private final Integration theirs = new Integration(2, "theirs");

    static CallRecord call(long integration, String id, Instant classifiedAt, Instant archivedAt) {
        return new CallRecord(
                integration,
                id,
                id,
                null,
                "ana",
                null,
                "vendas",
                null,
                "Venda",
                classifiedAt,
                classifiedAt.minusSeconds(120),
                60,
                archivedAt,
                "calls/" + integration + "/" + id + ".wav");
    }

    @Test
    void pagesEndWithoutACursorAndNeverRepeat() {
        List<CallRecord> all = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            all.add(call(1, "C" + i, NOW.minusSeconds(10), NOW));
        }
        store.ingest(all);
        List<String> seen = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            CallRecords.Page page = records.list(mine, CallFilter.NONE, 3, cursor);
            page.calls().forEach(c -> seen.add(c.id()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor.isPresent());
        assertEquals(3, pages);
        assertEquals(List.of("C6", "C5", "C4", "C3", "C2", "C1", "C0"), seen);
    }

    @Test
    void exactlyFullLastPageHasNoCursor() {
        store.ingest(List.of(call(1, "A", NOW, NOW), call(1, "B", NOW, NOW)));
        assertTrue(records.list(mine, CallFilter.NONE, 2, Optional.empty())
                .nextCursor()
                .isEmpty());
    }

    @Test
    void refusesALimitOutsideOneTo200NamingIt() {
        for (int bad : new int[] {0, -1, 201}) {
            CallParameterException e = assertThrows(
                    CallParameterException.class, () -> records.list(mine, CallFilter.NONE, bad, Optional.empty()));
            assertEquals("limite", e.parameter());
            assertTrue(e.getMessage().contains("limite " + bad), e.getMessage());
        }
        records.list(mine, CallFilter.NONE, 200, Optional.empty());
    }

    @Test
    void windowKeepsExactlySevenDays() {
        Instant edge = NOW.minus(Duration.ofDays(7));
        store.ingest(List.of(call(1, "EDGE", edge, NOW), call(1, "OLD", edge.minusNanos(1000), NOW)));
        List<CallRecord> listed =
                records.list(mine, CallFilter.NONE, 50, Optional.empty()).calls();
        assertEquals(List.of("EDGE"), listed.stream().map(CallRecord::id).toList());
        assertEquals("EDGE", records.find(mine, "EDGE").id());
        assertThrows(CallNotFoundException.class, () -> records.find(mine, "OLD"));
        // Audio outlives the window.
        assertTrue(records.audio(mine, "OLD").contains("/calls/1/OLD.wav?"));
        clock.advance(Duration.ofNanos(1000));
        assertThrows(CallNotFoundException.class, () -> records.find(mine, "EDGE"));
    }

    @Test
    void anotherIntegrationsCallIsUnknown() {
        store.ingest(List.of(call(2, "THEIRS", NOW, NOW)));
        assertThrows(CallNotFoundException.class, () -> records.find(mine, "THEIRS"));
        assertThrows(CallNotFoundException.class, () -> records.audio(mine, "THEIRS"));
        assertTrue(records.list(mine, CallFilter.NONE, 50, Optional.empty())
                .calls()
                .isEmpty());
        assertEquals("THEIRS", records.find(theirs, "THEIRS").id());
    }

    @Test
    void aCallBeingArchivedIsNotFoundButItsAudioIsUnavailable() {
        store.ingest(List.of(call(1, "PENDING", NOW, null)));
        assertThrows(CallNotFoundException.class, () -> records.find(mine, "PENDING"));
        assertThrows(RecordingUnavailableException.class, () -> records.audio(mine, "PENDING"));
        store.ingest(List.of(call(1, "PENDING", NOW, NOW)));
        assertTrue(records.audio(mine, "PENDING").contains("&e="));
    }

    @Test
    void aCursorOfOtherFiltersIsRefused() {
        store.ingest(List.of(call(1, "A", NOW, NOW), call(1, "B", NOW, NOW)));
        String cursor = records.list(mine, CallFilter.NONE, 1, Optional.empty())
                .nextCursor()
                .orElseThrow();
        CallFilter other = new CallFilter(
                Optional.empty(), Optional.empty(), Optional.of("ana"), Optional.empty(), Optional.empty());
        assertThrows(CallParameterException.class, () -> records.list(mine, other, 1, Optional.of(cursor)));
        assertThrows(CallParameterException.class, () -> records.list(theirs, CallFilter.NONE, 1, Optional.of(cursor)));
    }
}
