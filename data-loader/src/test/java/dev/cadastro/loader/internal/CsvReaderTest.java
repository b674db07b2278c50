package dev.cadastro.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvReaderTest {
    private static List<List<String>> read(byte[] input) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(input), ';', 64)) {
            while (r.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 0; i < r.fieldCount(); i++) {
                    row.add(r.string(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static List<List<String>> read(String latin1) throws IOException {
        return read(latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void readsQuotedFieldsAndTurnsEmptyOnesIntoNull() throws IOException {
        assertEquals(List.of(java.util.Arrays.asList("33683111", null, "0,00")), read("\"33683111\";\"\";\"0,00\"\n"));
    }

    @Test
    void keepsSeparatorsAndUndoubledQuotesInsideAQuotedField() throws IOException {
        List<List<String>> rows = read("\"BAR \"DO ZE\"; LANCHES\";\"X\"\n\"A\"\"B\";\"\"\"\"\n");
        assertEquals(List.of("BAR \"DO ZE\"; LANCHES", "X"), rows.get(0));
        assertEquals("A\"\"B", rows.get(1).get(0), "a quote not followed by ; or a line end is text");
        assertEquals("\"\"", rows.get(1).get(1));
    }

    @Test
    void keepsALineFeedInsideAQuotedFieldAndCountsPhysicalLines() throws IOException {
        byte[] in = "\"1\";\"BLOCO 2\nSALA 3\"\n\"2\";\"X\"\n".getBytes(StandardCharsets.ISO_8859_1);
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(in))) {
            assertTrue(r.next());
            assertEquals("BLOCO 2\nSALA 3", r.string(1));
            assertEquals(1, r.lineNumber());
            assertTrue(r.next());
            assertEquals("2", r.string(0));
            assertEquals(3, r.lineNumber(), "the second record starts on physical line 3");
            assertFalse(r.next());
        }
    }

    @Test
    void dropsNulBytesAndCarriageReturnsBeforeLineEnds() throws IOException {
        byte[] in = {'"', 'A', 0, 'B', '"', ';', '"', 'C', '"', '\r', '\n', 'x', ';', 'y', '\r', '\n'};
        assertEquals(List.of(List.of("AB", "C"), List.of("x", "y")), read(in));
    }

    @Test
    void decodesIso88591AndWin1252Bytes() throws IOException {
        byte[] in = {'"', (byte) 0xC3, 'O', ' ', (byte) 0x96, ' ', (byte) 0x93, 'X', (byte) 0x94, '"', '\n'};
        assertEquals("ÃO – “X”", read(in).get(0).get(0));
    }

    @Test
    void skipsEmptyLinesAndCountsThem() throws IOException {
        byte[] in = "\"a\"\n\n\r\n\"b\"\n\n".getBytes(StandardCharsets.ISO_8859_1);
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(in))) {
            assertTrue(r.next());
            assertTrue(r.next());
            assertEquals("b", r.string(0));
            assertEquals(4, r.lineNumber());
            assertFalse(r.next());
            assertEquals(3, r.blankLines());
        }
    }

    @Test
    void readsUnquotedFieldsAsThePgfnFilesWriteThem() throws IOException {
        assertEquals(
                List.of(List.of("12.345.678/0001-95", "Pessoa jurídica", "1.234,56")),
                read("12.345.678/0001-95;Pessoa jurídica;1.234,56\n"));
    }

    @Test
    void treatsQuotesAsTextWhenQuotingIsOff() throws IOException {
        byte[] in = "\"JOSE\" BAR;Pessoa jurídica\n".getBytes(StandardCharsets.ISO_8859_1);
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(in), ';', 1024, false)) {
            assertTrue(r.next());
            assertEquals("\"JOSE\" BAR", r.string(0));
            assertEquals("Pessoa jurídica", r.string(1));
        }
    }

    @Test
    void readsALastLineWithoutLineEnd() throws IOException {
        assertEquals(List.of(List.of("a", "b")), read("\"a\";\"b\""));
    }

    @Test
    void flagsAFileThatEndsInsideAQuotedField() throws IOException {
        byte[] in = "\"a\";\"never closed\n".getBytes(StandardCharsets.ISO_8859_1);
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(in))) {
            assertTrue(r.next());
            assertTrue(r.unterminated());
        }
    }

    @Test
    void cutsARunawayRecordAtTheNextLineEndOnceItPassesTheMaximum() throws IOException {
        String runaway = "\"x\";\"" + "y".repeat(100) + "\n\"z\";\"w\"\n\"ok\";\"1\"\n";
        try (CsvReader r =
                new CsvReader(new ByteArrayInputStream(runaway.getBytes(StandardCharsets.ISO_8859_1)), ';', 64)) {
            assertTrue(r.next());
            assertTrue(r.oversized());
            assertTrue(r.next());
            assertFalse(r.oversized());
            assertTrue(r.next());
            assertEquals("ok", r.string(0));
        }
    }

    @Test
    void returnsTheWholeOfALongFieldReadTheSlowWay() throws IOException {
        // The quote inside the field sends the record down the copying path, whose buffer must grow.
        String longText = "X\"Y" + "z".repeat(5000);
        byte[] in = ("\"" + longText + "\";\"end\"\n").getBytes(StandardCharsets.ISO_8859_1);
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(in))) {
            assertTrue(r.next());
            assertFalse(r.oversized());
            assertEquals(longText, r.string(0));
            assertEquals("end", r.string(1));
        }
    }

    @Test
    void rawTextKeepsTheQuotesAsWritten() throws IOException {
        byte[] in = "\"a\";\"b\"\n".getBytes(StandardCharsets.ISO_8859_1);
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(in))) {
            assertTrue(r.next());
            assertEquals("\"a\";\"b\"", r.rawText());
        }
    }
}
