package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sampled estimates on an index large enough to sample (thresholds lowered so that ~200k documents
 * trigger estimation): over many random filter combinations, the stated 95% interval holds the exact
 * count at least 95% of the time.
 */
class EstimateCoverageTest {
    private static RegisterFixture fixture;
    private static RandomQueries queries;

    @BeforeAll
    static void buildIndex() {
        fixture = RegisterFixture.build(200_000, 11);
        queries = new RandomQueries(fixture.generator);
    }

    @AfterAll
    static void deleteIndex() {
        fixture.close();
    }

    private static SearchOptions sampling(double halfWidth) {
        return SearchOptions.builder()
                .exactCostThreshold(0)
                .estimateMinimum(1_000)
                .maxRelativeHalfWidth(halfWidth)
                .windowDocs(256)
                .sampleEvery(8)
                .refreshInterval(Duration.ZERO)
                // The estimator is under test: no count from the precomputed ones.
                .rollupCounts(false)
                .build();
    }

    @Test
    void statedIntervalsHoldTheExactCountAtLeast95PercentOfTheTime() {
        int estimated = 0;
        int covered = 0;
        try (LuceneRegister register = LuceneRegister.open(fixture.root, sampling(0.25))) {
            SplittableRandom r = new SplittableRandom(2026);
            for (int i = 0; i < 700; i++) {
                RegisterQuery q = queries.next(r);
                CountResult c = register.count(q);
                long exact = new ReferenceFilter(q, SyntheticRegister.lookups()).count(fixture.rows);
                if (!c.aproximado()) {
                    assertEquals(exact, c.total(), q::toString);
                    continue;
                }
                estimated++;
                assertTrue(c.total() >= 1_000, "small counts are exact");
                assertTrue(c.low() <= c.total() && c.total() <= c.high());
                if (c.low() <= exact && exact <= c.high()) {
                    covered++;
                }
            }
        }
        assertTrue(estimated >= 150, "only " + estimated + " of 700 counts were estimated");
        double coverage = (double) covered / estimated;
        System.out.printf("estimate coverage %.4f over %d estimates%n", coverage, estimated);
        assertTrue(coverage >= 0.95, "coverage " + coverage + " over " + estimated + " estimates");
    }

    @Test
    void estimatesAreReturnedOnlyWithinTheRequestedHalfWidth() {
        int estimated = 0;
        try (LuceneRegister register = LuceneRegister.open(fixture.root, sampling(0.02))) {
            SplittableRandom r = new SplittableRandom(7);
            for (int i = 0; i < 300; i++) {
                RegisterQuery q = queries.next(r);
                CountResult c = register.count(q);
                if (c.aproximado()) {
                    estimated++;
                    assertTrue((c.high() - c.low()) / 2.0 <= 0.02 * c.total() + 1, c + " for " + q);
                }
            }
            RegisterQuery broad = RegisterQuery.builder()
                    .comEmail(false)
                    .situacaoCadastral("02", "08")
                    .build();
            CountResult c = register.count(broad);
            assertTrue(c.aproximado(), "a broad count is estimated: " + c);
        }
        assertTrue(estimated > 0);
    }

    @Test
    void aPageOfAnEstimatedQueryIsStillExactAndFlagsItsTotal() {
        try (LuceneRegister register = LuceneRegister.open(fixture.root, sampling(0.25))) {
            RegisterQuery q = RegisterQuery.builder()
                    .situacaoCadastral("02", "08")
                    .comTelefone(true)
                    .limite(20)
                    .pagina(3)
                    .build();
            SearchResult page = register.search(q);
            assertTrue(page.aproximado());
            assertEquals(20, page.retornados());
            try (LuceneRegister exact = LuceneRegister.open(
                    fixture.root,
                    SearchOptions.builder()
                            .exactCostThreshold(Long.MAX_VALUE)
                            .refreshInterval(Duration.ZERO)
                            .build())) {
                SearchResult reference = exact.search(q);
                assertFalse(reference.aproximado());
                assertEquals(reference.dados(), page.dados());
            }
            SearchResult other = register.search(RegisterQuery.builder()
                    .situacaoCadastral("02", "08")
                    .comTelefone(true)
                    .limite(7)
                    .pagina(40)
                    .build());
            CountResult count = register.count(RegisterQuery.builder()
                    .situacaoCadastral("02", "08")
                    .comTelefone(true)
                    .countOnly(true)
                    .build());
            assertEquals(page.total(), other.total(), "every page states the same total");
            assertEquals(page.total(), count.total(), "count-only states the same total");
        }
    }
}
