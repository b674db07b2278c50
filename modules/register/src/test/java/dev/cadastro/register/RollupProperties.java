package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.internal.GenerationReader;
import dev.cadastro.register.internal.OutdatedFormatException;
import dev.cadastro.register.internal.Rollup;
import dev.cadastro.register.internal.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * The precomputed counts against an independent count over the generated rows, on a one-segment
 * generation, on a several-segment one, and on one whose dropped duplicates stay as deleted documents;
 * opening-date ranges of whole years are answered, queries with any other filter (or a range starting or
 * ending inside a year) are left to the engine; a damaged rollup file keeps the generation from opening,
 * and one of the first version (no opening years) asks for a load.
 */
class RollupProperties {
    private static RegisterFixture single;
    private static RegisterFixture segmented;
    private static GenerationReader singleGen;
    private static GenerationReader segmentedGen;
    private static RandomQueries queries;

    @BeforeContainer
    static void build() throws IOException {
        single = RegisterFixture.build(30_000, 23);
        segmented = RegisterFixture.buildSegmented(30_000, 29, 2);
        assertTrue(segmented.segments() >= 2, "the fixture must have several segments");
        singleGen = GenerationReader.open(single.published.path(), 0, () -> {});
        segmentedGen = GenerationReader.open(segmented.published.path(), 0, () -> {});
        queries = new RandomQueries(single.generator);
    }

    @AfterContainer
    static void close() {
        singleGen.release();
        segmentedGen.release();
        single.close();
        segmented.close();
    }

    @Property(tries = 400)
    void rolledUpCountsEqualAnIndependentCount(@ForAll long seed, @ForAll boolean severalSegments) {
        RegisterFixture f = severalSegments ? segmented : single;
        GenerationReader gen = severalSegments ? segmentedGen : singleGen;
        RegisterQuery q = queries.nextOnRollupDimensions(new SplittableRandom(seed));
        Optional<Long> rolled = gen.rolledUpCount(q);
        Statistics.label("answered").collect(rolled.isPresent());
        Statistics.label("answered").coverage(c -> c.check(true).percentage(p -> p >= 15));
        if (rolled.isPresent()) {
            long expected = new ReferenceFilter(q, SyntheticRegister.lookups()).count(f.rows);
            assertEquals(expected, rolled.get(), q::toString);
        }
    }

    @Property(tries = 400)
    void wholeYearRangesAreRolledUpAndRangesInsideAYearLeftToTheEngine(
            @ForAll long seed, @ForAll boolean severalSegments) {
        RegisterFixture f = severalSegments ? segmented : single;
        GenerationReader gen = severalSegments ? segmentedGen : singleGen;
        RegisterQuery q = queries.nextWithOpeningDates(new SplittableRandom(seed));
        Optional<Long> rolled = gen.rolledUpCount(q);
        boolean whole = wholeYears(q);
        Statistics.label("range").collect(whole ? "whole years" : "inside a year", rolled.isPresent());
        Statistics.label("range").coverage(c -> {
            c.check("whole years", true).percentage(p -> p >= 25);
            c.check("inside a year", false).percentage(p -> p >= 25);
        });
        if (!whole) {
            assertFalse(rolled.isPresent(), q::toString);
            return;
        }
        boolean cheap = cheapOnTheYearCuboid(q, f.rows);
        Statistics.label("must be answered").collect(cheap);
        Statistics.label("must be answered").coverage(c -> c.check(true).percentage(p -> p >= 20));
        if (cheap) {
            assertTrue(rolled.isPresent(), () -> "not answered: " + q);
        }
        if (rolled.isPresent()) {
            long expected = new ReferenceFilter(q, SyntheticRegister.lookups()).count(f.rows);
            assertEquals(expected, rolled.get(), q::toString);
        }
    }

    /** Whether the opening-date range, if any, starts on a January 1st and ends on a December 31st. */
    private static boolean wholeYears(RegisterQuery q) {
        boolean from = q.aberturaDe()
                .map(d -> d.getMonthValue() == 1 && d.getDayOfMonth() == 1)
                .orElse(true);
        boolean to = q.aberturaAte()
                .map(d -> d.getMonthValue() == 12 && d.getDayOfMonth() == 31)
                .orElse(true);
        return from && to;
    }

