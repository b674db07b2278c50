package dev.cadastro.loader.generate;

import dev.cadastro.loader.internal.Latin1;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Writes rows the way the Receita Federal does: every field in double quotes (inner quotes not
 * doubled), {@code ;} between fields, LF at the end, ISO-8859-1 (WIN-1252 for the C1 range).
 */
final class RowWriter {
    private byte[] buf = new byte[1024];
    private int len;
    private boolean first = true;

    RowWriter field(String value) {
        int n = value == null ? 0 : value.length();
        if (len + n + 3 > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n + 3));
        }
        byte[] b = buf;
        int p = len;
        if (!first) {
            b[p++] = ';';
        }
        first = false;
        b[p++] = '"';
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            b[p++] = c <= 0xFF ? (byte) c : Latin1.encode(c);
        }
        b[p++] = '"';
        len = p;
        return this;
    }

    /** A field whose bytes are given raw (quirks: NUL, WIN-1252). */
    RowWriter rawField(byte[] bytes) {
        sep();
        put((byte) '"');
        for (byte b : bytes) {
            put(b);
        }
        put((byte) '"');
        return this;
    }

    RowWriter digits(long value, int width) {
        sep();
        put((byte) '"');
        int start = len;
        for (int i = 0; i < width; i++) {
            put((byte) '0');
        }
        long v = value;
        for (int i = len - 1; i >= start && v > 0; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        put((byte) '"');
        return this;
    }

    private void sep() {
        if (!first) {
            put((byte) ';');
        }
        first = false;
    }

    private void put(byte b) {
        if (len == buf.length) {
            buf = Arrays.copyOf(buf, len * 2);
        }
        buf[len++] = b;
    }

    /** Ends the row and writes it; {@code times} copies (2 for a duplicated line). */
    void end(OutputStream out, int times) throws IOException {
        put((byte) '\n');
        for (int i = 0; i < times; i++) {
            out.write(buf, 0, len);
        }
        len = 0;
        first = true;
    }
}
