package dev.cadastro.http.companydata;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable UTF-8 buffer that company-data bodies are written into directly: field names as
 * precomputed bytes, strings escaped character by character into the buffer, no generator, no
 * intermediate strings. It writes exactly what jackson-core's UTF-8 generator wrote with this
 * module's settings (the test {@code CompanyDataJsonBytesTest} holds the two side by side): {@code "}
 * and {@code \} escaped with a backslash, {@code \b \t \n \f \r} in their short forms, the other
 * control characters below U+0020 as {@code \}{@code u00XX} with upper-case hex digits, every
 * UTF-16 surrogate (a half of a pair, or a lone one) as its own {@code \}{@code uXXXX}, everything else
 * as its UTF-8 bytes.
 */
final class JsonBytes {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** For each ASCII character: 0 written as is, a letter for its short escape, -1 for {@code \}{@code u00XX}. */
    private static final byte[] ESCAPES = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ESCAPES[c] = -1;
        }
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\n'] = 'n';
        ESCAPES['\f'] = 'f';
        ESCAPES['\r'] = 'r';
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
    }

    private byte[] buf;
    private int len;

    JsonBytes(int capacity) {
        buf = new byte[Math.max(capacity, 64)];
    }

    /** The ASCII bytes of a fixed piece of JSON (a field name with its quotes and colon, a bracket). */
    static byte[] ascii(String fixed) {
        return fixed.getBytes(StandardCharsets.US_ASCII);
    }

    JsonBytes raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
        return this;
    }

    /** The bytes from {@code from} on (a field name without its comma). */
    JsonBytes raw(byte[] bytes, int from) {
        int n = bytes.length - from;
        ensure(n);
        System.arraycopy(bytes, from, buf, len, n);
        len += n;
        return this;
    }

    JsonBytes raw(char ascii) {
        ensure(1);
        buf[len++] = (byte) ascii;
        return this;
    }

    /** A JSON string: quotes, escapes, UTF-8. */
    JsonBytes string(String s) {
        int n = s.length();
        // worst case: six bytes per character (an escaped control character), plus the quotes
        ensure(n * 6 + 2);
        byte[] b = buf;
        int p = len;
        b[p++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                byte e = ESCAPES[c];
                if (e == 0) {
                    b[p++] = (byte) c;
                } else if (e > 0) {
                    b[p++] = '\\';
                    b[p++] = e;
                } else {
                    b[p++] = '\\';
                    b[p++] = 'u';
                    b[p++] = '0';
                    b[p++] = '0';
                    b[p++] = HEX[c >> 4];
                    b[p++] = HEX[c & 0xF];
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                // each half on its own, as the generator wrote it (it does not combine pairs)
                b[p++] = '\\';
                b[p++] = 'u';
                b[p++] = HEX[c >> 12];
                b[p++] = HEX[(c >> 8) & 0xF];
                b[p++] = HEX[(c >> 4) & 0xF];
                b[p++] = HEX[c & 0xF];
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        b[p++] = '"';
        len = p;
        return this;
    }

    JsonBytes number(long value) {
        return ascii(Long.toString(value), false);
    }

    /** A decimal in plain notation ({@code 1000000}, never {@code 1E+6}), as the generator wrote it. */
    JsonBytes number(BigDecimal value) {
        return ascii(value.toPlainString(), false);
    }

    JsonBytes bool(boolean value) {
        return ascii(value ? "true" : "false", false);
    }

    /** An ASCII text that needs no escaping (an ISO date), quoted or not. */
    JsonBytes ascii(String text, boolean quoted) {
        int n = text.length();
        ensure(n + 2);
        if (quoted) {
            buf[len++] = '"';
        }
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) text.charAt(i);
        }
        if (quoted) {
            buf[len++] = '"';
        }
        return this;
    }

    byte[] toByteArray() {
        return len == buf.length ? buf : Arrays.copyOf(buf, len);
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
