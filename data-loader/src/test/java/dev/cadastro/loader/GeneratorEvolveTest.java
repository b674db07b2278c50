package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.loader.generate.DumpEvolver;
import dev.cadastro.loader.generate.DumpEvolver.Applied;
import dev.cadastro.loader.generate.DumpEvolver.EvolvedDump;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.testing.DumpFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code generate --evolve-from}: the next month reads back, changed at the stated rates, deterministically. */
class GeneratorEvolveTest {
    @TempDir
    Path tmp;

    private Map<String, Establishment> read(Path dump, String work) {
        CollectingSink sink = new CollectingSink();
        DumpReader.open(DumpFixture.options(dump, tmp.resolve(work))
                        .indexThreads(2)
                        .build())
                .readInto(sink);
        return sink.byCnpj;
    }

    @Test
    void theNextMonthKeepsEveryRowButTheRemovedAndChangesTheStatedShares() throws IOException {
        GeneratorOptions options = GeneratorOptions.builder(40_000)
                .seed(5)
                .quirkRate(0.01)
                .threads(2)
                .build();
        DumpGenerator.generate(tmp.resolve("m1"), options);
        EvolvedDump evolved = DumpEvolver.evolve(tmp.resolve("m1"), tmp.resolve("m2"), YearMonth.of(2026, 9), options);
        assertEquals(YearMonth.of(2026, 8), evolved.from());
        assertEquals("2026-09\n", Files.readString(tmp.resolve("m2").resolve(LoadOptions.REFERENCE_FILE)));

        Map<String, Establishment> before = read(tmp.resolve("m1"), "w1");
        Map<String, Establishment> after = read(tmp.resolve("m2"), "w2");
        long opened =
                after.keySet().stream().filter(c -> !before.containsKey(c)).count();
        long gone = before.keySet().stream().filter(c -> !after.containsKey(c)).count();
        Map<Applied, Long> applied = evolved.applied();
        // Openings: 330,000 a month for 70 M lines, each active and opened in the reference month.
        assertEquals(applied.get(Applied.OPENED), opened);
        assertTrue(Math.abs(opened - 40_000 * DumpEvolver.OPENINGS) < 40, "openings " + opened);
        after.forEach((cnpj, e) -> {
            if (!before.containsKey(cnpj)) {
                assertEquals("02", e.situacaoCadastral(), cnpj);
                assertTrue(e.dataAbertura() == null
                        || YearMonth.from(e.dataAbertura()).equals(YearMonth.of(2026, 9)));
            }
        });
        assertEquals(applied.get(Applied.REMOVED), gone);
        long closed = 0;
        long moved = 0;
        long contact = 0;
        long cnae = 0;
        for (var entry : before.entrySet()) {
            Establishment b = entry.getValue();
            Establishment a = after.get(entry.getKey());
            if (a == null) {
                assertEquals("01", b.situacaoCadastral(), "only NULA rows leave");
                continue;
            }
            if (b.situacaoCadastral().equals("02") && a.situacaoCadastral().equals("08")) {
                closed++;
            }
            if (!Objects.equals(b.cep(), a.cep()) || !Objects.equals(b.logradouro(), a.logradouro())) {
                moved++;
            }
            if (!Objects.equals(b.telefones(), a.telefones()) || !Objects.equals(b.email(), a.email())) {
                contact++;
            }
            if (!Objects.equals(b.cnaePrincipal(), a.cnaePrincipal())) {
                cnae++;
            }
        }
        // The counts the evolver states are what a reader sees (quirk rows, copied as they were, aside).
        assertEquals(applied.get(Applied.CLOSED), closed);
        assertEquals(applied.get(Applied.MOVED), moved);
        assertEquals(applied.get(Applied.CONTACT), contact);
        assertEquals(applied.get(Applied.CNAE), cnae);
        long active = before.values().stream()
                .filter(e -> e.situacaoCadastral().equals("02"))
                .count();
        assertTrue(Math.abs(closed - active * DumpEvolver.CLOSURES) < 4 * Math.sqrt(active * DumpEvolver.CLOSURES) + 1);
        assertTrue(applied.get(Applied.PORTE) > 0 && applied.get(Applied.CAPITAL) > 0, applied.toString());

        // A third month follows the second, with openings of its own.
        EvolvedDump third = DumpEvolver.evolve(tmp.resolve("m2"), tmp.resolve("m3"), YearMonth.of(2026, 10), options);
        Map<String, Establishment> m3 = read(tmp.resolve("m3"), "w3");
        long newInThird =
                m3.keySet().stream().filter(c -> !after.containsKey(c)).count();
        assertEquals(third.applied().get(Applied.OPENED), newInThird);
        assertTrue(m3.keySet().stream().noneMatch(c -> !after.containsKey(c) && before.containsKey(c)));
    }

    @Test
    void theSameSeedWritesTheSameBytesWhateverTheThreadCount() throws IOException {
        GeneratorOptions.Builder options =
                GeneratorOptions.builder(3_000).seed(11).quirkRate(0.02);
        DumpGenerator.generate(tmp.resolve("base"), options.threads(2).build());
        DumpEvolver.evolve(
                tmp.resolve("base"),
                tmp.resolve("a"),
                YearMonth.of(2026, 9),
                options.threads(1).build());
        DumpEvolver.evolve(
                tmp.resolve("base"),
                tmp.resolve("b"),
                YearMonth.of(2026, 9),
                options.threads(4).build());
        try (Stream<Path> files = Files.list(tmp.resolve("a"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path other = tmp.resolve("b").resolve(f.getFileName().toString());
                assertArrayEquals(
                        Files.readAllBytes(f),
                        Files.readAllBytes(other),
                        f.getFileName().toString());
            }
        }
    }

    @Test
    void refusesAMonthThatIsNotLaterAndAFolderWithoutState() throws IOException {
        GeneratorOptions options = GeneratorOptions.builder(100).build();
        DumpGenerator.generate(tmp.resolve("m"), options);
        var early = assertThrows(
                IllegalArgumentException.class,
                () -> DumpEvolver.evolve(tmp.resolve("m"), tmp.resolve("x"), YearMonth.of(2026, 8), options));
        assertTrue(early.getMessage().contains("2026-08"), early.getMessage());
        Files.createDirectories(tmp.resolve("plain"));
        Files.writeString(
                tmp.resolve("plain").resolve(LoadOptions.REFERENCE_FILE), "2026-08\n", StandardCharsets.US_ASCII);
        var none = assertThrows(
                IllegalArgumentException.class,
                () -> DumpEvolver.evolve(tmp.resolve("plain"), tmp.resolve("y"), YearMonth.of(2026, 9), options));
        assertTrue(none.getMessage().contains("gerador.properties"), none.getMessage());
    }
}
