package dev.cadastro.providers.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.files.LocalFolderFileStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulatedExchangeTest {
    private static final Instant T0 = Instant.parse("2026-11-24T12:00:00Z");

    @TempDir
    Path folder;

    private SimulatedExchange exchange(long integration, SimulatedExchange.Options options) throws IOException {
        return new SimulatedExchange(integration, options, new LocalFolderFileStore(folder));
    }

    private List<CallRecord> day(SimulatedExchange e) {
        return e.calls(T0, T0.plus(Duration.ofDays(1)));
    }

    @Test
    void theSameSeedGivesTheSameCallsAndAnotherSeedOthers() throws Exception {
        var options = SimulatedExchange.Options.defaults().withSeed(99);
        List<CallRecord> a = exchange(1, options).calls(T0, T0.plusSeconds(3_600));
        List<CallRecord> b = exchange(1, options).calls(T0, T0.plusSeconds(3_600));
        assertFalse(a.isEmpty());
        assertEquals(a, b);
        assertNotEquals(a, exchange(1, options.withSeed(100)).calls(T0, T0.plusSeconds(3_600)));
        List<CallRecord> other = exchange(2, options).calls(T0, T0.plusSeconds(3_600));
        assertTrue(other.stream().allMatch(c -> c.integrationId() == 2));
        assertNotEquals(
                a.stream().map(CallRecord::classifiedAt).toList(),
                other.stream().map(CallRecord::classifiedAt).toList(),
                "another integration's exchange has other calls");
    }

    @Test
    void changesIsAPureFunctionOfItsInterval() throws Exception {
        SimulatedExchange e = exchange(1, SimulatedExchange.Options.demo());
        Instant to = T0.plusSeconds(900);
        List<CallRecord> first = e.changes(T0, to);
        assertEquals(first, e.changes(T0, to));
        assertEquals(first, e.calls(T0, to));
        assertEquals(List.of(), e.changes(to, to));
        assertEquals(List.of(), e.changes(to, T0));
    }

    @Test
    void reportsEachCallWhenClassifiedArchivedOrReclassifiedAndOnlyThen() throws Exception {
        SimulatedExchange e = exchange(1, SimulatedExchange.Options.defaults());
        Instant from = T0, to = T0.plusSeconds(1_800);
        for (CallRecord c : e.calls(from, to)) {
            boolean classified =
                    c.classifiedAt().isAfter(from) && !c.classifiedAt().isAfter(to);
            boolean archived = c.archivedAt() != null
                    && c.archivedAt().isAfter(from)
                    && !c.archivedAt().isAfter(to);
            assertTrue(classified || archived, c + " changed outside the interval");
            assertTrue(c.archivedAt() == null || !c.archivedAt().isAfter(to), "archived after the interval's end");
            assertFalse(c.classifiedAt().isAfter(to), "classified after the interval's end");
        }
    }

    @Test
    void aboutTwelveCallsAMinuteWithUniqueProtocolIds() throws Exception {
        List<CallRecord> calls = day(exchange(1, SimulatedExchange.Options.defaults()));
        Set<String> ids = new HashSet<>();
        for (CallRecord c : calls) {
            assertTrue(c.id().matches("\\d{8}-\\d{7}"), c.id());
            assertEquals(c.id(), c.occurrenceId());
            assertTrue(ids.add(c.id()), "repeated id " + c.id());
            assertEquals(WavRecording.key(1, c.id()), c.recordingKey());
        }
        // Calls classified in the day, plus those of the day before archived or reclassified in it.
        long classifiedInDay =
                calls.stream().filter(c -> c.classifiedAt().isAfter(T0)).count();
        assertTrue(classifiedInDay > 12 * 1440 * 0.9 && classifiedInDay < 12 * 1440 * 1.1, "" + classifiedInDay);
        assertTrue(
                calls.stream().anyMatch(c -> c.id().startsWith("20261124-0540")),
                "09:00 in UTC-3 is minute 540 of the 24th");
    }

    @Test
    void aboutSixPercentOfCallsComeFromReceptiveQueuesWithNullCode() throws Exception {
        List<CallRecord> calls = day(exchange(1, SimulatedExchange.Options.defaults()));
        long nullCode = calls.stream().filter(c -> c.resultCode() == null).count();
        double share = (double) nullCode / calls.size();
        assertTrue(share > 0.05 && share < 0.07, "null-code share " + share);
        Set<String> receptive = calls.stream()
                .filter(c -> c.resultCode() == null)
                .map(CallRecord::queue)
                .collect(Collectors.toSet());
        Set<String> active = calls.stream()
                .filter(c -> c.resultCode() != null)
                .map(CallRecord::queue)
                .collect(Collectors.toSet());
        assertEquals(Set.of("sac", "suporte"), receptive);
        assertTrue(active.size() >= 4 && java.util.Collections.disjoint(active, receptive));
    }

    @Test
    void theSameResultHasDifferentCodesInDifferentQueuesAndOneCodeWithinAQueue() throws Exception {
        List<CallRecord> calls = day(exchange(1, SimulatedExchange.Options.defaults()));
        Map<String, Set<String>> codesByQueueAndResult = new HashMap<>();
        Map<String, Set<String>> codesByResult = new HashMap<>();
        for (CallRecord c : calls) {
            if (c.resultCode() == null) {
                continue;
            }
            codesByQueueAndResult
                    .computeIfAbsent(c.queue() + "|" + c.resultDescription(), k -> new HashSet<>())
                    .add(c.resultCode());
            codesByResult
                    .computeIfAbsent(c.resultDescription(), k -> new HashSet<>())
                    .add(c.resultCode());
        }
        codesByQueueAndResult.forEach((k, codes) -> assertEquals(1, codes.size(), k + " has codes " + codes));
        assertEquals(4, codesByResult.get("Retornar ligação").size(), "" + codesByResult.get("Retornar ligação"));
        assertTrue(codesByResult.get("Venda realizada").size() >= 2);
    }

    @Test
    void agentsWhoLeftHaveNoIdAndNoNameButKeepTheirLogin() throws Exception {
        List<CallRecord> calls = day(exchange(1, SimulatedExchange.Options.defaults()));
        List<CallRecord> left = calls.stream().filter(c -> c.agentId() == null).toList();
        assertFalse(left.isEmpty());
        for (CallRecord c : left) {
            assertNull(c.agentName());
            assertFalse(c.agentLogin().isBlank());
        }
        Set<String> leftLogins = left.stream().map(CallRecord::agentLogin).collect(Collectors.toSet());
        for (CallRecord c : calls) {
            if (c.agentId() != null) {
                assertFalse(leftLogins.contains(c.agentLogin()), "an agent either left or did not");
                assertEquals(titleCase(c.agentLogin()), c.agentName());
            }
        }
        assertTrue(calls.stream()
                .anyMatch(c -> "maria.aparecida.souza".equals(c.agentLogin())
                        && "Maria Aparecida Souza".equals(c.agentName())));
        assertTrue(
                calls.stream()
                        .anyMatch(
                                c -> "jose.conceicao".equals(c.agentLogin()) && "Jose Conceicao".equals(c.agentName())),
                "accents are not recovered");
    }

    /** Reference formatting written independently: split on dots, capitalise each word. */
    private static String titleCase(String login) {
        StringBuilder b = new StringBuilder();
        for (String w : login.split("\\.")) {
            b.append(b.isEmpty() ? "" : " ")
                    .append(Character.toUpperCase(w.charAt(0)))
                    .append(w.substring(1).toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }

    /** Each call first classified in (start, end], as first reported by a walk every two minutes, as the ingest does. */
    private static Map<String, CallRecord> firstReports(SimulatedExchange e, Instant start, Instant end) {
        Set<String> before = ids(e.calls(start.minus(Duration.ofDays(3)), start));
        Map<String, CallRecord> first = new HashMap<>();
        for (Instant from = start; from.isBefore(end); from = from.plusSeconds(120)) {
            for (CallRecord c : e.calls(from, from.plusSeconds(120))) {
                if (!before.contains(c.id())) {
                    first.putIfAbsent(c.id(), c);
                }
            }
        }
        return first;
    }

    /** The same calls' states once every event happened. */
    private static Map<String, CallRecord> settled(SimulatedExchange e, Instant start, Set<String> ids) {
        return e.calls(start, start.plus(Duration.ofDays(5))).stream()
                .filter(c -> ids.contains(c.id()))
                .collect(Collectors.toMap(CallRecord::id, Function.identity()));
    }

    private static Set<String> ids(List<CallRecord> calls) {
        return calls.stream().map(CallRecord::id).collect(Collectors.toSet());
    }

    @Test
    void recordingsAreArchivedTwoToEightMinutesAfterTheClassification() throws Exception {
        SimulatedExchange e = exchange(1, SimulatedExchange.Options.defaults());
        Map<String, CallRecord> first = firstReports(e, T0, T0.plus(Duration.ofHours(2)));
        Map<String, CallRecord> settled = settled(e, T0, first.keySet());
        assertEquals(first.keySet(), settled.keySet());
        Set<Long> delays = new HashSet<>();
        for (CallRecord f : first.values()) {
            assertNull(f.archivedAt(), f.id() + " reported archived with its classification");
            CallRecord s = settled.get(f.id());
            assertNotNull(s.archivedAt(), "archived within days");
            Duration delay = Duration.between(f.classifiedAt(), s.archivedAt());
            assertTrue(
                    delay.compareTo(Duration.ofMinutes(2)) >= 0 && delay.compareTo(Duration.ofMinutes(8)) <= 0,
                    f.id() + " archived " + delay + " after its classification");
            delays.add(delay.toSeconds());
        }
        assertTrue(first.size() > 1_000, "checked " + first.size());
        assertTrue(delays.size() > 200, "the delay varies");
    }

    @Test
    void aFewPercentAreReclassifiedLaterWithAnotherResultOfTheSameQueue() throws Exception {
        SimulatedExchange e = exchange(1, SimulatedExchange.Options.defaults());
        Map<String, CallRecord> first = firstReports(e, T0, T0.plus(Duration.ofHours(3)));
        Map<String, CallRecord> last = settled(e, T0, first.keySet());
        int reclassified = 0, withinTheHour = 0;
        for (CallRecord f : first.values()) {
            CallRecord s = last.get(f.id());
            if (f.classifiedAt().equals(s.classifiedAt())) {
                assertEquals(f.resultDescription(), s.resultDescription());
                continue;
            }
            reclassified++;
            Duration delay = Duration.between(f.classifiedAt(), s.classifiedAt());
            assertTrue(delay.compareTo(Duration.ofMinutes(5)) >= 0, "reclassified " + delay + " later");
            assertTrue(delay.compareTo(SimulatedExchange.MAX_RECLASSIFICATION_DELAY) <= 0);
            if (delay.compareTo(Duration.ofHours(1)) <= 0) {
                withinTheHour++;
            }
            assertEquals(f.queue(), s.queue());
            assertNotEquals(f.resultDescription(), s.resultDescription());
            assertEquals(f.resultCode() == null, s.resultCode() == null);
            assertEquals(f.startedAt(), s.startedAt());
            assertEquals(f.agentLogin(), s.agentLogin());
        }
        double share = (double) reclassified / first.size();
        assertTrue(share > 0.015 && share < 0.05, "reclassified share " + share + " of " + first.size());
        assertTrue(withinTheHour * 2 > reclassified, "mostly within the hour");
    }

    @Test
    void manyCallsShareASecondAndSomeTheMicrosecond() throws Exception {
        List<CallRecord> calls =
                exchange(1, SimulatedExchange.Options.defaults()).calls(T0, T0.plusSeconds(3_600));
        Map<Instant, Long> bySecond = calls.stream()
                .collect(Collectors.groupingBy(
                        c -> c.classifiedAt().truncatedTo(ChronoUnit.SECONDS), Collectors.counting()));
        Map<Instant, Long> byMicro =
                calls.stream().collect(Collectors.groupingBy(CallRecord::classifiedAt, Collectors.counting()));
        long sharingASecond = calls.stream()
                .filter(c -> bySecond.get(c.classifiedAt().truncatedTo(ChronoUnit.SECONDS)) > 1)
                .count();
        long sharingAMicrosecond =
                calls.stream().filter(c -> byMicro.get(c.classifiedAt()) > 1).count();
        assertTrue(sharingASecond > calls.size() / 3, sharingASecond + " of " + calls.size());
        assertTrue(sharingAMicrosecond > calls.size() / 20, sharingAMicrosecond + " of " + calls.size());
    }

    @Test
    void anExchangeOpenedAtAMomentHasNoCallBeforeIt() throws Exception {
        Instant opened = T0.plusSeconds(90);
        SimulatedExchange e = exchange(1, SimulatedExchange.Options.defaults().withOpenedAt(opened));
        assertEquals(List.of(), e.calls(T0.minus(Duration.ofDays(7)), opened));
        List<CallRecord> after = e.calls(T0.minus(Duration.ofDays(7)), T0.plusSeconds(600));
        assertFalse(after.isEmpty());
        Instant firstMinute = T0.plusSeconds(120);
        for (CallRecord c : after) {
            assertFalse(c.classifiedAt().isBefore(firstMinute), c.id() + " classified before the exchange opened");
        }
        Set<CallRecord> always = new HashSet<>(exchange(1, SimulatedExchange.Options.defaults())
                .calls(T0.minus(Duration.ofDays(7)), T0.plusSeconds(600)));
        for (CallRecord c : after) {
            assertTrue(always.contains(c), c.id() + " differs from the same call of an exchange open forever");
        }
    }

    @Test
    void theRateIsConfigurable() throws Exception {
        int slow = exchange(1, SimulatedExchange.Options.defaults().withCallsPerMinute(2))
                .calls(T0, T0.plusSeconds(3_600))
                .size();
        int fast = exchange(1, SimulatedExchange.Options.defaults().withCallsPerMinute(120))
                .calls(T0, T0.plusSeconds(3_600))
                .size();
        assertTrue(slow > 90 && slow < 160, "" + slow);
        assertTrue(fast > 6_500 && fast < 8_000, "" + fast);
        assertThrows(
                IllegalArgumentException.class,
                () -> SimulatedExchange.Options.defaults().withCallsPerMinute(1_000));
        assertThrows(
                IllegalArgumentException.class,
                () -> SimulatedExchange.Options.defaults().withMaxRecordingSeconds(0));
    }

    @Test
    void writesEachArchivedCallsRecordingBeforeReportingItAndNoOther() throws Exception {
        LocalFolderFileStore store = new LocalFolderFileStore(folder.resolve("rec"));
        SimulatedExchange e =
                new SimulatedExchange(3, SimulatedExchange.Options.defaults().withMaxRecordingSeconds(4), store);
        List<CallRecord> calls = e.changes(T0, T0.plusSeconds(600));
        int archived = 0;
        for (CallRecord c : calls) {
            var file = store.open(c.recordingKey());
            if (!c.ready()) {
                assertTrue(file.isEmpty(), c.id() + " has a recording before it is archived");
                continue;
            }
            archived++;
            assertTrue(file.isPresent(), c.id() + " reported archived without its recording");
            int seconds = Math.min(c.durationSeconds(), 4);
            try (FileStore.Download d = file.get();
                    InputStream in = new java.io.BufferedInputStream(d.stream());
                    AudioInputStream audio = AudioSystem.getAudioInputStream(in)) {
                assertEquals(44 + 16_000L * seconds, d.size());
                assertEquals(8_000f, audio.getFormat().getSampleRate());
                assertEquals(8_000L * seconds, audio.getFrameLength());
            }
        }
        assertTrue(archived > 20, "" + archived);
        assertTrue(calls.stream().anyMatch(c -> c.ready() && c.durationSeconds() > 4), "metadata keeps the duration");
    }

    @Test
    void aFullLengthRecordingIsSixteenThousandBytesASecond() throws Exception {
        LocalFolderFileStore store = new LocalFolderFileStore(folder.resolve("full"));
        SimulatedExchange e = new SimulatedExchange(4, SimulatedExchange.Options.defaults(), store);
        CallRecord one = e.changes(T0, T0.plusSeconds(600)).stream()
                .filter(CallRecord::ready)
                .findFirst()
                .orElseThrow();
        try (FileStore.Download d = store.open(one.recordingKey()).orElseThrow()) {
            assertEquals(44 + 16_000L * one.durationSeconds(), d.size());
        }
    }
}
