package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.internal.GenerationReader;
import dev.cadastro.register.internal.Rollup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;

/**
 * The precomputed counts against an independent count over the generated rows, on a one-segment
 * generation, on a several-segment one, and on one whose dropped duplicates stay as deleted documents;
 * queries with any other filter are left to the engine; a damaged rollup file keeps the generation from
 * opening.
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

    @Property(tries = 200)
    void queriesWithAnyOtherFilterAreLeftToTheEngine(@ForAll long seed) {
        RegisterQuery q = queries.next(new SplittableRandom(seed));
        boolean other = !q.bairros().isEmpty()
                || !q.ddds().isEmpty()
                || !q.cnaesSecundarios().isEmpty()
                || !q.naturezas().isEmpty()
                || q.aberturaDe().isPresent()
                || q.aberturaAte().isPresent()
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
                RegisterQuery.builder().cnaes("0000000").situacaoCadastral("02").build());
        for (RegisterQuery q : shapes) {
            Optional<Long> rolled = singleGen.rolledUpCount(q);
            assertTrue(rolled.isPresent(), q::toString);
            assertEquals(
                    new ReferenceFilter(q, SyntheticRegister.lookups()).count(single.rows), rolled.get(), q::toString);
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
        Path copy = copyOf(single.published.path());
        try {
            Path file = copy.resolve(Rollup.FILE);
            byte[] bytes = Files.readAllBytes(file);
            bytes[bytes.length / 2] ^= 0x10;
            Files.write(file, bytes);
            assertThrows(CorruptIndexException.class, () -> GenerationReader.open(copy, 0, () -> {}));
        } finally {
            RegisterFixture.deleteTree(copy);
        }
    }

    @Example
    void aGenerationWithoutARollupIsCountedByTheEngine() throws IOException {
        Path copy = copyOf(single.published.path());
        try {
            Files.delete(copy.resolve(Rollup.FILE));
            GenerationReader gen = GenerationReader.open(copy, 0, () -> {});
            try {
                RegisterQuery q =
                        RegisterQuery.builder().situacaoCadastral("02").build();
                assertFalse(gen.rolledUpCount(q).isPresent());
            } finally {
                gen.release();
            }
        } finally {
            RegisterFixture.deleteTree(copy);
        }
    }

    private static Path copyOf(Path generation) throws IOException {
        Path copy = Files.createTempDirectory("rollup-copy");
        // The whole tree: the generation's partner index is a folder of its own.
        try (Stream<Path> files = Files.walk(generation)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (!p.equals(generation)) {
                    Files.copy(p, copy.resolve(generation.relativize(p).toString()));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return copy;
    }
}