    /**
     * Whether the query filters only on states, situations and opening years, with few enough of them
     * for the (situation, year, place) cuboid's range limit: at most situations (or all 5 and none) times
     * opening years present times states (one run of places each) ranges.
     */
    private static boolean cheapOnTheYearCuboid(RegisterQuery q, List<Establishment> rows) {
        for (RegisterQuery.Filter p : RegisterQuery.Filter.values()) {
            boolean allowed = switch (p) {
                case UFS, SITUACAO_CADASTRAL, ABERTURA_DE, ABERTURA_ATE -> true;
                default -> false;
            };
            if (!allowed && q.has(p)) {
                return false;
            }
        }
        LocalDate from = q.aberturaDe().orElse(LocalDate.MIN);
        LocalDate to = q.aberturaAte().orElse(LocalDate.MAX);
        Set<Integer> years = new HashSet<>();
        for (Establishment e : rows) {
            LocalDate d = e.dataAbertura();
            if (d != null && !d.isBefore(from) && !d.isAfter(to)) {
                years.add(d.getYear());
            }
        }
        long situations =
                q.situacaoCadastral().isEmpty() ? 6 : q.situacaoCadastral().size();
        return situations * years.size() * Math.max(1, q.ufs().size()) <= 1024;
    }

    @Property(tries = 200)
    void queriesWithAnyOtherFilterAreLeftToTheEngine(@ForAll long seed) {
        RegisterQuery q = queries.next(new SplittableRandom(seed));
        boolean other = !q.bairros().isEmpty()
                || !q.ddds().isEmpty()
                || !q.cnaesSecundarios().isEmpty()
                || !q.naturezas().isEmpty()
                || !wholeYears(q)
                || q.capitalMin().isPresent()
                || q.capitalMax().isPresent();
        Statistics.label("other filter").collect(other);
        Optional<Long> rolled = singleGen.rolledUpCount(q);
        if (other) {
            assertFalse(rolled.isPresent(), q::toString);
        } else if (rolled.isPresent()) {
            assertEquals(new ReferenceFilter(q, SyntheticRegister.lookups()).count(single.rows), rolled.get());
        }
    }

    @Example
    void theBenchmarkShapesAreAnsweredExactly() {
        List<String> top = single.generator.cnaesByFrequency();
        List<RegisterQuery> shapes = List.of(
                RegisterQuery.builder()
                        .ufs("SP")
                        .situacaoCadastral("02")
                        .cnaes(top.get(0), top.get(1), top.get(2))
                        .build(),
                RegisterQuery.builder()
                        .municipios("SAO PAULO")
                        .situacaoCadastral("02")
                        .comEmail(true)
                        .build(),
                RegisterQuery.builder()
                        .municipios("Boa Vista")
                        .ufs("RR")
                        .cnaes(top.get(150), top.get(170))
                        .situacaoCadastral("02")
                        .build(),
                RegisterQuery.builder().situacaoCadastral("02").build(),
                RegisterQuery.builder().ufs("SP").situacaoCadastral("02").build(),
                RegisterQuery.builder().ufs("EX", "SP").build(),
                RegisterQuery.builder().cnaes("0000000").situacaoCadastral("02").build(),
                // The HTTP benchmark's pages: one or two states, maybe a situation, opened since a year.
                RegisterQuery.builder()
                        .ufs("SP", "RJ")
                        .aberturaDe(LocalDate.of(2000, 1, 1))
                        .build(),
                RegisterQuery.builder()
                        .ufs("MG")
                        .situacaoCadastral("02")
                        .aberturaDe(LocalDate.of(1990, 1, 1))
                        .build(),
                RegisterQuery.builder()
                        .ufs("RS", "BA")
                        .aberturaDe(LocalDate.of(1960, 1, 1))
                        .build(),
                RegisterQuery.builder()
                        .municipios("SAO PAULO")
                        .aberturaDe(LocalDate.of(2010, 1, 1))
                        .aberturaAte(LocalDate.of(2015, 12, 31))
                        .build(),
                RegisterQuery.builder()
                        .situacaoCadastral("08")
                        .aberturaAte(LocalDate.of(1995, 12, 31))
                        .build(),
                RegisterQuery.builder()
                        .ufs("SP")
                        .aberturaDe(LocalDate.of(1850, 1, 1))
                        .aberturaAte(LocalDate.of(1899, 12, 31))
                        .build());
        for (RegisterQuery q : shapes) {
            Optional<Long> rolled = singleGen.rolledUpCount(q);
            assertTrue(rolled.isPresent(), q::toString);
            assertEquals(
                    new ReferenceFilter(q, SyntheticRegister.lookups()).count(single.rows), rolled.get(), q::toString);
        }
    }

