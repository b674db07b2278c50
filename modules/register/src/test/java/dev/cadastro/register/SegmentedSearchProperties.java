package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.RegisterQuery;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The loader's default generation, several segments as indexing left them: counts equal an independent
 * count, and pages are disjoint, complete and in (segment, uf, municipio, cnpj) order, that is at most
 * one ascending (uf, municipio, cnpj) run per segment.
 */
class SegmentedSearchProperties {
    private static RegisterFixture fixture;
    private static LuceneRegister register;
    private static RandomQueries queries;

    @BeforeContainer
    static void buildIndex() {
        fixture = RegisterFixture.buildSegmented(40_000, 11, 2);
        assertTrue(fixture.segments() >= 2, "the fixture must have several segments, has " + fixture.segments());
        register = LuceneRegister.open(
                fixture.root,
                // The engine across segments (RollupProperties covers the precomputed counts there).
                SearchOptions.builder()
                        .refreshInterval(Duration.ZERO)
                        .rollupCounts(false)
                        .build());
        queries = new RandomQueries(fixture.generator);
    }

    @AfterContainer
    static void closeIndex() {
        register.close();
        fixture.close();
    }

    @Property(tries = 200)
    void countsEqualAnIndependentCountOverTheRows(@ForAll long seed) {
        RegisterQuery q = queries.next(new SplittableRandom(seed));
        long expected = new ReferenceFilter(q, SyntheticRegister.lookups()).count(fixture.rows);
        assertEquals(expected, register.count(q).total(), q::toString);
    }

    @Property(tries = 80)
    void pagesAreDisjointCompleteAndOneSortedRunPerSegment(@ForAll long seed) {
        RegisterQuery base = queries.next(new SplittableRandom(seed));
        long total = register.count(base).total();
        Assume.that(total <= 3_000);
        int limite = 1 + new SplittableRandom(seed).nextInt(200);
        List<String> seen = RegisterFixture.allPages(register, base, limite, total);
        assertEquals(seen.size(), new HashSet<>(seen).size(), "no record on two pages");
        assertEquals(fixture.matching(base), new HashSet<>(seen), "pages together hold every match");
        Comparator<String> order = fixture.indexOrder();
        int runs = seen.isEmpty() ? 0 : 1;
        for (int i = 1; i < seen.size(); i++) {
            if (order.compare(seen.get(i - 1), seen.get(i)) > 0) {
                runs++;
            }
        }
        assertTrue(
                runs <= fixture.segments(),
                runs + " sorted runs for " + fixture.segments() + " segments: the order is not per segment");
    }
}
