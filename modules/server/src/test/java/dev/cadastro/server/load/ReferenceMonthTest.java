package dev.cadastro.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.DataReference;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.server.DumpLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dump's reference month, which every register answer states in {@code X-Dados-Referencia}: the
 * generator writes it beside the ZIPs, the loader takes {@code --reference}, else that file, else the
 * folder's name as the Receita Federal names its monthly folders, and the published generation keeps
 * it; a dump that states none publishes a generation without one.
 */
class ReferenceMonthTest {
    @TempDir
    static Path tmp;

    static Path generated;

    @BeforeAll
    static void generate() {
        generated = tmp.resolve("generated");
        DumpGenerator.generate(
                generated,
                GeneratorOptions.builder(300)
                        .seed(5)
                        .quirkRate(0)
                        .threads(1)
                        .debtShare(0)
                        .extractionDate(LocalDate.of(2026, 11, 9))
                        .build());
    }

    private static Optional<YearMonth> load(LoadOptions.Builder options, String index) {
        PublishedIndex published = DumpLoader.load(
                        options.build(),
                        tmp.resolve(index),
                        BuildOptions.builder()
                                .ramBufferMb(32)
                                .indexingThreads(1)
                                .build())
                .published();
        try (LuceneRegister register = LuceneRegister.open(tmp.resolve(index))) {
            assertEquals(
                    published.referenceMonth(), register.reference().map(DataReference::month), "as the API reads it");
            register.reference()
                    .ifPresent(r -> assertEquals(published.publishedAt(), r.publishedAt(), "the publication time"));
        }
        return published.referenceMonth();
    }

    /** A copy of the generated dump's ZIPs, without its reference file, in a folder of that name. */
    private static Path copyWithoutReference(String name) throws IOException {
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(generated)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                if (!p.getFileName().toString().equals(LoadOptions.REFERENCE_FILE)) {
                    Files.copy(p, dir.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return dir;
    }

    @Test
    void theGeneratorWritesTheExtractionMonthAndTheLoadRecordsIt() throws IOException {
        assertEquals(
                "2026-11\n",
                Files.readString(generated.resolve(LoadOptions.REFERENCE_FILE), StandardCharsets.US_ASCII));
        assertEquals(Optional.of(YearMonth.of(2026, 11)), load(LoadOptions.builder(generated), "from-file"));
    }

    @Test
    void theFlagWinsOverWhatTheDumpSays() {
        assertEquals(
                Optional.of(YearMonth.of(2025, 3)),
                load(LoadOptions.builder(generated).reference(YearMonth.of(2025, 3)), "from-flag"));
    }

    @Test
    void aReceitaFolderNameGivesTheMonthWhenTheDumpHasNoFile() throws IOException {
        Path receita = copyWithoutReference("2026-10");
        assertEquals(Optional.of(YearMonth.of(2026, 10)), load(LoadOptions.builder(receita), "from-name"));
    }

    @Test
    void aDumpThatStatesNoMonthPublishesAGenerationWithoutOne() throws IOException {
        Path plain = copyWithoutReference("plain");
        assertEquals(Optional.empty(), load(LoadOptions.builder(plain), "without"));
        String meta = Files.readString(tmp.resolve("without")
                .resolve(Files.readString(tmp.resolve("without").resolve("CURRENT"))
                        .strip())
                .resolve("generation.properties"));
        assertTrue(!meta.contains("referenceMonth"), meta);
    }

    @Test
    void aMalformedMonthIsRefusedNamingWhereItCameFrom() throws IOException {
        Path bad = copyWithoutReference("bad-file");
        Files.writeString(bad.resolve(LoadOptions.REFERENCE_FILE), "novembro\n");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> LoadOptions.builder(bad).build());
        assertTrue(
                e.getMessage().contains(LoadOptions.REFERENCE_FILE)
                        && e.getMessage().contains("novembro"),
                e.getMessage());
        IllegalArgumentException month =
                assertThrows(IllegalArgumentException.class, () -> LoadOptions.month("2026-13", "--reference"));
        assertTrue(month.getMessage().startsWith("--reference"), month.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LoadOptions.month("2026-1", "--reference"));
    }
}
