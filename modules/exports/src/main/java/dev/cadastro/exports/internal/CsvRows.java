package dev.cadastro.exports.internal;

import dev.cadastro.core.register.Empresa;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * CSV rows for Excel and LibreOffice in Portuguese (the rules are in the {@code dev.cadastro.exports}
 * package documentation and {@code docs/mailing.md}). Characters are encoded to UTF-8 straight into one
 * byte buffer that is handed to the stream when full: no per-cell strings, formats or regular
 * expressions on the way.
 */
public final class CsvRows implements LeadRows {
    private static final byte[] BYTE_ORDER_MARK = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final int BUFFER = 1 << 16;
    /** Room kept free for the longest thing written without a check: a 4-byte character or a CRLF. */
    private static final int LIMIT = BUFFER - 8;

    private final OutputStream out;
    private final List<LeadColumn> columns = LeadColumn.ALL;
    private final byte[] buffer = new byte[BUFFER];
    private int position;

    /** Writes the byte-order mark and the header row. */
    public CsvRows(OutputStream out) throws IOException {
        this.out = out;
        System.arraycopy(BYTE_ORDER_MARK, 0, buffer, 0, BYTE_ORDER_MARK.length);
        position = BYTE_ORDER_MARK.length;
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                put(';');
            }
            ascii(columns.get(i).header());
        }
        endRow();
    }

    @Override
    public void add(Empresa empresa) throws IOException {
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                put(';');
            }
            LeadColumn column = columns.get(i);
            switch (column.kind()) {
                case TEXT -> text(column.text(empresa));
                case CODE -> code(column.text(empresa));
                case DECIMAL -> decimal(column.decimal(empresa));
                case DATE -> date(column.date(empresa));
            }
        }
        endRow();
    }

    @Override
    public void finish() throws IOException {
        drain();
        out.flush();
    }

    /** Free text: defused when a spreadsheet could take it for a formula, quoted when RFC 4180 asks. */
    private void text(String value) throws IOException {
        if (value == null || value.isEmpty()) {
            return;
        }
        boolean quoted = needsQuotes(value);
        if (quoted) {
            put('"');
        }
        if (startsLikeAFormula(value.charAt(0))) {
            put('\'');
        }
        utf8(value, quoted);
        if (quoted) {
            put('"');
        }
    }

    /** A code kept as text by a formula that yields it: {@code "=""02"""}, when it is a plain code. */
    private void code(String value) throws IOException {
        if (value == null || value.isEmpty()) {
            return;
        }
        if (!isPlainCode(value)) {
            text(value);
            return;
        }
        put('"');
        put('=');
        put('"');
        put('"');
        ascii(value);
        put('"');
        put('"');
        put('"');
    }

    /** Decimal comma, no thousands separator, at least two decimals: {@code 1234,50}. */
    private void decimal(BigDecimal value) throws IOException {
        if (value == null) {
            return;
        }
        String plain = (value.scale() < 2 ? value.setScale(2) : value).toPlainString();
        for (int i = 0; i < plain.length(); i++) {
            char c = plain.charAt(i);
            put(c == '.' ? ',' : c);
        }
    }

    /** {@code dd/mm/yyyy}, read as a date by both spreadsheets in pt-BR. */
    private void date(LocalDate value) throws IOException {
        if (value == null) {
            return;
        }
        twoDigits(value.getDayOfMonth());
        put('/');
        twoDigits(value.getMonthValue());
        put('/');
        int year = value.getYear();
        if (year >= 0 && year <= 9999) {
            put((char) ('0' + year / 1000));
            put((char) ('0' + year / 100 % 10));
            put((char) ('0' + year / 10 % 10));
            put((char) ('0' + year % 10));
        } else {
            ascii(Integer.toString(year));
        }
    }

    private void twoDigits(int n) throws IOException {
        put((char) ('0' + n / 10));
        put((char) ('0' + n % 10));
    }

    /** The OWASP list of first characters that make a cell a formula, plus the apostrophe that undoes ours. */
    static boolean startsLikeAFormula(char first) {
        return switch (first) {
            case '=', '+', '-', '@', '\t', '\r', '\'' -> true;
            default -> false;
        };
    }

    private static boolean needsQuotes(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == ';' || c == '"' || c == '\n' || c == '\r') {
                return true;
            }
        }
        return false;
    }

    /** Letters, digits, space and {@code ( ) . / -}: safe inside a formula's string constant. */
    static boolean isPlainCode(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean plain = (c >= '0' && c <= '9')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || c == ' '
                    || c == '('
                    || c == ')'
                    || c == '.'
                    || c == '/'
                    || c == '-';
            if (!plain) {
                return false;
            }
        }
        return true;
    }

    private void endRow() throws IOException {
        put('\r');
        put('\n');
    }

    /** Characters known to be ASCII (headers, numbers, plain codes). */
    private void ascii(String value) throws IOException {
        for (int i = 0; i < value.length(); i++) {
            put(value.charAt(i));
        }
    }

    /** Any text as UTF-8; inside quotes, a quote is doubled. A lone surrogate becomes {@code ?}. */
    private void utf8(String value, boolean quoted) throws IOException {
        int length = value.length();
        for (int i = 0; i < length; i++) {
            if (position > LIMIT) {
                drain();
            }
            char c = value.charAt(i);
            if (c < 0x80) {
                if (c == '"' && quoted) {
                    buffer[position++] = '"';
                }
                buffer[position++] = (byte) c;
            } else if (c < 0x800) {
                buffer[position++] = (byte) (0xC0 | (c >> 6));
                buffer[position++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(value.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, value.charAt(++i));
                    buffer[position++] = (byte) (0xF0 | (cp >> 18));
                    buffer[position++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    buffer[position++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    buffer[position++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    buffer[position++] = '?';
                }
            } else {
                buffer[position++] = (byte) (0xE0 | (c >> 12));
                buffer[position++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buffer[position++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }

    /** One ASCII character. */
    private void put(char c) throws IOException {
        if (position > LIMIT) {
            drain();
        }
        buffer[position++] = (byte) c;
    }

    private void drain() throws IOException {
        if (position > 0) {
            out.write(buffer, 0, position);
            position = 0;
        }
    }
}
