package dev.cadastro.loader.internal;

import java.nio.charset.StandardCharsets;

/**
 * Decodes the dump's bytes: ISO-8859-1, except that the C1 range 0x80-0x9F, which ISO-8859-1 fills
 * with control characters nobody types, is read as WIN-1252 (curly quotes, dashes, the euro sign), the
 * stray bytes real files carry. NUL bytes never reach here: the CSV reader drops them.
 */
public final class Latin1 {
    private static final char[] C1 = {
        '\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
        '\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
        '\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
        '\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178'
    };

    private Latin1() {}

    /** The text of {@code len} bytes at {@code off}. */
    public static String decode(byte[] b, int off, int len) {
        int end = off + len;
        for (int i = off; i < end; i++) {
            int c = b[i] & 0xFF;
            if (c >= 0x80 && c < 0xA0) {
                return decodeSlow(b, off, len);
            }
        }
        return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }

    private static String decodeSlow(byte[] b, int off, int len) {
        char[] out = new char[len];
        for (int i = 0; i < len; i++) {
            out[i] = decode(b[off + i]);
        }
        return new String(out);
    }

    /** One byte as a character. */
    public static char decode(byte b) {
        int c = b & 0xFF;
        return c >= 0x80 && c < 0xA0 ? C1[c - 0x80] : (char) c;
    }

    /**
     * The byte a character is written as, the inverse of {@link #decode(byte)}; {@code '?'} for a
     * character the encoding lacks.
     */
    public static byte encode(char c) {
        if (c < 0x80 || (c >= 0xA0 && c <= 0xFF)) {
            return (byte) c;
        }
        for (int i = 0; i < C1.length; i++) {
            if (C1[i] == c) {
                return (byte) (0x80 + i);
            }
        }
        return (byte) '?';
    }
}
