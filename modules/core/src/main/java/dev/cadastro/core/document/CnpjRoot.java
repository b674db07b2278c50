package dev.cadastro.core.document;

/**
 * The 8-character root of a CNPJ ({@code cnpj_basico} in the Receita Federal dump): it names the
 * company, and every establishment of the company shares it. Digits or letters A-Z (alphanumeric
 * roots exist since July 2026); it has no check digit of its own. {@code 00000000} is a real root
 * (Banco do Brasil), so repeated digits are allowed here.
 */
public record CnpjRoot(String value) implements Comparable<CnpjRoot> {
    public static final String FIELD = "cnpj_basico";
    private static final int LENGTH = 8;

    public CnpjRoot {
        if (value == null || !isValid(value) || value.length() != LENGTH) {
            throw new IllegalArgumentException("not a canonical CNPJ root: use CnpjRoot.parse for untrusted input");
        }
    }

    /** Parses untrusted text: 8 digits or upper/lower-case letters, optionally as {@code NN.NNN.NNN}. */
    public static Parsed<CnpjRoot> parse(CharSequence text) {
        if (text == null) {
            return Parsed.invalid(FIELD, "required", "cnpj_basico is required");
        }
        String s = text.toString().strip();
        if (s.length() == 10 && s.charAt(2) == '.' && s.charAt(6) == '.') {
            s = s.substring(0, 2) + s.substring(3, 6) + s.substring(7);
        }
        if (s.length() != LENGTH) {
            return Parsed.invalid(
                    FIELD,
                    "format",
                    "cnpj_basico " + Text.quote(text) + " must have 8 characters, digits or letters A-Z");
        }
        char[] c = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            char ch = s.charAt(i);
            if (ch >= 'a' && ch <= 'z') {
                ch = (char) (ch - 32);
            }
            if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z'))) {
                return Parsed.invalid(
                        FIELD,
                        "characters",
                        "cnpj_basico " + Text.quote(text) + " must have only digits or letters A-Z");
            }
            c[i] = ch;
        }
        return Parsed.valid(new CnpjRoot(new String(c)));
    }

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

    /** The establishment of this root with the given 4-character order, check digits computed. */
    public Cnpj establishment(CharSequence order) {
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
