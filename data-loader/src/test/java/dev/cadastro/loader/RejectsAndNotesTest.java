package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.testing.DumpFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rejects and notes that no other test reaches, each followed to where a user sees it: the counts
 * of the {@link LoadSummary}, its rendered text, and the line of the rejects file (entry, line number,
 * reason, raw row).
 */
class RejectsAndNotesTest {
    @TempDir
    Path tmp;

    private static final String A = Cnpj.withCheckDigits("112223330001").value();
    private static final String B = Cnpj.withCheckDigits("778899000001").value();
    private static final String C = Cnpj.withCheckDigits("445556660001").value();
    /** One field longer than the reader's 1 MiB record limit. */
    private static final String HUGE = "X".repeat((1 << 20) + 100);

    private CollectingSink sink;
    private LoadSummary summary;
    private List<String[]> rejects;

    private static String empresa(String root, String razao, String natureza, String capital) {
        return "\"" + root + "\";\"" + razao + "\";\"" + natureza + "\";\"49\";\"" + capital + "\";\"05\";\"\"\n";
    }

    @BeforeEach
    void load() throws Exception {
        String empresas0 = empresa("11222333", "EMPRESA A LTDA", "2062", "1000,00") // line 1
                + empresa("22333444", "NATUREZA LONGA", "2".repeat(256), "0,00") // line 2: field-too-long
                + empresa("44555666", "CAPITAL TORTO SA", "2062", "12,3X"); // line 3: kept, capital-invalid
        String empresas1 = empresa("55666777", "OUTRA SA", "2062", "0,00") // line 1
                + "\"66777888\";\"SEM FIM"; // line 2: the file ends inside the quote
        String estabelecimentos = DumpFixture.estab(A) // line 1
                + DumpFixture.estab(B, 4, HUGE) // line 2: oversized
                + DumpFixture.estab(C); // line 3
        String simples = "\"11222333\";\"S\";\"20180101\";\"00000000\";\"N\";\"00000000\";\"00000000\"\n"
                + "\"11222333\";\"N\";\"00000000\";\"00000000\";\"S\";\"20190101\";\"00000000\"\n"; // duplicate root
        Path dump = DumpFixture.dump()
                .rows(Family.EMPRESAS, 0, empresas0)
                .rows(Family.EMPRESAS, 1, empresas1)
                .rows(Family.ESTABELECIMENTOS, 0, estabelecimentos)
                .rows(Family.SIMPLES, simples)
                .writeTo(tmp.resolve("dump"));
        sink = new CollectingSink();
        summary = DumpReader.open(DumpFixture.options(dump, tmp).build()).readInto(sink);
        rejects = new ArrayList<>();
        List<String> lines = Files.readAllLines(tmp.resolve("rejects.tsv"), StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            rejects.add(line.split("\t", 4));
        }
    }

    private String[] rejectOf(String reason) {
        List<String[]> found = rejects.stream().filter(r -> r[2].equals(reason)).toList();
        assertEquals(
                1,
                found.size(),
                reason + " in "
                        + rejects.stream()
                                .map(r -> r[0] + ":" + r[1] + ":" + r[2])
                                .toList());
        return found.get(0);
    }

    /** The rendered summary line of one family. */
    private String renderedLine(String family) {
        return summary.render()
                .lines()
                .filter(l -> l.startsWith("  " + family + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + family + " in\n" + summary.render()));
    }

    @Test
    void rejectsACompanyCodeLongerThanTheLayoutAllows() {
        String[] r = rejectOf("field-too-long");
        assertEquals("K3241.K03200Y0.D60808.EMPRECSV", r[0]);
        assertEquals("2", r[1]);
        assertTrue(r[3].startsWith("\"22333444\";\"NATUREZA LONGA\";\"222"), r[3]);
        assertEquals(1L, summary.families().get("Empresas").rejected().get(RejectReason.FIELD_TOO_LONG));
        assertTrue(renderedLine("Empresas").contains("field-too-long 1"), renderedLine("Empresas"));
    }

    @Test
    void rejectsARowThatTheEndOfItsFileLeavesInsideAQuote() {
        String[] r = rejectOf("unterminated-quote");
        assertEquals("K3241.K03200Y1.D60808.EMPRECSV", r[0]);
        assertEquals("2", r[1]);
        assertTrue(r[3].startsWith("\"66777888\";\"SEM FIM"), r[3]);
        assertEquals(1L, summary.families().get("Empresas").rejected().get(RejectReason.UNTERMINATED_QUOTE));
        assertTrue(renderedLine("Empresas").contains("unterminated-quote 1"), renderedLine("Empresas"));
        assertEquals(5, summary.families().get("Empresas").read());
        assertEquals(3, summary.families().get("Empresas").loaded());
    }

    @Test
    void rejectsAnOversizedRowAndLoadsTheRowsAroundIt() {
        String[] r = rejectOf("oversized");
        assertEquals("K3241.K03200Y0.D60808.ESTABELE", r[0]);
        assertEquals("2", r[1]);
        assertTrue(r[3].startsWith("\"77889900\";\"0001\""), r[3].substring(0, 40));
        assertTrue(r[3].length() <= (1 << 20) + 16, "the raw row is cut at the record limit: " + r[3].length());
        assertNull(sink.get(B));
        assertNotNull(sink.get(A));
        assertNotNull(sink.get(C), "the row after the oversized one is read whole");
        var est = summary.families().get("Estabelecimentos");
        assertEquals(Map.of(RejectReason.OVERSIZED, 1L), est.rejected());
        assertEquals(3, est.read());
        assertEquals(2, est.loaded());
        assertTrue(renderedLine("Estabelecimentos").contains("oversized 1"), renderedLine("Estabelecimentos"));
    }

    @Test
    void notesACapitalThatIsNotANumberAndKeepsTheCompanyWithoutIt() {
        assertEquals(1L, summary.notes().get(Note.CAPITAL_INVALID));
        assertNull(summary.notes().get(Note.CAPITAL_PLACEHOLDER));
        assertEquals("CAPITAL TORTO SA", sink.get(C).company().razaoSocial());
        assertNull(sink.get(C).company().capitalSocialCentavos());
        assertEquals(100_000L, sink.get(A).company().capitalSocialCentavos());
        assertTrue(summary.render().contains("kept with corrections: capital-invalid 1"), summary.render());
        assertTrue(rejects.stream().noneMatch(r -> r[3].startsWith("\"44555666\"")), "a noted row is not a reject");
    }

    @Test
    void keepsTheFirstSimplesRowOfARootAndRejectsTheRepeat() {
        String[] r = rejectOf("duplicate");
        assertEquals("F.K03200$W.SIMPLES.CSV.D60808", r[0]);
        assertEquals("2", r[1]);
        assertTrue(r[3].startsWith("\"11222333\";\"N\""), r[3]);
        var s = sink.get(A).simples();
        assertEquals(Boolean.TRUE, s.simples(), "the first row's option");
        assertEquals(LocalDate.of(2018, 1, 1), s.dataOpcaoSimples());
        assertEquals(Boolean.FALSE, s.mei());
        assertNull(s.dataOpcaoMei());
        var simples = summary.families().get("Simples");
        assertEquals(Map.of(RejectReason.DUPLICATE, 1L), simples.rejected());
        assertEquals(2, simples.read());
        assertEquals(1, simples.loaded());
        assertTrue(renderedLine("Simples").contains("duplicate 1"), renderedLine("Simples"));
    }

    @Test
    void theRejectsFileHoldsExactlyTheseFourRows() {
        assertEquals(4, rejects.size());
        assertEquals(4, summary.rejectedTotal());
    }
}
