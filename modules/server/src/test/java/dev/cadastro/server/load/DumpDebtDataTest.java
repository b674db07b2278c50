package dev.cadastro.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.LoadSummary;
import dev.cadastro.loader.StructuralFaultException;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.testing.DumpFixture;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.server.DumpLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debt data cannot go missing silently: a load reads the dump's own {@code debt/} folder when no other
 * is given, its summary names the files and their reference date (or says there is no debt data), the
 * generation records whether it has debt data, and a register without it refuses {@code divida}.
 * The expected counts come from the generator's establishments and from the PGFN files read here,
 * not through the loader.
 */
class DumpDebtDataTest {
    @TempDir
    static Path tmp;

    static GeneratedDump dump;
    static final List<Establishment> generated = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void generate() {
        dump = DumpGenerator.generate(
                tmp.resolve("dump"),
                GeneratorOptions.builder(4_000).seed(21).quirkRate(0).threads(2).build(),
                generated::add);
    }

    private static BuildOptions build() {
        return BuildOptions.builder().ramBufferMb(32).indexingThreads(1).build();
    }

    private static DumpLoader.Result load(LoadOptions.Builder options, String index) {
        return DumpLoader.load(options.build(), tmp.resolve(index), build());
    }

    private static long count(LuceneRegister register, String name, String value) {
        return register.count(
                        name.equals("divida")
                                ? RegisterQuery.builder()
                                        .divida(Boolean.valueOf(value))
                                        .build()
                                : RegisterQuery.builder()
                                        .values(
                                                RegisterQuery.Filter.byField(name)
                                                        .orElseThrow(),
                                                value)
                                        .build())
                .total();
    }

    /** The roots of the "Pessoa jurídica" rows of every CSV in the folder's ZIPs; and the CSV names. */
    private static Set<String> debtorRoots(Path folder, List<String> csvNames) throws IOException {
        Set<String> roots = new HashSet<>();
        try (var files = Files.list(folder)) {
            for (Path zipPath : files.sorted().toList()) {
                try (ZipFile zip = new ZipFile(zipPath.toFile())) {
                    for (ZipEntry e : Collections.list(zip.entries())) {
                        csvNames.add(e.getName());
                        String text = new String(zip.getInputStream(e).readAllBytes(), StandardCharsets.ISO_8859_1);
                        for (String line : text.split("\n")) {
                            String[] f = line.split(";", -1);
                            if (f.length > 1 && f[1].startsWith("Pessoa jur")) {
                                roots.add(f[0].replaceAll("[^0-9A-Z]", "").substring(0, 8));
                            }
                        }
                    }
                }
            }
        }
        return roots;
    }

    @Test
    void aLoadWithoutDebtReadsTheDumpsDebtFolderAndCountsTheGeneratedDebtExactly() throws IOException {
        List<String> csvs = new ArrayList<>();
        Set<String> debtors = debtorRoots(dump.dir().resolve("debt"), csvs);
        assertEquals(dump.debtCompanies(), debtors.size());
        long withDebt = generated.stream()
                .filter(e -> debtors.contains(e.cnpj().value().substring(0, 8)))
                .count();
        assertTrue(withDebt > 0 && withDebt < generated.size(), "some establishments have debt: " + withDebt);

        DumpLoader.Result result = load(DumpFixture.options(dump.dir(), tmp.resolve("w1")), "index");
        assertTrue(result.published().debtData());

        LoadSummary.DebtFiles debt = result.summary().debt();
        assertEquals(dump.dir().resolve("debt").toAbsolutePath().normalize(), debt.folder());
        assertEquals(List.of("Dados_abertos_Nao_Previdenciario.zip"), debt.files());
        assertEquals(csvs.size(), debt.csvs());
        // The reference month the PGFN file names carry (arquivo_lai_SIDA_1_202606.csv: June 2026).
        TreeSet<String> months = new TreeSet<>();
        for (String name : csvs) {
            Matcher m = Pattern.compile("_(\\d{4})(\\d{2})\\.csv$").matcher(name);
            assertTrue(m.find(), name);
            months.add(m.group(1) + "-" + m.group(2));
        }
        assertEquals(List.copyOf(months), debt.references());
        String rendered = result.summary().render();
        assertTrue(
                rendered.contains("  PGFN debt: Dados_abertos_Nao_Previdenciario.zip (" + csvs.size()
                        + " CSV files) from " + debt.folder() + ", reference date " + months.first() + "\n"),
                rendered);

        try (LuceneRegister register = LuceneRegister.open(tmp.resolve("index"))) {
            assertEquals(generated.size(), register.published().documents());
            assertEquals(withDebt, count(register, "divida", "true"));
            assertEquals(generated.size() - withDebt, count(register, "divida", "false"));
        }
    }

