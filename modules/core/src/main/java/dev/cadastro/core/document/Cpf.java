package dev.cadastro.core.document;

/**
 * A valid CPF (Cadastro de Pessoas Fisicas): 11 digits whose last two are check digits.
 *
 * <p>Accepted input: the 11 digits, or the mask {@code NNN.NNN.NNN-NN}, with surrounding whitespace.
 * Sequences of one repeated digit ({@code 111.111.111-11}) are rejected although their check digits
 * match. {@link #toString()} masks the number, as the Receita Federal does, so a CPF never lands
 * whole in a log by accident; {@link #digits()} gives it whole.
 */
public record Cpf(String digits) implements Comparable<Cpf> {
    /** The field name used in violations. */
    public static final String FIELD = "cpf";

    private static final int LENGTH = 11;
    private static final int FORMATTED_LENGTH = 14;

    public Cpf {
        if (digits == null || !isValid(digits) || digits.length() != LENGTH) {
            throw new IllegalArgumentException("not a canonical valid CPF: use Cpf.parse for untrusted input");
        }
    }

    /** Parses untrusted text. Never throws for bad input. */
    public static Parsed<Cpf> parse(CharSequence text) {
        if (text == null) {
            return Parsed.invalid(FIELD, "required", "cpf is required");
        }
        int from = Text.firstNonBlank(text);
        int to = Text.lastNonBlank(text);
        int len = to - from;
        if (len == 0) {
            return Parsed.invalid(FIELD, "required", "cpf is required");
        }
        boolean formatted = len == FORMATTED_LENGTH;
        if (len != LENGTH && !formatted) {
            return Parsed.invalid(FIELD, "format", formatMessage(text));
        }
        char[] d = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            char c = text.charAt(from + raw(i, formatted));
            if (c < '0' || c > '9') {
                return Parsed.invalid(FIELD, "format", formatMessage(text));
            }
            d[i] = c;
        }
        if (formatted && !punctuationOk(text, from)) {
            return Parsed.invalid(FIELD, "format", formatMessage(text));
        }
        if (repeated(d)) {
            return Parsed.invalid(FIELD, "repeated-digits", "cpf " + Text.quote(text) + " is one digit repeated");
        }
        int dv1 = checkDigit(d, 9, 10);
        char given = d[9];
        d[9] = (char) ('0' + dv1);
        int dv2 = checkDigit(d, 10, 11);
        d[9] = given;
        if (d[9] - '0' != dv1 || d[10] - '0' != dv2) {
            return Parsed.invalid(
                    FIELD,
                    "check-digits",
                    "cpf " + Text.quote(text) + " has check digits " + d[9] + d[10] + ", expected " + dv1 + dv2);
        }
        return Parsed.valid(new Cpf(new String(d)));
    }

    /** Parses untrusted text, throwing {@link InvalidDocumentException} when it is not a valid CPF. */
    public static Cpf of(CharSequence text) {
        return parse(text).orThrow();
    }

    /** True when the text is a valid CPF; allocates nothing. */
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
        char first = text.charAt(from);
        for (int i = 0; i < 9; i++) {
            char c = text.charAt(from + raw(i, formatted));
            if (c < '0' || c > '9') {
                return false;
            }
            allSame &= c == first;
            int v = c - '0';
            sum1 += v * (10 - i);
            sum2 += v * (11 - i);
        }
        char c9 = text.charAt(from + raw(9, formatted));
        char c10 = text.charAt(from + raw(10, formatted));
        if (c9 < '0' || c9 > '9' || c10 < '0' || c10 > '9') {
            return false;
        }
        allSame &= c9 == first && c10 == first;
        if (allSame) {
            return false;
        }
        int dv1 = mod11(sum1);
        sum2 += dv1 * 2;
        return c9 - '0' == dv1 && c10 - '0' == mod11(sum2);
    }

    /**
     * The CPF whose first nine digits are given, with its check digits computed. Useful to build test
     * data and synthetic dumps.
     */
    public static Cpf withCheckDigits(CharSequence firstNine) {
        if (firstNine == null || firstNine.length() != 9) {
            throw new IllegalArgumentException(
                    "need exactly 9 digits, got " + (firstNine == null ? "null" : Text.quote(firstNine)));
        }
        char[] d = new char[LENGTH];
        for (int i = 0; i < 9; i++) {
            char c = firstNine.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("not a digit at position " + i + " of " + Text.quote(firstNine));
            }
            d[i] = c;
        }
        d[9] = (char) ('0' + checkDigit(d, 9, 10));
        d[10] = (char) ('0' + checkDigit(d, 10, 11));
        return new Cpf(new String(d));
    }

    /** The mask {@code NNN.NNN.NNN-NN}. */
    public String formatted() {
        return digits.substring(0, 3)
                + '.'
                + digits.substring(3, 6)
                + '.'
                + digits.substring(6, 9)
                + '-'
                + digits.substring(9);
    }

    /** The Receita Federal's public mask, {@code ***NNNNNN**}: digits 4 to 9 only. */
    public String masked() {
        return "***" + digits.substring(3, 9) + "**";
    }

    @Override
    public String toString() {
        return "Cpf[" + masked() + "]";
    }

    @Override
    public int compareTo(Cpf other) {
        return digits.compareTo(other.digits);
    }

    private static int raw(int i, boolean formatted) {
        if (!formatted) {
            return i;
        }
        return i + (i >= 3 ? 1 : 0) + (i >= 6 ? 1 : 0) + (i >= 9 ? 1 : 0);
    }

    private static boolean punctuationOk(CharSequence s, int from) {
        return s.charAt(from + 3) == '.' && s.charAt(from + 7) == '.' && s.charAt(from + 11) == '-';
    }

    private static boolean repeated(char[] d) {
        for (char c : d) {
            if (c != d[0]) {
                return false;
            }
        }
        return true;
    }

    /** Check digit over d[0..n): weights n+1 down to 2. */
    private static int checkDigit(char[] d, int n, int firstWeight) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += (d[i] - '0') * (firstWeight - i);
        }
        return mod11(sum);
    }

    private static int mod11(int sum) {
        int r = sum % 11;
        return r < 2 ? 0 : 11 - r;
    }

    private static String formatMessage(CharSequence text) {
        return "cpf " + Text.quote(text) + " must have 11 digits, plain or as NNN.NNN.NNN-NN";
    }
}
