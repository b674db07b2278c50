package dev.cadastro.http;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

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
        // Percent-encoded UTF-8 never takes more bytes than characters; a character above U+007F
        // (a host that handed over decoded text) may take up to three per char.
        byte[] bytes = new byte[raw.length() * 3];
        int n = 0;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 1 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0 || raw.charAt(i + 1) > 0x7f || raw.charAt(i + 2) > 0x7f) {
                    throw InvalidParameterException.of(
                            field,
                            "percent-encoding",
                            Message.PERCENT_ENCODING.with(label(field), i, Texts.quote(raw)));
                }
                bytes[n++] = (byte) ((hi << 4) | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes[n++] = ' ';
            } else if (c < 0x80) {
                bytes[n++] = (byte) c;
            } else if (Character.isSurrogate(c)) {
                // A lone surrogate has no UTF-8 form: leave a byte that the strict decoder reports.
                boolean pair = Character.isHighSurrogate(c)
                        && i + 1 < raw.length()
                        && Character.isLowSurrogate(raw.charAt(i + 1));
                if (pair) {
                    int cp = Character.toCodePoint(c, raw.charAt(++i));
                    bytes[n++] = (byte) (0xf0 | (cp >> 18));
                    bytes[n++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                    bytes[n++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                    bytes[n++] = (byte) (0x80 | (cp & 0x3f));
                } else {
                    bytes[n++] = (byte) 0xff;
                }
            } else if (c < 0x800) {
                bytes[n++] = (byte) (0xc0 | (c >> 6));
                bytes[n++] = (byte) (0x80 | (c & 0x3f));
            } else {
                bytes[n++] = (byte) (0xe0 | (c >> 12));
                bytes[n++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                bytes[n++] = (byte) (0x80 | (c & 0x3f));
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
                    field, "utf-8", Message.PERCENT_UTF8.with(label(field), Texts.quote(raw)));
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw InvalidParameterException.of(
                        field,
                        "control-character",
                        Message.PERCENT_CONTROL_CHARACTER.with(
                                label(field), String.format(Locale.ROOT, "%04X", (int) c), Texts.quote(raw)));
            }
        }
        return text;
    }

    /** How a message names the field: a parameter by its name, the name of a parameter in words. */
    private static Object label(String field) {
        return QueryParameters.NAME_FIELD.equals(field) ? Message.QUERY_PARAMETER_NAME.with() : field;
    }
}
