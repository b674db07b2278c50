package dev.cadastro.core.document;

import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;

/**
 * The 8-character root of a CNPJ ({@code cnpj_basico} in the Receita Federal dump): it names the
 * company, and every establishment of the company shares it. Digits or letters A-Z (alphanumeric
 * roots exist since July 2026); it has no check digit of its own. {@code 00000000} is a real root
 * (Banco do Brasil), so repeated digits are allowed here.
 */
public record CnpjRoot(String value) implements Comparable<CnpjRoot> {
    public static final String FIELD = "cnpj_basico";
    private static final int LENGTH = 8;

    /**
     * Checks that {@code value} is already canonical: 8 digits or upper-case letters.
     *
     * @throws IllegalArgumentException when it is not; use {@link #parse} for untrusted input
     */
    public CnpjRoot {
        if (!isValid(value)) {
            throw new IllegalArgumentException("not a canonical CNPJ root: "
                    + (value == null ? "null" : Texts.quote(value))
                    + " (8 digits or upper-case letters A-Z); use CnpjRoot.parse for untrusted input");
        }
    }

    /** Parses untrusted text: 8 digits or upper/lower-case letters, optionally as {@code NN.NNN.NNN}. */
    public static Parsed<CnpjRoot> parse(CharSequence text) {
        if (text == null || text.toString().isBlank()) {
            return Parsed.invalid(FIELD, Violation.REQUIRED, Message.CNPJ_ROOT_REQUIRED.with());
        }
        String s = text.toString().strip();
        if (s.length() == 10 && s.charAt(2) == '.' && s.charAt(6) == '.') {
            s = s.substring(0, 2) + s.substring(3, 6) + s.substring(7);
        }
        if (s.length() != LENGTH) {
            return Parsed.invalid(FIELD, Violation.FORMAT, Message.CNPJ_ROOT_FORMAT.with(Texts.quote(text)));
        }
        char[] c = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            char ch = s.charAt(i);
            if (ch >= 'a' && ch <= 'z') {
                ch = (char) (ch - 32);
            }
            if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z'))) {
                return Parsed.invalid(
                        FIELD, Violation.CHARACTERS, Message.CNPJ_ROOT_CHARACTERS.with(Texts.quote(text)));
            }
            c[i] = ch;
        }
        return Parsed.valid(new CnpjRoot(new String(c)));
    }

    /** Parses untrusted text, throwing {@link InvalidDocumentException} when it is not a CNPJ root. */
    public static CnpjRoot of(CharSequence text) {
        return parse(text).orThrow();
    }

    /** True when the text is 8 canonical characters: digits or upper-case letters. */
    public static boolean isValid(CharSequence text) {
        if (text == null || text.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            char ch = text.charAt(i);
            if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z'))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The establishment of this root with the given 4-character order ({@code 0001} for the head
     * office), check digits computed.
     *
     * @throws IllegalArgumentException when the order is not 4 digits or letters
     */
    public Cnpj establishment(CharSequence order) {
        if (order == null || order.length() != 4) {
            throw new IllegalArgumentException("the order of an establishment has 4 digits or letters, got "
                    + (order == null ? "null" : Texts.quote(order)));
        }
        return Cnpj.withCheckDigits(value + order);
    }

    @Override
    public String toString() {
        return value;
    }

    @Override
    public int compareTo(CnpjRoot other) {
        return value.compareTo(other.value);
    }
}
