package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.register.internal.CnpjMap;
import dev.cadastro.register.internal.Generations;
import dev.cadastro.register.internal.LookupsFile;
import dev.cadastro.register.internal.RecordCodec;
import dev.cadastro.register.internal.Schema;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lookups through the generation's CNPJ map (written from the CNPJ keys' doc values; the index holds no
 * CNPJ term since ADR 0033) find every surviving CNPJ; a generation published before the map, or one
 * that lost it, does not open and asks for a load, and a damaged map keeps the generation from opening.
 */
class CnpjMapTest {
    private RegisterFixture fixture;

    @AfterEach
    void deleteIndex() {
        if (fixture != null) {
            fixture.close();
        }
    }

    private static SearchOptions options() {
        return SearchOptions.builder().refreshInterval(Duration.ZERO).build();
    }

    @Test
    void lookupsThroughTheMapFindEverySurvivingCnpj() throws IOException {
        // Several segments, so the map's walk merges them (PublicationTest checks duplicates keep the last).
        fixture = RegisterFixture.buildSegmented(30_000, 11, 3);
        Path generation = fixture.published.path();
        assertTrue(Files.exists(generation.resolve(CnpjMap.NAME)), "the builder writes " + CnpjMap.NAME);
        try (FSDirectory d = FSDirectory.open(generation);
                DirectoryReader reader = DirectoryReader.open(d)) {
            for (var leaf : reader.leaves()) {
                assertEquals(null, leaf.reader().terms("cnpj"), "no CNPJ term is indexed any more");
            }
        }
        try (LuceneRegister register = LuceneRegister.open(fixture.root, options())) {
            for (Establishment e : fixture.byCnpj.values()) {
                Optional<Empresa> found = register.lookup(e.cnpj());
                assertEquals(e.cnpj().value(), found.orElseThrow().cnpj());
                assertEquals(
                        e.nomeFantasia(),
                        found.orElseThrow().nomeFantasia(),
                        e.cnpj().value());
            }
            assertTrue(register.lookup(Cnpj.of("33.683.111/0002-80")).isEmpty());
        }
    }

    @Test
    void aGenerationPublishedBeforeTheMapAsksForALoad(@TempDir Path olderRoot) throws IOException {
        fixture = RegisterFixture.build(2_000, 13);
        writeOlderGeneration(olderRoot, new ArrayList<>(fixture.byCnpj.values()));
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> LuceneRegister.open(olderRoot, options()));
        assertTrue(e.getMessage().contains("earlier build of Cadastro (no " + CnpjMap.NAME + ")"), e.getMessage());
        assertTrue(e.getMessage().contains("run `cadastro load` again"), e.getMessage());
    }

    @Test
    void aGenerationThatLostItsMapAsksForALoad() throws IOException {
        fixture = RegisterFixture.build(2_000, 13);
        Files.delete(fixture.published.path().resolve(CnpjMap.NAME));
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> LuceneRegister.open(fixture.root, options()));
        assertTrue(e.getMessage().contains("no " + CnpjMap.NAME), e.getMessage());
        assertTrue(e.getMessage().contains("run `cadastro load` again"), e.getMessage());
    }

    @Test
    void aTruncatedMapKeepsTheGenerationFromOpening() throws IOException {
        fixture = RegisterFixture.build(2_000, 12);
        Path map = fixture.published.path().resolve(CnpjMap.NAME);
        try (FileChannel c = FileChannel.open(map, StandardOpenOption.WRITE)) {
            c.truncate(c.size() - 20);
        }
        assertThrows(RuntimeException.class, () -> LuceneRegister.open(fixture.root, options()));
    }

    /** A generation as published before ADR 0033 and before the map: a CNPJ term per document, no map. */
    private static void writeOlderGeneration(Path root, List<Establishment> survivors) throws IOException {
        Path dir = Generations.generationDir(root, 1);
        RecordCodec codec = new RecordCodec(SyntheticRegister.lookups());
        IndexWriterConfig config = new IndexWriterConfig();
        Schema.configure(config);
        long sum = 0;
        long sequence = 0;
        try (FSDirectory d = FSDirectory.open(dir);
                IndexWriter w = new IndexWriter(d, config)) {
            for (Establishment e : survivors) {
                byte[] record = codec.encode(e, ++sequence);
                Document doc = Schema.document(e, record);
                doc.add(new StringField("cnpj", e.cnpj().value(), Field.Store.NO));
                w.addDocument(doc);
                sum += RecordCodec.hash(record, 0, record.length);
                if (sequence % 7_000 == 0) {
                    w.commit();
                }
            }
            w.commit();
        }
        assertFalse(Files.exists(dir.resolve(CnpjMap.NAME)));
        LookupsFile.write(dir.resolve(LookupsFile.NAME), SyntheticRegister.lookups());
        Generations.writeMeta(dir, 1, survivors.size(), sum, "older layout", Instant.now(), true);
        Generations.point(root, dir);
    }
}
