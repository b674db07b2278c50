package dev.cadastro.exports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.register.Empresa;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.dhatim.fastexcel.reader.Cell;
import org.dhatim.fastexcel.reader.CellType;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.ReadingOptions;
import org.dhatim.fastexcel.reader.Row;
import org.dhatim.fastexcel.reader.Sheet;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The XLSX read back with fastexcel-reader (values, types, formats) and as raw sheet XML (pane, fonts). */
class XlsxExportTest {
    private static final int CNPJ = 0;
    private static final int RAZAO_SOCIAL = 1;
    private static final int SITUACAO = 3;
    private static final int CNAE = 5;
    private static final int PORTE = 9;
    private static final int CAPITAL = 11;
    private static final int DATA_ABERTURA = 12;
    private static final int CEP = 16;

    private static byte[] xlsx(List<Empresa> leads) {
        return Leads.onlyEntry(Leads.export(ExportFormat.XLSX, "mailing-1.xlsx", leads));
    }

    private static List<Row> rows(byte[] xlsx) throws IOException {
        try (ReadableWorkbook workbook =
                new ReadableWorkbook(new ByteArrayInputStream(xlsx), new ReadingOptions(true, false))) {
            List<Sheet> sheets = workbook.getSheets().toList();
            assertEquals(1, sheets.size(), "sheets");
            return sheets.getFirst().read();
        }
    }

