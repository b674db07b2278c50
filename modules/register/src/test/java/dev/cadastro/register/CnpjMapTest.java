package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.register.internal.CnpjMap;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Lookups through the generation's CNPJ map answer exactly what the terms of every segment answer (the
 * path of generations published without a map), duplicates included; a damaged map keeps the generation
 * from opening.
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
    void lookupsThroughTheMapAnswerAsTheSegmentsTermsDo() throws IOException {
        // Several segments and duplicate CNPJs (the generator repeats some): the map must hold the survivor.
        fixture = RegisterFixture.buildSegmented(30_000, 11, 3);
        Path generation = fixture.published.path();
        assertTrue(Files.exists(generation.resolve(CnpjMap.NAME)), "the builder writes " + CnpjMap.NAME);
        java.util.Map<String, Optional<Empresa>> throughMap = new java.util.HashMap<>();
        try (LuceneRegister register = LuceneRegister.open(fixture.root, options())) {
            for (Establishment e : fixture.byCnpj.values()) {
                Optional<Empresa> found = register.lookup(e.cnpj());
                assertEquals(e.cnpj().value(), found.orElseThrow().cnpj());
                throughMap.put(e.cnpj().value(), found);
            }
            assertTrue(register.lookup(Cnpj.of("33.683.111/0002-80")).isEmpty());
        }
        Files.delete(generation.resolve(CnpjMap.NAME));
        try (LuceneRegister register = LuceneRegister.open(fixture.root, options())) {
            for (Establishment e : fixture.byCnpj.values()) {
                assertEquals(throughMap.get(e.cnpj().value()), register.lookup(e.cnpj()));
            }
            assertTrue(register.lookup(Cnpj.of("33.683.111/0002-80")).isEmpty());
        }
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
}
