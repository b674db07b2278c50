package dev.cadastro.core.document;

/**
 * A valid CNPJ (Cadastro Nacional da Pessoa Juridica), numeric or alphanumeric.
 *
 * <p>Since July 2026 the Receita Federal issues alphanumeric CNPJs (IN RFB 2.229/2024): the first
 * twelve characters are {@code [0-9A-Z]}, the last two are numeric check digits. Each character is
 * valued as its ASCII code minus 48 (so {@code 0-9} keep their value and {@code A} is 17), and both
 * check digits use the modulo-11 weights of the numeric CNPJ. The official example is {@code
 * 12.ABC.345/01DE-35}.
 *
 * <p>Accepted input: the 14 characters, or the mask {@code NN.NNN.NNN/NNNN-NN}, with surrounding
 * whitespace; lower-case letters are accepted and normalized to upper case. Sequences of one repeated
 * digit ({@code 00.000.000/0000-00}) are rejected.
 *
 * @param value the 14 canonical characters, upper case, no punctuation
 */
public record Cnpj(String value) implements Comparable<Cnpj> {
    /** The field name used in violations. */
    public static final String FIELD = "cnpj";

    static final int LENGTH = 14;
    private static final int FORMATTED_LENGTH = 18;
    private static final int BODY = 12;

    public Cnpj {
        if (value == null || value.length() != LENGTH || !isValid(value) || !isCanonical(value)) {
            throw new IllegalArgumentException("not a canonical valid CNPJ: use Cnpj.parse for untrusted input");
        }
    }

