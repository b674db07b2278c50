package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cadastro load} without {@code --debt}, through the real command line: it reads the debt
 * files {@code ./cadastro generate} wrote into the dump's {@code debt/} folder and says so in its
 * summary, with their reference date; a dump without them is loaded and summarized as having no PGFN
 * debt data, and its register refuses {@code divida} instead of counting 0.
 */
class LoadDebtSummaryTest {
    @TempDir
    static Path tmp;

    record Run(int status, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        List.of(args),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @BeforeAll
    static void generate() {
        Run generated =
                run("generate", "--out", tmp.resolve("dump").toString(), "--establishments", "2000", "--seed", "6");
        assertEquals(0, generated.status(), generated.err());
        assertTrue(
                generated.out().contains("./cadastro load --dump " + tmp.resolve("dump") + " reads them"),
                generated.out());
    }

    private static Run load(Path dump, String index) {
        return run(
                "load", "--dump", dump.toString(), "--index", tmp.resolve(index).toString(), "--threads", "1");
    }

    private static long total(Run search) {
        Matcher m = Pattern.compile("\"total\":(\\d+)\\}").matcher(search.out());
        assertTrue(m.find(), search.out() + search.err());
        return Long.parseLong(m.group(1));
    }

    @Test
    void theDumpsDebtFolderIsReadAndTheSummaryNamesItsFilesAndReferenceDate() {
        Run loaded = load(tmp.resolve("dump"), "index");
        assertEquals(0, loaded.status(), loaded.err());
        Path debt = tmp.resolve("dump/debt").toAbsolutePath().normalize();
        // The generator names its files after the quarter before the extraction (D60808: 2026-06).
        Matcher line = Pattern.compile(
                        "\n  PGFN debt: Dados_abertos_Nao_Previdenciario\\.zip \\((\\d+) CSV files\\) from "
                                + Pattern.quote(debt.toString()) + ", reference date 2026-06\n")
                .matcher(loaded.out());
        assertTrue(line.find(), loaded.out());
        String index = tmp.resolve("index").toString();
        long debtors = total(run("search", "--index", index, "divida=true&apenas_total=true"));
        long others = total(run("search", "--index", index, "divida=false&apenas_total=true"));
        assertTrue(debtors > 0, "divida=true counts the generated debtors");
        assertTrue(loaded.out().contains(" " + (debtors + others) + " documents"), loaded.out());
    }

    @Test
    void aDumpWithoutDebtFilesSaysSoAndItsRegisterRefusesDivida() throws IOException {
        Path bare = tmp.resolve("bare");
        Files.createDirectories(bare);
        try (Stream<Path> files = Files.list(tmp.resolve("dump"))) {
            for (Path f : files.filter(Files::isRegularFile)
                    .sorted(Comparator.naturalOrder())
                    .toList()) {
                Files.copy(f, bare.resolve(f.getFileName()));
            }
        }
        Run loaded = load(bare, "bare-index");
        assertEquals(0, loaded.status(), loaded.err());
        assertTrue(loaded.out().contains("\n  PGFN debt: no PGFN debt data"), loaded.out());
        Run search = run("search", "--index", tmp.resolve("bare-index").toString(), "divida=true&apenas_total=true");
        assertEquals(2, search.status(), search.out());
        assertTrue(search.err().contains("without PGFN debt data"), search.err());
        assertTrue(!search.out().contains("\"total\""), "never a count: " + search.out());
    }
}
