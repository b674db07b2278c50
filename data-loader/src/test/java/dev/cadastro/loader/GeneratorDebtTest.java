package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.testing.DumpFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The synthetic PGFN active-debt files: written in the layout the loader reads, for the documented
 * share of the companies (6%), and loaded with {@code --debt} they flag exactly those companies.
 */
class GeneratorDebtTest {
    @TempDir
    static Path tmp;

    static GeneratedDump dump;
    static CollectingSink sink;
    static LoadSummary summary;

    @BeforeAll
    static void generateAndLoad() {
        dump = DumpGenerator.generate(
                tmp.resolve("dump"),
                GeneratorOptions.builder(60_000)
                        .seed(11)
                        .quirkRate(0)
                        .threads(2)
                        .build());
        sink = new CollectingSink();
        summary = DumpReader.open(DumpFixture.options(dump.dir(), tmp)
                        .debt(dump.debtDir())
                        .indexThreads(2)
                        .build())
                .readInto(sink);
    }

    @Test
    void writesOneZipOfSidaFilesWithThePgfnHeader() throws IOException {
        assertEquals(dump.dir().resolve("debt"), dump.debtDir());
        try (ZipFile zip = new ZipFile(
                dump.debtDir().resolve("Dados_abertos_Nao_Previdenciario.zip").toFile())) {
            List<String> names = Collections.list(zip.entries()).stream()
                    .map(e -> e.getName())
                    .toList();
            assertEquals(10, names.size(), names.toString());
            assertEquals("arquivo_lai_SIDA_1_202606.csv", names.get(0));
            String text = new String(
                    zip.getInputStream(zip.getEntry(names.get(0))).readAllBytes(), StandardCharsets.ISO_8859_1);
            String[] lines = text.split("\n");
            assertEquals(
                    "CPF_CNPJ;TIPO_PESSOA;TIPO_DEVEDOR;NOME_DEVEDOR;UF_DEVEDOR;UNIDADE_RESPONSAVEL;NUMERO_INSCRICAO;"
                            + "TIPO_SITUACAO_INSCRICAO;SITUACAO_INSCRICAO;RECEITA_PRINCIPAL;DATA_INSCRICAO;"
                            + "INDICADOR_AJUIZADO;VALOR_CONSOLIDADO",
                    lines[0]);
            String[] first = lines[1].split(";", -1);
            assertEquals(13, first.length, lines[1]);
            assertTrue(first[0].matches("[0-9A-Z]{2}\\.[0-9A-Z]{3}\\.[0-9A-Z]{3}/0001-[0-9]{2}"), first[0]);
            assertEquals("Pessoa jurídica", first[1]);
            assertTrue(first[10].matches("\\d{2}/\\d{2}/\\d{4}"), first[10]);
            assertFalse(text.contains("\""), "no quotes");
        }
    }

    @Test
    void everyCompanyRowLoadsAndNaturalPersonsAreSkipped() {
        var pgfn = summary.families().get("PGFN");
        assertEquals(dump.debtRows(), pgfn.loaded());
        assertEquals(
                0, pgfn.rejected().values().stream().mapToLong(Long::longValue).sum());
        assertTrue(summary.notes().getOrDefault(Note.DEBT_NOT_COMPANY, 0L) > 0, "co-responsible persons");
    }

    @Test
    void flagsExactlyTheDebtorCompaniesAboutSixPercentOfThem() {
        Map<String, Boolean> byRoot = new HashMap<>();
        for (Establishment e : sink.byCnpj.values()) {
            Boolean before = byRoot.put(e.cnpj().value().substring(0, 8), e.divida());
            assertTrue(before == null || before == e.divida(), "every establishment of a root alike: " + e.cnpj());
        }
        long debtors = byRoot.values().stream().filter(b -> b).count();
        assertEquals(dump.debtCompanies(), debtors);
        assertEquals(dump.companies(), byRoot.size());
        double share = debtors / (double) byRoot.size();
        assertTrue(Math.abs(share - 0.06) <= 0.005, "share of companies with debt: " + share);
    }

    @Test
    void aZeroShareWritesNoDebtFolder() {
        GeneratedDump none = DumpGenerator.generate(
                tmp.resolve("none"),
                GeneratorOptions.builder(1_000).debtShare(0).build());
        assertNull(none.debtDir());
        assertEquals(0, none.debtCompanies());
    }
}