    /** Parses untrusted text. Never throws for bad input. */
    public static Parsed<Cnpj> parse(CharSequence text) {
        if (text == null) {
            return Parsed.invalid(FIELD, "required", "cnpj is required");
        }
        int from = Text.firstNonBlank(text);
        int len = Text.lastNonBlank(text) - from;
        if (len == 0) {
            return Parsed.invalid(FIELD, "required", "cnpj is required");
        }
        boolean formatted = len == FORMATTED_LENGTH;
        if ((len != LENGTH && !formatted) || (formatted && !punctuationOk(text, from))) {
            return Parsed.invalid(FIELD, "format", formatMessage(text));
        }
        char[] c = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            char ch = upper(text.charAt(from + raw(i, formatted)));
            boolean digit = ch >= '0' && ch <= '9';
            if (i < BODY ? !(digit || (ch >= 'A' && ch <= 'Z')) : !digit) {
                return Parsed.invalid(
                        FIELD,
                        i < BODY ? "characters" : "check-digits-numeric",
                        i < BODY
                                ? "cnpj " + Text.quote(text)
                                        + " must have digits or letters A-Z in its first 12 characters"
                                : "cnpj " + Text.quote(text) + " must end with two numeric check digits");
            }
            c[i] = ch;
        }
        boolean repeated = true;
        for (char ch : c) {
            repeated &= ch == c[0];
        }
        if (repeated) {
            return Parsed.invalid(FIELD, "repeated-digits", "cnpj " + Text.quote(text) + " is one digit repeated");
        }
        int dv1 = checkDigit(c, 12);
        char given = c[12];
        c[12] = (char) ('0' + dv1);
        int dv2 = checkDigit(c, 13);
        c[12] = given;
        if (c[12] - '0' != dv1 || c[13] - '0' != dv2) {
            return Parsed.invalid(
                    FIELD,
                    "check-digits",
                    "cnpj " + Text.quote(text) + " has check digits " + c[12] + c[13] + ", expected " + dv1 + dv2);
        }
        return Parsed.valid(new Cnpj(new String(c)));
    }

    /** Parses untrusted text, throwing {@link InvalidDocumentException} when it is not a valid CNPJ. */
    public static Cnpj of(CharSequence text) {
        return parse(text).orThrow();
    }

    /** True when the text is a valid CNPJ, numeric or alphanumeric; allocates nothing. */
    public static boolean isValid(CharSequence text) {
        if (text == null) {
            return false;
        }
        int from = Text.firstNonBlank(text);
        int len = Text.lastNonBlank(text) - from;
        boolean formatted = len == FORMATTED_LENGTH;
        if (len != LENGTH && !formatted) {
            return false;
        }
        if (formatted && !punctuationOk(text, from)) {
            return false;
        }
        int sum1 = 0;
        int sum2 = 0;
        boolean allSame = true;
        char first = upper(text.charAt(from));
        for (int i = 0; i < BODY; i++) {
            char ch = upper(text.charAt(from + raw(i, formatted)));
            if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z'))) {
                return false;
            }
            allSame &= ch == first;
            int v = ch - '0';
            sum1 += v * WEIGHTS[i + 1];
            sum2 += v * WEIGHTS[i];
        }
        char d1 = text.charAt(from + raw(12, formatted));
        char d2 = text.charAt(from + raw(13, formatted));
        if (d1 < '0' || d1 > '9' || d2 < '0' || d2 > '9') {
            return false;
        }
        if (allSame && d1 == first && d2 == first) {
            return false;
        }
        int dv1 = mod11(sum1);
        sum2 += dv1 * WEIGHTS[12];
        return d1 - '0' == dv1 && d2 - '0' == mod11(sum2);
    }

    /**
     * The CNPJ whose first twelve characters are given (digits or letters; lower case accepted), with
     * its check digits computed.
     */
    public static Cnpj withCheckDigits(CharSequence body) {
        if (body == null || body.length() != BODY) {
            throw new IllegalArgumentException(
                    "need exactly 12 characters, got " + (body == null ? "null" : Text.quote(body)));
        }
        char[] c = new char[LENGTH];
        for (int i = 0; i < BODY; i++) {
            char ch = upper(body.charAt(i));
            if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z'))) {
                throw new IllegalArgumentException(
                        "not a digit or letter A-Z at position " + i + " of " + Text.quote(body));
            }
            c[i] = ch;
        }
        c[12] = (char) ('0' + checkDigit(c, 12));
        c[13] = (char) ('0' + checkDigit(c, 13));
        return new Cnpj(new String(c));
    }

    /** The 8-character root shared by every establishment of one company. */
    public CnpjRoot root() {
        return new CnpjRoot(value.substring(0, 8));
    }

    /** The 4-character order of the establishment ({@code 0001} is usually the head office). */
    public String order() {
        return value.substring(8, 12);
    }

    /** The two check digits. */
    public String checkDigits() {
        return value.substring(12);
    }

    /** True when any of the first twelve characters is a letter. */
    public boolean isAlphanumeric() {
        for (int i = 0; i < BODY; i++) {
            if (value.charAt(i) > '9') {
                return true;
            }
        }
        return false;
    }

    /** The mask {@code NN.NNN.NNN/NNNN-NN}. */
    public String formatted() {
        return value.substring(0, 2)
                + '.'
                + value.substring(2, 5)
                + '.'
                + value.substring(5, 8)
                + '/'
                + value.substring(8, 12)
                + '-'
                + value.substring(12);
    }

    @Override
    public String toString() {
        return value;
    }

    @Override
    public int compareTo(Cnpj other) {
        return value.compareTo(other.value);
    }

    /** Weights 6,5,4,3,2,9,8,7,6,5,4,3,2: the first check digit uses [1..12], the second [0..12]. */
    private static final int[] WEIGHTS = {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};

    /** Check digit over c[0..n), n = 12 or 13. */
    private static int checkDigit(char[] c, int n) {
        int offset = LENGTH - 1 - n;
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (c[i] - '0') * WEIGHTS[i + offset];
        }
        return mod11(sum);
    }

    private static int mod11(int sum) {
        int r = sum % 11;
        return r < 2 ? 0 : 11 - r;
    }

    private static char upper(char c) {
        return c >= 'a' && c <= 'z' ? (char) (c - 32) : c;
    }

    private static boolean isCanonical(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z') {
                return false;
            }
        }
        return true;
    }

    private static int raw(int i, boolean formatted) {
        if (!formatted) {
            return i;
        }
        return i + (i >= 2 ? 1 : 0) + (i >= 5 ? 1 : 0) + (i >= 8 ? 1 : 0) + (i >= 12 ? 1 : 0);
    }

    private static boolean punctuationOk(CharSequence s, int from) {
        return s.charAt(from + 2) == '.'
                && s.charAt(from + 6) == '.'
                && s.charAt(from + 10) == '/'
                && s.charAt(from + 15) == '-';
    }

    private static String formatMessage(CharSequence text) {
        return "cnpj " + Text.quote(text) + " must have 14 characters, plain or as NN.NNN.NNN/NNNN-NN";
    }
}
