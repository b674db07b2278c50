package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.calls.Integration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
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
import net.jqwik.api.constraints.Size;

/**
 * Walking the list page by page with the store's keyset gives exactly the list as it was when the walk
 * started, even on calls that share a second or a microsecond and while newer calls arrive at the top
 * between pages: nothing skipped, nothing repeated. The oracle sorts with plain comparisons of
 * (epoch microseconds, id bytes), not with {@link CallPosition}.
 */
class CallPagesProperties {
    private static final Instant BASE = Instant.parse("2026-11-20T15:00:00Z");
    private static final Instant WINDOW = BASE.minus(Duration.ofDays(7));

    /** One generated call: which of a few seconds, which of a few microseconds in it, and whether it is ready. */
    record Spec(String id, int second, int micro, boolean ready) {}

    @Provide
    Arbitrary<List<Spec>> calls() {
        Arbitrary<String> ids = Arbitraries.strings()
                .withChars("ABab019._-")
                .ofMinLength(1)
                .ofMaxLength(6)
                .filter(id -> !id.equals(".") && !id.contains(".."));
        Arbitrary<Spec> one = Combinators.combine(
                        ids,
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.of(0, 0, 0, 1, 999_999),
                        Arbitraries.integers().between(0, 9).map(n -> n > 0))
                .as(Spec::new);
        return one.list().ofMinSize(1).ofMaxSize(120).uniqueElements(Spec::id);
    }

    private static CallRecord record(Integration i, String id, Instant at, boolean ready) {
        return CallFixtures.call(i, id, at, ready ? at.plusSeconds(30) : null, "Venda realizada");
    }

    private static Instant at(Spec s) {
        return BASE.plusSeconds(s.second()).plusNanos(s.micro() * 1_000L);
    }

    /** The reference order: newest microsecond first, then the id's bytes descending. */
    private static final Comparator<CallRecord> ORACLE = Comparator.<CallRecord>comparingLong(
                    r -> r.classifiedAt().getEpochSecond() * 1_000_000L
                            + r.classifiedAt().getNano() / 1_000)
            .thenComparing((a, b) -> compareBytes(a.id(), b.id()))
            .reversed();

    private static int compareBytes(String a, String b) {
        byte[] x = a.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] y = b.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return java.util.Arrays.compareUnsigned(x, y);
    }

    @Property(tries = 40)
    void pagesConcatenateToTheWholeListWhileNewCallsArriveAtTheTop(
            @ForAll("calls") List<Spec> specs,
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 17) Integer> limits,
            @ForAll @IntRange(min = 0, max = 4) int arrivalsPerPage) {
        CallStore store = TestDatabase.store().calls();
        Integration i = CallFixtures.integration();
        List<CallRecord> records = new ArrayList<>();
        for (Spec s : specs) {
            records.add(record(i, s.id(), at(s), s.ready()));
        }
        store.ingest(records);
        List<CallRecord> expected =
                records.stream().filter(CallRecord::ready).sorted(ORACLE).toList();

        List<CallRecord> walked = new ArrayList<>();
        Optional<CallPosition> after = Optional.empty();
        Instant newest = BASE.plusSeconds(10);
        int page = 0;
        int arrived = 0;
        while (true) {
            int limit = limits.get(page % limits.size());
            List<CallRecord> got = store.page(i.id(), CallFilter.NONE, after, WINDOW, limit);
            walked.addAll(got);
            if (got.size() < limit) {
                break;
            }
            after = Optional.of(got.get(got.size() - 1).position());
            page++;
            // Newer calls than any seen, some in the same microsecond as each other.
            List<CallRecord> arrivals = new ArrayList<>();
            for (int k = 0; k < arrivalsPerPage; k++) {
                arrivals.add(record(i, "new" + arrived++, newest, true));
                if (k % 2 == 1) {
                    newest = newest.plusNanos(1_000);
                }
            }
            store.ingest(arrivals);
            newest = newest.plusSeconds(1);
        }
        assertEquals(ids(expected), ids(walked));
        Set<String> unique = new HashSet<>(ids(walked));
        assertEquals(walked.size(), unique.size(), "no call twice");
    }

    private static List<String> ids(List<CallRecord> r) {
        return r.stream().map(CallRecord::id).toList();
    }
}
