package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.ChangePage;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.internal.GenerationReader;
import dev.cadastro.register.internal.QueryEngine;
import dev.cadastro.register.internal.Rollup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.lucene.index.CorruptIndexException;

/**
 * The precomputed counts of a generation's changes ({@link Rollup#CHANGES_FILE}) against the independent
 * diff of two months: for random filters on the rollup's dimensions and random sets of change types, the
 * rolled-up count equals the count of the diff's CNPJs of those types whose new record matches, and so
 * does the feed's total; a query with any other filter is left to the engine; the benchmark's query
 * shapes are answered; a generation without the file (built before it existed) is counted by the engine
 * alike, and a damaged one keeps the generation from opening.
 */
class ChangeRollupProperties {
    private static TwoMonths months;
    private static LuceneRegister register;
    private static GenerationReader gen;
    private static RandomQueries queries;
    private static Map<String, Set<ChangeType>> diff;

    @BeforeContainer
    static void build() throws Exception {
        months = TwoMonths.build();
        register = LuceneRegister.open(months.root);
        gen = GenerationReader.open(register.published().path(), 0, () -> {});
        queries = new RandomQueries(new SyntheticRegister(41));
        diff = months.expectedChanges();
    }

    @AfterContainer
    static void close() {
        if (gen != null) {
            gen.release();
        }
        if (register != null) {
            register.close();
        }
        if (months != null) {
            months.close();
        }
    }

    @Property(tries = 400)
    void rolledUpChangeCountsEqualTheIndependentDiff(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        RegisterQuery q = queries.nextOnRollupDimensions(r);
        Set<ChangeType> types = types(r);
        Optional<Long> rolled = gen.rolledUpChangeCount(q, types);
        Statistics.label("answered").collect(rolled.isPresent());
        Statistics.label("answered").coverage(c -> c.check(true).percentage(p -> p >= 15));
        long expected = reference(q, types);
        rolled.ifPresent(n -> assertEquals(expected, n, () -> q + " " + types));
        ChangePage feed = register.changes(new ChangeQuery(count(q), types, Optional.empty()));
        if (!feed.aproximado()) {
            assertEquals(expected, feed.total(), () -> "the feed's total of " + q + " " + types);
        }
    }

    @Property(tries = 200)
    void queriesWithAnyOtherFilterAreLeftToTheEngine(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        RegisterQuery q = queries.next(r);
        boolean other = !q.bairros().isEmpty()
                || !q.ddds().isEmpty()
                || !q.cnaesSecundarios().isEmpty()
                || !q.naturezas().isEmpty()
                || q.capitalMin().isPresent()
                || q.capitalMax().isPresent()
                || q.aberturaDe().isPresent()
                || q.aberturaAte().isPresent();
        Statistics.label("other filter").collect(other);
        Set<ChangeType> types = types(r);
        Optional<Long> rolled = gen.rolledUpChangeCount(q, types);
        if (other && (q.aberturaDe().isEmpty() && q.aberturaAte().isEmpty())) {
            assertFalse(rolled.isPresent(), q::toString);
        } else if (rolled.isPresent()) {
            assertEquals(reference(q, types), rolled.get(), q::toString);
        }
    }

    @Example
    void theBenchmarkShapesAreAnsweredExactly() {
        List<String> top = new SyntheticRegister(41).cnaesByFrequency();
        Map<RegisterQuery, Set<ChangeType>> shapes = Map.of(
                RegisterQuery.builder().ufs("SP").build(),
                Set.of(),
                RegisterQuery.builder().ufs("SP", "RJ", "MG").build(),
                Set.of(ChangeType.ABERTURA),
                RegisterQuery.builder().cnaes(top.get(0), top.get(1)).build(),
                Set.of(ChangeType.BAIXA, ChangeType.SITUACAO),
                RegisterQuery.builder().situacaoCadastral("02").comEmail(true).build(),
                Set.of(ChangeType.ENDERECO, ChangeType.CONTATO),
                RegisterQuery.builder().ufs("RJ").simples(true).build(),
                Set.of());
        shapes.forEach((q, types) -> {
            long expected = reference(q, types);
            assertTrue(expected > 0, () -> "the test data has changes of " + q + " " + types);
            assertEquals(
                    Optional.of(expected), gen.rolledUpChangeCount(q, types), () -> "rolled up: " + q + " " + types);
            ChangePage page = register.changes(
                    new ChangeQuery(q.toBuilder().limite(50).buildWithoutFilterRule(), types, Optional.empty()));
            assertEquals(expected, page.total());
            assertFalse(page.aproximado());
            assertEquals(Math.min(50, expected), page.itens().size());
        });
    }

    @Example
    void aGenerationWithoutTheFileIsCountedByTheEngineAlike() throws IOException {
        Path copy = RegisterFixture.copyOf(register.published().path());
        try {
            Files.delete(copy.resolve(Rollup.CHANGES_FILE));
            GenerationReader older = GenerationReader.open(copy, 0, () -> {});
            try {
                assertNull(older.changeRollup());
                QueryEngine engine = new QueryEngine(older, SearchOptions.defaults());
                SplittableRandom r = new SplittableRandom(5);
                for (int i = 0; i < 50; i++) {
                    RegisterQuery q = queries.nextOnRollupDimensions(r);
                    Set<ChangeType> types = types(r);
                    assertFalse(older.rolledUpChangeCount(q, types).isPresent());
                    ChangePage p = engine.changes(count(q), types);
                    if (!p.aproximado()) {
                        assertEquals(reference(q, types), p.total(), q::toString);
                    }
                }
            } finally {
                older.release();
            }
        } finally {
            RegisterFixture.deleteTree(copy);
        }
    }

    @Example
    void aDamagedChangesRollupKeepsTheGenerationFromOpening() throws IOException {
        Path copy = RegisterFixture.copyOf(register.published().path());
        try {
            RegisterFixture.flipMiddleByte(copy.resolve(Rollup.CHANGES_FILE));
            assertThrows(CorruptIndexException.class, () -> GenerationReader.open(copy, 0, () -> {}));
        } finally {
            RegisterFixture.deleteTree(copy);
        }
    }

    /** No type (every one), one, or a random subset. */
    private static Set<ChangeType> types(SplittableRandom r) {
        Set<ChangeType> types = EnumSet.noneOf(ChangeType.class);
        switch (r.nextInt(3)) {
            case 0 -> {}
            case 1 -> types.add(ChangeType.values()[r.nextInt(ChangeType.values().length)]);
            default -> {
                for (ChangeType t : ChangeType.values()) {
                    if (r.nextInt(3) == 0) {
                        types.add(t);
                    }
                }
            }
        }
        return types;
    }

    private static RegisterQuery count(RegisterQuery q) {
        return q.toBuilder().countOnly(true).buildWithoutFilterRule();
    }

    /** The diff's CNPJs with one of {@code types} (every one when empty) whose month-2 record matches. */
    private static long reference(RegisterQuery q, Set<ChangeType> types) {
        ReferenceFilter filter = new ReferenceFilter(q, SyntheticRegister.lookups());
        return diff.entrySet().stream()
                .filter(e -> types.isEmpty() || !Collections.disjoint(e.getValue(), types))
                .map(e -> months.after.get(e.getKey()))
                .filter(filter::matches)
                .count();
    }
}
