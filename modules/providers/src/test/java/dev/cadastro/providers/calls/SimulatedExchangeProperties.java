package dev.cadastro.providers.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.files.LocalFolderFileStore;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class SimulatedExchangeProperties {
    private static final Instant T0 = Instant.parse("2026-11-24T12:00:00Z");
    /** Nothing is written there: the property reads {@code calls}, which writes no recording. */
    private static final java.nio.file.Path FOLDER;

    static {
        try {
            FOLDER = Files.createTempDirectory("exchange-properties");
            FOLDER.toFile().deleteOnExit();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Asked over consecutive intervals, the exchange reports every call of their union, in the union's
     * final state (the later interval's state of a call replaces the earlier one's), and nothing else:
     * an ingest that runs every two minutes, or after a pause, or twice, ends in the same place.
     */
    @Property(tries = 25)
    void changesOverConsecutiveIntervalsAddUpToChangesOverTheirUnion(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 40) int rate,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 7_200) Integer> cuts)
            throws Exception {
        SimulatedExchange e = new SimulatedExchange(
                5,
                SimulatedExchange.Options.defaults().withSeed(seed).withCallsPerMinute(rate),
                new LocalFolderFileStore(FOLDER));
        List<Integer> points = new ArrayList<>(new java.util.TreeSet<>(cuts));
        Instant end = T0.plusSeconds(7_201);
        Map<String, CallRecord> merged = new TreeMap<>();
        Instant from = T0;
        List<Instant> bounds = new ArrayList<>();
        points.forEach(p -> bounds.add(T0.plusSeconds(p)));
        bounds.add(end);
        for (Instant to : bounds) {
            for (CallRecord c : e.calls(from, to)) {
                merged.put(c.id(), c);
            }
            from = to;
        }
        Map<String, CallRecord> whole = new LinkedHashMap<>();
        for (CallRecord c : e.calls(T0, end)) {
            whole.put(c.id(), c);
        }
        assertEquals(new TreeMap<>(whole), merged);
    }
}
