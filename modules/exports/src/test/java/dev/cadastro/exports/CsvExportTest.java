package dev.cadastro.exports;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.register.Empresa;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvExportTest {

    private static byte[] csv(List<Empresa> leads) {
        return Leads.onlyEntry(Leads.export(ExportFormat.CSV, "mailing-1.csv", leads));
    }

    /** The raw cells of data row {@code index} (1 is the first record), before any decoding. */
    private static List<String> rawRow(List<Empresa> leads, int index) {
        return PtBrCsv.parse(csv(leads)).get(index);
    }

    @Test
    void startsWithTheUtf8ByteOrderMark() {
        byte[] file = csv(List.of(Leads.typical()));
        assertArrayEquals(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, Arrays.copyOf(file, 3));
    }

    @Test
    void headerNamesEveryEmpresaFieldInRecordOrder() {
        List<String> header = PtBrCsv.parse(csv(List.of())).getFirst();
        List<String> expected = Leads.components().stream()
                .map(c -> Leads.snakeCase(c.getName()))
                .toList();
        assertEquals(expected, header);
        assertEquals("cnpj", header.getFirst());
        assertEquals("email", header.getLast());
    }

    @Test
    void everyRowEndsWithCrLfAndNoLineBreakIsBare() {
        String text = new String(csv(Leads.nasty()), StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\r\n"));
        // The parser rejects a bare LF or CR outside quotes; it reads the header and one row per record.
        assertEquals(1 + Leads.nasty().size(), PtBrCsv.parse(csv(Leads.nasty())).size());
        assertTrue(text.startsWith("\uFEFFcnpj;razao_social;nome_fantasia;"));
    }

    @Test
    void nastyValuesReadBackFieldByField() {
        List<Empresa> leads = Leads.nasty();
        List<List<String>> rows = PtBrCsv.parse(csv(leads));
        for (int i = 0; i < leads.size(); i++) {
            PtBrCsv.assertSameLead(leads.get(i), PtBrCsv.decode(rows.get(i + 1)), i + 1);
        }
    }

    @Test
    void manyRowsReadBackFieldByField() {
        List<Empresa> leads = Leads.many(5_000);
        List<List<String>> rows = PtBrCsv.parse(csv(leads));
        assertEquals(5_001, rows.size());
        for (int i = 0; i < leads.size(); i++) {
            PtBrCsv.assertSameLead(leads.get(i), PtBrCsv.decode(rows.get(i + 1)), i + 1);
        }
    }

    @Test
    void codesAreFormulasThatYieldTextSoLeadingZerosSurvive() {
        List<String> row = rawRow(List.of(Leads.typical()), 1);
        assertEquals("=\"00623904000173\"", row.get(0));
        assertEquals("=\"02\"", row.get(3));
        assertEquals("=\"0111301\"", row.get(5));
        assertEquals("=\"2062\"", row.get(7));
        assertEquals("=\"01\"", row.get(9));
        assertEquals("=\"01310100\"", row.get(16));
        assertEquals("=\"(11) 91234-5678\"", row.get(18));
        String text = new String(csv(List.of(Leads.typical())), StandardCharsets.UTF_8);
        assertTrue(text.contains("\r\n\"=\"\"00623904000173\"\"\";"), text);
    }

    @Test
    void aCodeThatIsNotPlainIsWrittenAsDefusedTextNotAsAFormula() {
        List<String> row = rawRow(Leads.nasty(), 2);
        assertEquals("0131;0100", row.get(16));
        assertEquals("'=1+1", row.get(18));
    }

    @Test
    void textThatLooksLikeAFormulaGetsOneLeadingApostrophe() {
        List<String> row = rawRow(Leads.nasty(), 2);
        assertEquals("'=HYPERLINK(\"http://mal.example\";\"clique\")", row.get(1));
        assertEquals("'-10 graus", row.get(14));
        assertEquals("'+Centro", row.get(15));
        assertEquals("''já com apóstrofo", row.get(17));
        assertEquals("'@contato 😀", row.get(19));
        List<String> tabs = rawRow(Leads.nasty(), 4);
        assertEquals("'\tTAB NO INÍCIO", tabs.get(1));
        assertEquals("'\rCR NO INÍCIO", tabs.get(2));
    }

    @Test
    void ordinaryTextIsWrittenAsIs() {
        List<String> row = rawRow(List.of(Leads.typical()), 1);
        assertEquals("PADARIA SÃO JOÃO LTDA", row.get(1));
        assertEquals("contato@padaria.com.br", row.get(19));
        String text = new String(csv(List.of(Leads.typical())), StandardCharsets.UTF_8);
        assertTrue(text.contains(";PADARIA SÃO JOÃO LTDA;Pão Quente;"), text);
    }

    @Test
    void separatorsQuotesAndLineBreaksAreQuotedWithQuotesDoubled() {
        String text = new String(csv(List.of(Leads.nasty().get(1))), StandardCharsets.UTF_8);
        assertTrue(text.contains(";\"Bar \"\"do Zé\"\"; filial\r\nCentro\";"), text);
        assertTrue(text.contains(";\"Comércio; \"\"varejista\"\"\";"), text);
        assertTrue(text.contains(";\"Órgão Público\nFederal\";"), text);
    }

    @Test
    void capitalHasADecimalCommaTwoDecimalsAndNoThousandsSeparator() {
        assertEquals("1234,50", rawRow(List.of(Leads.typical()), 1).get(11));
        List<Empresa> nasty = Leads.nasty();
        assertEquals("123456789012,34", rawRow(nasty, 2).get(11));
        assertEquals("0,00", rawRow(nasty, 4).get(11));
        assertEquals("1,005", rawRow(nasty, 5).get(11));
    }

    @Test
    void datesAreDayMonthYear() {
        assertEquals("25/03/2015", rawRow(List.of(Leads.typical()), 1).get(12));
        assertEquals("01/01/1900", rawRow(Leads.nasty(), 2).get(12));
        assertEquals("29/02/2024", rawRow(Leads.nasty(), 5).get(12));
    }

    @Test
    void absentFieldsAreEmptyCells() {
        List<String> row = rawRow(Leads.nasty(), 3);
        assertEquals(20, row.size());
        assertTrue(row.stream().allMatch(String::isEmpty), row.toString());
        String text = new String(csv(List.of(Leads.nasty().get(2))), StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\r\n;;;;;;;;;;;;;;;;;;;\r\n"), text);
    }

    @Test
    void noFormulaOtherThanACodeConstantAppears() {
        for (List<String> row : PtBrCsv.parse(csv(Leads.nasty()))) {
            for (String cell : row) {
                if (cell.startsWith("=")) {
                    assertTrue(cell.matches("=\"[0-9A-Za-z ()./-]+\""), cell);
                }
                assertFalse(cell.startsWith("+") || cell.startsWith("-") || cell.startsWith("@"), cell);
            }
        }
    }
}
