package dev.cadastro.http;

import dev.cadastro.core.error.InvalidParameterException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict percent-decoding (RFC 3986, section 2.1) of URI components into UTF-8 text. Unlike {@link
 * java.net.URLDecoder}, which replaces malformed input, it rejects a {@code %} not followed by two hex
 * digits, a byte sequence that is not well-formed UTF-8 (overlong forms and lone surrogates included),
 * and control characters, each with a {@code PARAMETRO_INVALIDO} naming the field.
 */
public final class PercentDecoding {
    private PercentDecoding() {}

    /**
     * Decodes one component.
     *
     * @param field the parameter or path segment the text belongs to, named in errors
     * @param plusIsSpace true for query components ({@code application/x-www-form-urlencoded})
     */
    public static String decode(String field, CharSequence raw, boolean plusIsSpace) {
        boolean plain = true;
        for (int i = 0; i < raw.length() && plain; i++) {
            char c = raw.charAt(i);
            plain = c != '%' && c != '+' && c >= 0x20 && c < 0x7f;
        }
        if (plain) {
            return raw.toString();
        }
        byte[] bytes = new byte[raw.length()];
        int n = 0;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 1 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw InvalidParameterException.of(
                            field,
                            "percent-encoding",
                            field + " has a '%' at position " + i + " not followed by two hex digits in "
                                    + Shown.quote(raw));
                }
                bytes[n++] = (byte) ((hi << 4) | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes[n++] = ' ';
            } else if (c >= 0x80) {
                // A runtime that hands us already-decoded text: keep it, re-encoded.
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < raw.length()) {
                    utf8 = raw.subSequence(i, i + 2).toString().getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                if (n + utf8.length > bytes.length) {
                    bytes = java.util.Arrays.copyOf(bytes, bytes.length * 2 + utf8.length);
                }
                System.arraycopy(utf8, 0, bytes, n, utf8.length);
                n += utf8.length;
            } else {
                bytes[n++] = (byte) c;
            }
        }
        String text;
        try {
            CharsetDecoder decoder = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes, 0, n));
            text = chars.toString();
        } catch (CharacterCodingException e) {
            throw InvalidParameterException.of(
                    field, "utf-8", field + " is not well-formed UTF-8 once percent-decoded: " + Shown.quote(raw));
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw InvalidParameterException.of(
                        field,
                        "control-character",
                        field + " contains the control character U+" + String.format("%04X", (int) c) + " in "
                                + Shown.quote(raw));
            }
        }
        return text;
    }
}
