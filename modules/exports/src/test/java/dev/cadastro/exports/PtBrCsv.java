package dev.cadastro.exports;

import dev.cadastro.core.register.Empresa;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * An independent reader of the export CSV, written from RFC 4180 and docs/mailing.md rather than from
 * the writer: strict about the byte-order mark, UTF-8, {@code ;} and CRLF, and decoding each cell
 * back to the record's value by the documented rules.
 */
final class PtBrCsv {
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("dd/MM/uuuu");

    private PtBrCsv() {}

    /** The rows of the file; fails on a missing BOM, bad UTF-8, a bare CR or LF, or a broken quote. */
    static List<List<String>> parse(byte[] file) {
        if (file.length < 3 || (file[0] & 0xFF) != 0xEF || (file[1] & 0xFF) != 0xBB || (file[2] & 0xFF) != 0xBF) {
            throw new AssertionError("no UTF-8 byte-order mark");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(file, 3, file.length - 3))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new AssertionError("not UTF-8", e);
        }
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        int i = 0;
        int n = text.length();
        boolean atCellStart = true;
        while (i < n) {
            char c = text.charAt(i);
            if (atCellStart && c == '"') {
                i++;
                while (true) {
                    if (i >= n) {
                        throw new AssertionError("unterminated quoted field in row " + (rows.size() + 1));
                    }
                    char q = text.charAt(i);
                    if (q == '"') {
                        if (i + 1 < n && text.charAt(i + 1) == '"') {
                            cell.append('"');
                            i += 2;
                        } else {
                            i++;
                            break;
                        }
                    } else {
                        cell.append(q);
                        i++;
                    }
                }
                if (i < n && text.charAt(i) != ';' && text.charAt(i) != '\r') {
                    throw new AssertionError("text after a closing quote in row " + (rows.size() + 1));
                }
                atCellStart = false;
            } else if (c == ';') {
                row.add(cell.toString());
                cell.setLength(0);
                atCellStart = true;
                i++;
            } else if (c == '\r') {
                if (i + 1 >= n || text.charAt(i + 1) != '\n') {
                    throw new AssertionError("CR without LF outside quotes in row " + (rows.size() + 1));
                }
                row.add(cell.toString());
                cell.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
                atCellStart = true;
                i += 2;
            } else if (c == '\n') {
                throw new AssertionError("LF without CR outside quotes in row " + (rows.size() + 1));
            } else if (c == '"') {
                throw new AssertionError("quote inside an unquoted field in row " + (rows.size() + 1));
            } else {
                cell.append(c);
                atCellStart = false;
                i++;
            }
        }
        if (!row.isEmpty() || cell.length() > 0) {
            throw new AssertionError("last row not ended by CRLF");
        }
        return rows;
    }

    /** A data row decoded back to a record, column by column in record order. */
    static Empresa decode(List<String> cells) {
        List<RecordComponent> components = Leads.components();
        if (cells.size() != components.size()) {
            throw new AssertionError("row has " + cells.size() + " cells, expected " + components.size());
        }
        Object[] values = new Object[components.size()];
        Class<?>[] types = new Class<?>[components.size()];
        for (int i = 0; i < values.length; i++) {
            RecordComponent component = components.get(i);
            types[i] = component.getType();
            String cell = cells.get(i);
            if (cell.isEmpty()) {
                values[i] = null;
            } else if (component.getType() == BigDecimal.class) {
                values[i] = new BigDecimal(cell.replace(',', '.'));
            } else if (component.getType() == LocalDate.class) {
                values[i] = LocalDate.parse(cell, DATE);
            } else if (cell.length() >= 3 && cell.startsWith("=\"") && cell.endsWith("\"")) {
                values[i] = cell.substring(2, cell.length() - 1);
            } else if (cell.startsWith("'")) {
                values[i] = cell.substring(1);
            } else {
                values[i] = cell;
            }
        }
        try {
            return Empresa.class.getDeclaredConstructor(types).newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What a record should read back as: empty text is an empty cell like an absent one. Amounts are
     * compared by value, so {@code 1234.5} and {@code 1234,50} agree.
     */
    static void assertSameLead(Empresa expected, Empresa actual, int row) {
        for (RecordComponent component : Leads.components()) {
            Object want = Leads.field(expected, component);
            Object got = Leads.field(actual, component);
            if (want instanceof String s && s.isEmpty()) {
                want = null;
            }
            boolean same = want instanceof BigDecimal w && got instanceof BigDecimal g
                    ? w.compareTo(g) == 0
                    : java.util.Objects.equals(want, got);
            if (!same) {
                throw new AssertionError("row " + row + " field " + component.getName() + ": expected <" + want
                        + "> but was <" + got + ">");
            }
        }
    }
}