    @Example
    void aRangeStartingOrEndingInsideAYearIsLeftToTheEngine() {
        for (RegisterQuery q : List.of(
                RegisterQuery.builder()
                        .ufs("SP")
                        .aberturaDe(LocalDate.of(2000, 1, 2))
                        .build(),
                RegisterQuery.builder()
                        .ufs("SP")
                        .aberturaDe(LocalDate.of(1999, 12, 31))
                        .build(),
                RegisterQuery.builder()
                        .ufs("SP")
                        .aberturaAte(LocalDate.of(2000, 12, 30))
                        .build(),
                RegisterQuery.builder()
                        .ufs("SP")
                        .aberturaDe(LocalDate.of(2000, 1, 1))
                        .aberturaAte(LocalDate.of(2001, 1, 1))
                        .build())) {
            assertFalse(singleGen.rolledUpCount(q).isPresent(), q::toString);
        }
    }

    @Example
    void theRollupCountsEveryLiveDocument() {
        assertEquals(single.published.documents(), singleGen.rollup().documents());
        assertEquals(segmented.published.documents(), segmentedGen.rollup().documents());
        assertTrue(singleGen.rollup().tuples() > 0);
    }

    @Example
    void deletedDocumentsAreNotCounted() throws IOException {
        Path root = Files.createTempDirectory("rollup-duplicates");
        try {
            SyntheticRegister g = new SyntheticRegister(31);
            List<Establishment> rows = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                rows.add(g.next());
            }
            BuildOptions asBuilt =
                    BuildOptions.builder().ramBufferMb(16).indexingThreads(1).build();
            PublishedIndex p;
            try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), asBuilt)) {
                rows.forEach(b::add);
                rows.subList(0, 200).forEach(b::add);
                p = b.publish("first 200 twice");
            }
            GenerationReader gen = GenerationReader.open(p.path(), 0, () -> {});
            try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(p.path()))) {
                assertTrue(reader.numDeletedDocs() > 0, "the earlier copies stay as deleted documents");
                assertEquals(3_000, gen.rollup().documents());
                for (RegisterQuery q : List.of(
                        RegisterQuery.builder().situacaoCadastral("02").build(),
                        RegisterQuery.builder()
                                .situacaoCadastral("02")
                                .ufs("SP")
                                .build(),
                        RegisterQuery.builder().ufs("SP", "MG").build())) {
                    assertEquals(
                            new ReferenceFilter(q, SyntheticRegister.lookups()).count(rows),
                            gen.rolledUpCount(q).orElseThrow(),
                            q::toString);
                }
            } finally {
                gen.release();
            }
        } finally {
            RegisterFixture.deleteTree(root);
        }
    }

    @Example
    void aDamagedRollupKeepsTheGenerationFromOpening() throws IOException {
        Path copy = RegisterFixture.copyOf(single.published.path());
        try {
            RegisterFixture.flipMiddleByte(copy.resolve(Rollup.FILE));
            assertThrows(CorruptIndexException.class, () -> GenerationReader.open(copy, 0, () -> {}));
        } finally {
            RegisterFixture.deleteTree(copy);
        }
    }

    @Example
    void aGenerationWithoutARollupAsksForALoad() throws IOException {
        Path copy = RegisterFixture.copyOf(single.published.path());
        try {
            Files.delete(copy.resolve(Rollup.FILE));
            OutdatedFormatException e =
                    assertThrows(OutdatedFormatException.class, () -> GenerationReader.open(copy, 0, () -> {}));
            assertTrue(e.getMessage().contains("no " + Rollup.FILE), e.getMessage());
        } finally {
            RegisterFixture.deleteTree(copy);
        }
    }

    @Example
    void aGenerationOpenedWithoutItsRollupIsCountedByTheEngine() throws IOException {
        GenerationReader gen = GenerationReader.open(single.published.path(), 0, false, () -> {});
        try {
            RegisterQuery q = RegisterQuery.builder().situacaoCadastral("02").build();
            assertFalse(gen.rolledUpCount(q).isPresent());
        } finally {
            gen.release();
        }
    }

    @Example
    void wholeStatesOverManyYearsAreAnsweredByTheStateCuboid() {
        // Ten states apart in key order over every year present, with no situation: priced by place, each
        // (situation, year) costs a range per state, thousands; by state, one range per (situation, state).
        RegisterQuery q = RegisterQuery.builder()
                .ufs("AC", "AM", "BA", "DF", "GO", "MG", "PA", "PE", "PR", "RS")
                .aberturaDe(LocalDate.of(1900, 1, 1))
                .build();
        assertEquals(
                new ReferenceFilter(q, SyntheticRegister.lookups()).count(single.rows),
                singleGen.rolledUpCount(q).orElseThrow(() -> new AssertionError("declined: " + q)));
        RegisterQuery withSituation = RegisterQuery.builder()
                .ufs("SP", "RJ")
                .situacaoCadastral("02", "08")
                .aberturaAte(LocalDate.of(2015, 12, 31))
                .build();
        assertEquals(
                new ReferenceFilter(withSituation, SyntheticRegister.lookups()).count(single.rows),
                singleGen.rolledUpCount(withSituation).orElseThrow());
        RegisterQuery none = RegisterQuery.builder()
                .ufs("EX")
                .aberturaDe(LocalDate.of(2000, 1, 1))
                .build();
        assertEquals(
                new ReferenceFilter(none, SyntheticRegister.lookups()).count(single.rows),
                singleGen.rolledUpCount(none).orElseThrow());
    }

    @Example
    void aFirstVersionRollupAsksForALoad() throws IOException {
        Path copy = RegisterFixture.copyOf(single.published.path());
        try {
            rewriteAsFirstVersion(copy);
            OutdatedFormatException e =
                    assertThrows(OutdatedFormatException.class, () -> GenerationReader.open(copy, 0, () -> {}));
            assertTrue(e.getMessage().contains(Rollup.FILE + " of format 1"), e.getMessage());
            assertTrue(e.getMessage().contains("run `cadastro load` again"), e.getMessage());
        } finally {
            RegisterFixture.deleteTree(copy);
        }
    }

    /**
     * Rewrites a generation's rollup as the first version wrote it: the same layout (header, live
     * documents, each dimension's name and terms, each cuboid's dimensions, keys and cumulative counts,
     * footer) without the opening year's and the state's dimensions and the cuboids holding them. Returns the combinations
     * dropped.
     */
    private static long rewriteAsFirstVersion(Path generation) throws IOException {
        String codec = "CadastroRollup";
        String rewritten = Rollup.FILE + ".v1";
        long dropped = 0;
        try (FSDirectory dir = FSDirectory.open(generation)) {
            try (ChecksumIndexInput in = dir.openChecksumInput(Rollup.FILE);
                    IndexOutput out = dir.createOutput(rewritten, IOContext.DEFAULT)) {
                CodecUtil.checkHeader(in, codec, 3, 3);
                CodecUtil.writeHeader(out, codec, 1);
                out.writeVLong(in.readVLong());
                int fields = in.readVInt();
                List<String> names = new ArrayList<>();
                List<List<String>> terms = new ArrayList<>();
                for (int f = 0; f < fields; f++) {
                    names.add(in.readString());
                    List<String> t = new ArrayList<>();
                    for (int i = in.readVInt(); i > 0; i--) {
                        t.add(in.readString());
                    }
                    terms.add(t);
                }
                // The first version had neither the opening year nor the state derived from the place.
                int year = names.indexOf(Schema.ANO);
                int state = names.indexOf("geo.uf");
                assertTrue(year >= 0 && state >= 0, "the current version has the opening year and the state");
                java.util.function.IntPredicate later = f -> f == year || f == state;
                out.writeVInt(fields - 2);
                for (int f = 0; f < fields; f++) {
                    if (!later.test(f)) {
                        out.writeString(names.get(f));
                        out.writeVInt(terms.get(f).size());
                        for (String t : terms.get(f)) {
                            out.writeString(t);
                        }
                    }
                }
                int cuboids = in.readVInt();
                List<int[]> dims = new ArrayList<>();
                List<long[]> keys = new ArrayList<>();
                List<int[]> cumulative = new ArrayList<>();
                for (int c = 0; c < cuboids; c++) {
                    int[] d = new int[in.readVInt()];
                    for (int level = 0; level < d.length; level++) {
                        d[level] = in.readVInt();
                    }
                    long[] k = new long[in.readVInt()];
                    in.readLongs(k, 0, k.length);
                    int[] n = new int[k.length + 1];
                    in.readInts(n, 0, n.length);
                    if (java.util.Arrays.stream(d).anyMatch(later)) {
                        dropped += k.length;
                        continue;
                    }
                    dims.add(d);
                    keys.add(k);
                    cumulative.add(n);
                }
                CodecUtil.checkFooter(in);
                out.writeVInt(dims.size());
                for (int c = 0; c < dims.size(); c++) {
                    out.writeVInt(dims.get(c).length);
                    for (int d : dims.get(c)) {
                        out.writeVInt(d - (d > year ? 1 : 0) - (d > state ? 1 : 0));
                    }
                    out.writeVInt(keys.get(c).length);
                    for (long k : keys.get(c)) {
                        out.writeLong(k);
                    }
                    for (int n : cumulative.get(c)) {
                        out.writeInt(n);
                    }
                }
                CodecUtil.writeFooter(out);
            }
            dir.deleteFile(Rollup.FILE);
            dir.rename(rewritten, Rollup.FILE);
        }
        assertTrue(dropped > 0, "the opening-year cuboid has combinations");
        return dropped;
    }
}
