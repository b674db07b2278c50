package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.register.internal.Schema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    }

    @Property(tries = 120)
    void pagesAreDisjointCompleteAndInIndexOrder(@ForAll long seed) {
        RegisterQuery base = queries.next(new SplittableRandom(seed));
        long total = exact.count(base).total();
        Assume.that(total <= 3_000);
        int limite = 1 + new SplittableRandom(seed).nextInt(200);
        List<String> seen = new ArrayList<>();
        for (int pagina = 1; ; pagina++) {
            Map<String, List<String>> p = new HashMap<>(base.toParameters());
            p.put(RegisterQuery.LIMITE, List.of(Integer.toString(limite)));
            p.put(RegisterQuery.PAGINA, List.of(Integer.toString(pagina)));
            SearchResult page = exact.search(RegisterQuery.parse(p));
            assertEquals(total, page.total());
            assertEquals(pagina, page.pagina());
            assertEquals(limite, page.limite());
            for (Empresa e : page.dados()) {
                seen.add(e.cnpj());
            }
            if (page.retornados() < limite) {
                break;
            }
        }
        assertEquals(total, seen.size(), "pages together hold every match once");
        assertEquals(seen.size(), new HashSet<>(seen).size(), "no record on two pages");
        ReferenceFilter ref = new ReferenceFilter(base, SyntheticRegister.lookups());
        Set<String> expected = new HashSet<>();
        for (Establishment e : fixture.rows) {
            if (ref.matches(e)) {
                expected.add(e.cnpj().value());
            }
        }
        assertEquals(expected, new HashSet<>(seen));
        List<String> sorted = new ArrayList<>(seen);
        sorted.sort(Comparator.comparingLong((String c) ->
                        Schema.geoKey(byCnpj.get(c).uf(), byCnpj.get(c).municipio()))
                .thenComparing(c -> c));
        assertEquals(sorted, seen, "order is (uf, municipio, cnpj)");
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
