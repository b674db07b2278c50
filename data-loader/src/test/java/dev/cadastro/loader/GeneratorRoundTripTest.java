package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.generate.Quirk;
import dev.cadastro.loader.testing.DumpFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the generator writes, the reader reads back exactly, quirks included. */
class GeneratorRoundTripTest {
    @TempDir
    Path tmp;

    @Test
    void readsBackEveryGeneratedEstablishmentWithTheSameFields() {
        Map<String, Establishment> expected = new ConcurrentHashMap<>();
        GeneratedDump dump = DumpGenerator.generate(
                tmp.resolve("dump"),
                GeneratorOptions.builder(20_000)
                        .seed(7)
                        .quirkRate(0.05)
                        .alphanumericShare(0.05)
                        // No debt folder: the generator hands establishments as loaded without debt files
                        // (GeneratorDebtTest checks the debt flags).
                        .debtShare(0)
                        .threads(2)
                        .build(),
                e -> expected.put(e.cnpj().value(), e));
        for (Quirk q : Quirk.values()) {
            assertTrue(dump.quirks().getOrDefault(q, 0L) > 0, "quirk " + q + " injected");
        }
        CollectingSink sink = new CollectingSink();
        LoadSummary summary = DumpReader.open(
                        DumpFixture.options(dump.dir(), tmp).indexThreads(2).build())
                .readInto(sink);

        assertEquals(expected.size(), dump.establishments());
        assertEquals(expected.keySet(), sink.byCnpj.keySet());
        expected.forEach((cnpj, e) -> assertEquals(e, sink.get(cnpj), cnpj));
        var est = summary.families().get("Estabelecimentos");
        assertEquals(dump.establishmentRows() + dump.quirks().get(Quirk.DUPLICATE_LINE), est.read());
        assertEquals(dump.quirks().get(Quirk.DUPLICATE_LINE), est.rejected().get(RejectReason.DUPLICATE));
        assertEquals(dump.quirks().get(Quirk.SHIFTED_COLUMN), est.rejected().get(RejectReason.COLUMN_COUNT));
        assertEquals(
                dump.quirks().get(Quirk.DUPLICATE_COMPANY_LINE),
                summary.families().get("Empresas").rejected().get(RejectReason.DUPLICATE));
        assertEquals(dump.companies(), summary.families().get("Empresas").loaded());
    }

    @Test
    void writesTheSameBytesForTheSameSeedWhateverTheThreadCount() throws IOException {
        GeneratorOptions.Builder options =
                GeneratorOptions.builder(3_000).seed(99).quirkRate(0.01);
        DumpGenerator.generate(tmp.resolve("a"), options.threads(1).build());
        DumpGenerator.generate(tmp.resolve("b"), options.threads(4).build());
        try (Stream<Path> files = Files.walk(tmp.resolve("a"))) {
            var names = files.filter(Files::isRegularFile)
                    .map(p -> tmp.resolve("a").relativize(p).toString())
                    .sorted()
                    .toList();
            assertEquals(
                    40,
                    names.size(),
                    "the 37 ZIPs of the dump, the PGFN debt ZIP, the reference month and the generator state: "
                            + names);
            assertTrue(names.contains("debt/Dados_abertos_Nao_Previdenciario.zip"), names.toString());
            assertTrue(names.contains(LoadOptions.REFERENCE_FILE), names.toString());
            for (String name : names) {
                assertArrayEquals(
                        Files.readAllBytes(tmp.resolve("a").resolve(name)),
                        Files.readAllBytes(tmp.resolve("b").resolve(name)),
                        name);
            }
        }
    }

    @Test
    void writesTheRealInnerFileNamesWithTheExtractionDate() throws IOException {
        GeneratedDump dump = DumpGenerator.generate(
                tmp.resolve("d"),
                GeneratorOptions.builder(100)
                        .extractionDate(java.time.LocalDate.of(2026, 7, 12))
                        .build());
        assertEquals("D60712", dump.dateCode());
        try (var zip = new java.util.zip.ZipFile(
                dump.dir().resolve("Estabelecimentos3.zip").toFile())) {
            assertEquals(
                    "K3241.K03200Y3.D60712.ESTABELE",
                    zip.entries().nextElement().getName());
        }
        try (var zip =
                new java.util.zip.ZipFile(dump.dir().resolve("Simples.zip").toFile())) {
            assertEquals(
                    "F.K03200$W.SIMPLES.CSV.D60712", zip.entries().nextElement().getName());
        }
        try (var zip = new java.util.zip.ZipFile(dump.dir().resolve("Cnaes.zip").toFile())) {
            var entry = zip.entries().nextElement();
            assertEquals("F.K03200$Z.D60712.CNAECSV", entry.getName());
            assertArrayEquals(
                    DumpFixture.resource("/dev/cadastro/loader/receita/Cnaes.csv"),
                    zip.getInputStream(entry).readAllBytes());
        }
    }
}