    @Test
    void aDebtFolderGivenElsewhereWinsOverTheDumpsOwn() throws IOException {
        // One debtor only, in a folder of its own: the count is that root's establishments, not the dump's debt.
        String root = generated.get(0).cnpj().value().substring(0, 8);
        long ofRoot = generated.stream()
                .filter(e -> e.cnpj().value().startsWith(root))
                .count();
        Path other = Files.createDirectories(tmp.resolve("other-debt"));
        String formatted = generated.get(0).cnpj().value();
        Files.writeString(
                other.resolve("arquivo_lai_SIDA_1_202503.csv"),
                "CPF_CNPJ;TIPO_PESSOA;NOME_DEVEDOR\n" + formatted + ";Pessoa jurídica;X\n",
                StandardCharsets.ISO_8859_1);
        DumpLoader.Result result =
                load(DumpFixture.options(dump.dir(), tmp.resolve("w2")).debt(other), "index-other");
        assertEquals(List.of("2025-03"), result.summary().debt().references());
        assertEquals(other.toAbsolutePath().normalize(), result.summary().debt().folder());
        try (LuceneRegister register = LuceneRegister.open(tmp.resolve("index-other"))) {
            assertEquals(ofRoot, count(register, "divida", "true"));
        }
    }

    @Test
    void aDumpWithoutDebtFilesPublishesAGenerationWithoutDebtDataThatRefusesDivida() {
        GeneratedDump none = DumpGenerator.generate(
                tmp.resolve("no-debt"),
                GeneratorOptions.builder(1_000).seed(3).debtShare(0).threads(2).build());
        assertNull(none.debtDir());
        DumpLoader.Result result = load(DumpFixture.options(none.dir(), tmp.resolve("w3")), "index-none");
        assertNull(result.summary().debt());
        assertFalse(result.published().debtData());
        assertTrue(
                result.summary().render().contains("  PGFN debt: no PGFN debt data"),
                result.summary().render());
        PublishedIndex recorded =
                LuceneRegister.currentGeneration(tmp.resolve("index-none")).orElseThrow();
        assertFalse(recorded.debtData(), "recorded in the generation's metadata");
        try (LuceneRegister register = LuceneRegister.open(tmp.resolve("index-none"))) {
            for (String value : List.of("true", "false")) {
                InvalidParameterException e =
                        assertThrows(InvalidParameterException.class, () -> count(register, "divida", value));
                assertEquals("divida", e.violation().field());
                assertEquals("no-debt-data", e.violation().rule());
                assertTrue(e.getMessage().contains("without PGFN debt data"), e.getMessage());
                RegisterQuery page = RegisterQuery.builder()
                        .ufs("SP")
                        .divida(Boolean.valueOf(value))
                        .build();
                assertThrows(InvalidParameterException.class, () -> register.search(page));
                assertThrows(InvalidParameterException.class, () -> register.export(page, 10, x -> {}));
            }
            assertTrue(count(register, "ufs", "SP") > 0, "other filters are answered");
        }
    }

    @Test
    void aDebtFolderWithoutDebtFilesIsAStructuralFault() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty-debt"));
        StructuralFaultException e = assertThrows(
                StructuralFaultException.class,
                () -> load(DumpFixture.options(dump.dir(), tmp.resolve("w4")).debt(empty), "index-empty"));
        assertTrue(e.getMessage().contains("holds no PGFN debt file"), e.getMessage());
    }
}