    /**
     * One XML part of the workbook, read through the ZIP's central directory as spreadsheets do (the
     * workbook's local headers leave the sizes to the central directory).
     */
    private static Document part(byte[] xlsx, String name) throws Exception {
        Path file = Files.createTempFile("export", ".xlsx");
        try {
            Files.write(file, xlsx);
            try (ZipFile zip = new ZipFile(file.toFile())) {
                ZipEntry entry = zip.getEntry(name);
                assertNotNull(entry, "no part " + name);
                DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                try (InputStream in = zip.getInputStream(entry)) {
                    return factory.newDocumentBuilder().parse(in);
                }
            }
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void headerRowNamesEveryEmpresaFieldInRecordOrder() throws IOException {
        Row header = rows(xlsx(List.of())).getFirst();
        List<String> expected = Leads.components().stream()
                .map(c -> Leads.snakeCase(c.getName()))
                .toList();
        for (int c = 0; c < expected.size(); c++) {
            assertEquals(expected.get(c), header.getCell(c).asString());
        }
        assertEquals(expected.size(), header.getCellCount());
    }

    @Test
    void codesAreTextCellsWithTheirLeadingZeros() throws IOException {
        Row row = rows(xlsx(List.of(Leads.typical()))).get(1);
        for (int c : new int[] {CNPJ, SITUACAO, CNAE, PORTE, CEP}) {
            assertEquals(CellType.STRING, row.getCell(c).getType(), "column " + c);
        }
        assertEquals("00623904000173", row.getCell(CNPJ).asString());
        assertEquals("02", row.getCell(SITUACAO).asString());
        assertEquals("0111301", row.getCell(CNAE).asString());
        assertEquals("01", row.getCell(PORTE).asString());
        assertEquals("01310100", row.getCell(CEP).asString());
    }

    @Test
    void capitalIsANumberShownWithTwoDecimals() throws IOException {
        Cell capital = rows(xlsx(List.of(Leads.typical()))).get(1).getCell(CAPITAL);
        assertEquals(CellType.NUMBER, capital.getType());
        assertEquals(0, new BigDecimal("1234.50").compareTo(capital.asNumber()));
        assertEquals("#,##0.00", capital.getDataFormatString());
    }

    @Test
    void openingDateIsADateCellWithADateFormat() throws IOException {
        Cell date = rows(xlsx(List.of(Leads.typical()))).get(1).getCell(DATA_ABERTURA);
        assertEquals(CellType.NUMBER, date.getType());
        assertEquals("dd/mm/yyyy", date.getDataFormatString());
        assertEquals(LocalDate.of(2015, 3, 25).atStartOfDay(), date.asDate());
    }

    @Test
    void textThatLooksLikeAFormulaStaysPlainTextUnchanged() throws IOException {
        Row row = rows(xlsx(Leads.nasty())).get(2);
        Cell name = row.getCell(RAZAO_SOCIAL);
        assertEquals(CellType.STRING, name.getType());
        assertNull(name.getFormula());
        assertEquals("=HYPERLINK(\"http://mal.example\";\"clique\")", name.asString());
    }

    @Test
    void everyFieldReadsBackUnchangedOverManyFlushes() throws IOException {
        List<Empresa> leads = new java.util.ArrayList<>(Leads.nasty());
        leads.addAll(Leads.many(3_000));
        List<Row> rows = rows(xlsx(leads));
        assertEquals(leads.size() + 1, rows.size());
        List<RecordComponent> components = Leads.components();
        for (int i = 0; i < leads.size(); i++) {
            Row row = rows.get(i + 1);
            Empresa lead = leads.get(i);
            for (int c = 0; c < components.size(); c++) {
                Object expected = Leads.field(lead, components.get(c));
                if (expected instanceof String s && s.isEmpty()) {
                    expected = null;
                }
                Cell cell = row.getCellCount() > c ? row.getCell(c) : null;
                String where = "row " + (i + 1) + " column " + components.get(c).getName();
                if (expected == null) {
                    assertTrue(cell == null || cell.getType() == CellType.EMPTY, where + ": " + cell);
                } else if (expected instanceof BigDecimal amount) {
                    assertEquals(CellType.NUMBER, cell.getType(), where);
                    assertEquals(0, amount.compareTo(cell.asNumber()), where);
                    assertEquals("#,##0.00", cell.getDataFormatString(), where);
                } else if (expected instanceof LocalDate date) {
                    assertEquals(date.atStartOfDay(), cell.asDate(), where);
                    assertEquals("dd/mm/yyyy", cell.getDataFormatString(), where);
                } else {
                    assertEquals(CellType.STRING, cell.getType(), where);
                    // XML 1.0 cannot carry a bare CR: spreadsheets read a CR LF in a cell as LF.
                    assertEquals(
                            ((String) expected).replace("\r\n", "\n"),
                            cell.asString().replace("\r\n", "\n"),
                            where);
                }
            }
        }
    }

    @Test
    void headerRowIsFrozen() throws Exception {
        Document sheet = part(xlsx(List.of(Leads.typical())), "xl/worksheets/sheet1.xml");
        NodeList panes = sheet.getElementsByTagName("pane");
        assertEquals(1, panes.getLength());
        Element pane = (Element) panes.item(0);
        assertEquals("frozen", pane.getAttribute("state"));
        assertEquals("1", pane.getAttribute("ySplit"));
        assertEquals("A2", pane.getAttribute("topLeftCell"));
        assertTrue(pane.getAttribute("xSplit").isEmpty()
                || pane.getAttribute("xSplit").equals("0"));
    }

    @Test
    void headerIsBoldAndDataIsNot() throws Exception {
        byte[] file = xlsx(List.of(Leads.typical()));
        Document sheet = part(file, "xl/worksheets/sheet1.xml");
        Document styles = part(file, "xl/styles.xml");
        Element fonts = (Element) styles.getElementsByTagName("fonts").item(0);
        Element cellXfs = (Element) styles.getElementsByTagName("cellXfs").item(0);
        NodeList fontList = fonts.getElementsByTagName("font");
        NodeList xfs = cellXfs.getElementsByTagName("xf");
        Map<String, Boolean> boldByCell = new java.util.HashMap<>();
        NodeList cells = sheet.getElementsByTagName("c");
        for (int i = 0; i < cells.getLength(); i++) {
            Element c = (Element) cells.item(i);
            String s = c.getAttribute("s");
            int xf = s.isEmpty() ? 0 : Integer.parseInt(s);
            int font = Integer.parseInt(((Element) xfs.item(xf)).getAttribute("fontId"));
            boolean bold =
                    ((Element) fontList.item(font)).getElementsByTagName("b").getLength() > 0;
            boldByCell.put(c.getAttribute("r"), bold);
        }
        Map<Boolean, List<String>> byRow = boldByCell.entrySet().stream()
                .collect(Collectors.partitioningBy(
                        e -> e.getKey().matches("[A-Z]+1"),
                        Collectors.mapping(e -> e.getKey() + "=" + e.getValue(), Collectors.toList())));
        assertEquals(20, byRow.get(true).size());
        assertTrue(
                byRow.get(true).stream().allMatch(s -> s.endsWith("=true")),
                byRow.get(true).toString());
        assertTrue(
                byRow.get(false).stream().allMatch(s -> s.endsWith("=false")),
                byRow.get(false).toString());
    }

    @Test
    void columnsHaveSetWidths() throws Exception {
        Document sheet = part(xlsx(List.of(Leads.typical())), "xl/worksheets/sheet1.xml");
        NodeList cols = sheet.getElementsByTagName("col");
        assertEquals(20, cols.getLength());
        for (int i = 0; i < cols.getLength(); i++) {
            double width = Double.parseDouble(((Element) cols.item(i)).getAttribute("width"));
            assertTrue(width >= 5 && width <= 40, "column " + i + " width " + width);
        }
        assertNotNull(sheet.getDocumentElement());
    }
}
