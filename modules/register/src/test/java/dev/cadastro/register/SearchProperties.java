package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** Counts and pages of the Lucene register against an independent evaluation over the generated rows. */
class SearchProperties {
    private static RegisterFixture fixture;
    private static LuceneRegister exact;
    private static LuceneRegister standard;
    private static RandomQueries queries;
    private static Map<String, Establishment> byCnpj;

    @BeforeContainer
    static void buildIndex() {
        fixture = RegisterFixture.build(40_000, 7);
        exact = LuceneRegister.open(
                fixture.root,
                SearchOptions.builder()
                        .exactCostThreshold(Long.MAX_VALUE)
                        .refreshInterval(Duration.ZERO)
                        .rollupCounts(false)
                        .build());
        standard = LuceneRegister.open(
                fixture.root,
                SearchOptions.builder().refreshInterval(Duration.ZERO).build());
        queries = new RandomQueries(fixture.generator);
        byCnpj = fixture.byCnpj;
    }

    @AfterContainer
    static void closeIndex() {
        exact.close();
        standard.close();
        fixture.close();
    }

    @Property(tries = 400)
    void exactCountsEqualAnIndependentCountOverTheRows(@ForAll long seed) {
        RegisterQuery q = queries.next(new SplittableRandom(seed));
        long expected = new ReferenceFilter(q, SyntheticRegister.lookups()).count(fixture.rows);
        CountResult c = exact.count(q);
        assertFalse(c.aproximado(), q::toString);
        assertEquals(expected, c.total(), q::toString);
        CountResult d = standard.count(q);
        assertEquals(expected, d.total(), q::toString);
        SearchResult s = standard.search(q);
        if (!s.aproximado()) {
            assertEquals(expected, s.total(), () -> "total of the first page of " + q);
        }
    }

    @Property(tries = 120)
    void pagesAreDisjointCompleteAndInIndexOrder(@ForAll long seed) {
        RegisterQuery base = queries.next(new SplittableRandom(seed));
        long total = exact.count(base).total();
        Assume.that(total <= 3_000);
        int limite = 1 + new SplittableRandom(seed).nextInt(200);
        List<String> seen = RegisterFixture.allPages(exact, base, limite, total);
        assertEquals(total, seen.size(), "pages together hold every match once");
        assertEquals(seen.size(), new HashSet<>(seen).size(), "no record on two pages");
        assertEquals(fixture.matching(base), new HashSet<>(seen));
        List<String> sorted = new ArrayList<>(seen);
        sorted.sort(fixture.indexOrder());
        assertEquals(sorted, seen, "order is (uf, municipio, cnpj)");
    }

    @Property(tries = 150)
    void pagesOfOpeningDateRangesHoldTheEngineRecordsAndTheExactTotal(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        RegisterQuery base = queries.nextWithOpeningDates(r);
        long expected = new ReferenceFilter(base, SyntheticRegister.lookups()).count(fixture.rows);
        int limite = 1 + r.nextInt(60);
        // Pages inside the matches and one past the last (its total alone comes from the rollup).
        long pages = expected / limite + 1;
        int pagina = 1 + (int) Math.min(r.nextLong(pages + 1), 1_000);
        RegisterQuery q = base.toBuilder().limite(limite).pagina(pagina).build();
        SearchResult engine = exact.search(q);
        SearchResult rolled = standard.search(q);
        assertEquals(expected, engine.total(), q::toString);
        assertEquals(cnpjs(engine), cnpjs(rolled), q::toString);
        if (!rolled.aproximado()) {
            assertEquals(expected, rolled.total(), q::toString);
        }
    }

    private static List<String> cnpjs(SearchResult page) {
        return page.dados().stream().map(Empresa::cnpj).toList();
    }

    @Property(tries = 100)
    void everyRecordOfAPageMatchesTheFilters(@ForAll long seed) {
        RegisterQuery q = queries.next(new SplittableRandom(seed));
        SearchResult page = standard.search(q);
        ReferenceFilter ref = new ReferenceFilter(q, SyntheticRegister.lookups());
        assertTrue(page.retornados() <= q.limite());
        assertEquals(Math.min(q.limite(), page.total()), page.retornados(), q::toString);
        for (Empresa e : page.dados()) {
            assertTrue(ref.matches(byCnpj.get(e.cnpj())), () -> e.cnpj() + " does not match " + q);
        }
    }
}
