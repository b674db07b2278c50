package dev.cadastro.core.document;

import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;

/**
 * A valid CNPJ (Cadastro Nacional da Pessoa Juridica), numeric or alphanumeric.
 *
 * <p>Since July 2026 the Receita Federal issues alphanumeric CNPJs (IN RFB 2.229/2024): the first
 * twelve characters are {@code [0-9A-Z]}, the last two are numeric check digits. Each character is
 * valued as its ASCII code minus 48 (so {@code 0-9} keep their value and {@code A} is 17); the first
 * check digit weighs the twelve characters with 5,4,3,2,9,8,7,6,5,4,3,2, the second weighs them and
 * the first check digit with 6,5,4,3,2,9,8,7,6,5,4,3,2; a remainder modulo 11 below 2 gives 0,
 * otherwise 11 minus the remainder. For an all-digit CNPJ this is exactly the classic rule. The
 * official example is {@code 12.ABC.345/01DE-35}.
 *
 * <p>Accepted input: the 14 characters, or the full mask {@code NN.NNN.NNN/NNNN-NN}, with surrounding
 * whitespace; partial punctuation is rejected. Lower-case letters are accepted and normalized to upper
 * case. Sequences of one repeated digit ({@code 00.000.000/0000-00}) are rejected. See {@code
 * docs/adr/0006-alphanumeric-cnpj.md}.
 *
 * @param value the 14 canonical characters, upper case, no punctuation
 */
public record Cnpj(String value) implements TaxId, Comparable<Cnpj> {
    /** The field name used in violations. */
    public static final String FIELD = "cnpj";

    static final int LENGTH = 14;
    static final int FORMATTED_LENGTH = 18;
    private static final int BODY = 12;

    /**
     * Checks that {@code value} is already canonical (upper case, no punctuation) and valid; use {@link
     * #parse} or {@link #of} for untrusted input.
     *
     * @throws IllegalArgumentException when it is not
     */
    public Cnpj {
        if (value == null || value.length() != LENGTH || !isValid(value) || !isUpperCase(value)) {
            throw new IllegalArgumentException(
                    "not a canonical valid CNPJ: "
                            + (value == null ? "null" : Texts.quote(value))
                            + " (14 characters, upper case, no punctuation, matching check digits); use Cnpj.parse for untrusted input");
        }
    }

    /**
     * Parses untrusted text into a CNPJ or a {@link Violation} of field {@value #FIELD} with one of the
     * rules {@code required}, {@code format}, {@code characters}, {@code check-digits-numeric}, {@code
     * repeated-digits}, {@code check-digits}. Never throws for bad input.
     */
    public static Parsed<Cnpj> parse(CharSequence text) {
        if (isValid(text)) {
            return Parsed.valid(new Cnpj(canonical(text)));
        }
        return new Parsed.Invalid<>(diagnose(text));
    }

    /** The rule that text for which {@link #isValid} is false breaks. */
    private static Violation diagnose(CharSequence text) {
        if (text == null) {
            return new Violation(FIELD, Violation.REQUIRED, Message.CNPJ_REQUIRED.with());
        }
        int from = Text.firstNonBlank(text);
        int len = Text.lastNonBlank(text) - from;
        if (len <= 0) {
            return new Violation(FIELD, Violation.REQUIRED, Message.CNPJ_REQUIRED.with());
        }
        boolean formatted = len == FORMATTED_LENGTH;
        if (len != LENGTH && !formatted) {
            return new Violation(FIELD, Violation.FORMAT, formatMessage(text, Message.REASON_LENGTH.with(len)));
        }
        if (formatted && !punctuationOk(text, from)) {
            return new Violation(
                    FIELD,
                    Violation.FORMAT,
                    formatMessage(text, Message.REASON_PUNCTUATION.with("NN.NNN.NNN/NNNN-NN")));
        }
        char[] c = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            char raw = text.charAt(from + raw(i, formatted));
            char ch = upper(raw);
            if (i < BODY && !isDigitOrLetter(ch)) {
                return new Violation(FIELD, Violation.CHARACTERS, Message.CNPJ_CHARACTERS.with(Texts.quote(text), raw));
            }
            if (i >= BODY && !isDigit(ch)) {
                return new Violation(
                        FIELD,
                        Violation.CHECK_DIGITS_NUMERIC,
                        Message.CNPJ_CHECK_DIGITS_NUMERIC.with(Texts.quote(text), raw));
            }
            c[i] = ch;
        }
        if (repeated(c)) {
            return new Violation(
                    FIELD, Violation.REPEATED_DIGITS, Message.CNPJ_REPEATED_DIGITS.with(Texts.quote(text)));
        }
        int expected = checkDigits(text, from, formatted);
        int dv1 = expected / 10;
        int dv2 = expected % 10;
        if (c[12] - '0' != dv1 || c[13] - '0' != dv2) {
            return new Violation(
                    FIELD,
                    Violation.CHECK_DIGITS,
                    Message.CNPJ_CHECK_DIGITS.with(Texts.quote(text), "" + c[12] + c[13], "" + dv1 + dv2));
        }
        throw new IllegalStateException("isValid and parse disagree on " + Texts.quote(text));
    }

    /**
     * The 14 canonical characters of text that {@link #isValid} accepts; the text itself when already
     * canonical.
     */
    private static String canonical(CharSequence text) {
        int from = Text.firstNonBlank(text);
        boolean formatted = Text.lastNonBlank(text) - from == FORMATTED_LENGTH;
        if (!formatted && text instanceof String s && s.length() == LENGTH && isUpperCase(s)) {
            return s;
        }
        char[] c = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            c[i] = upper(text.charAt(from + raw(i, formatted)));
        }
        return new String(c);
    }

    /** Parses untrusted text, throwing {@link InvalidDocumentException} when it is not a valid CNPJ. */
    public static Cnpj of(CharSequence text) {
        return parse(text).orThrow();
    }

    /**
     * True when the text is a valid CNPJ, numeric or alphanumeric (same rules as {@link #parse});
     * allocates nothing.
     */
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
        char first = text.charAt(from);
        boolean allSame = true;
        int sum1 = 0;
        int sum2 = 0;
        for (int i = 0; i < BODY; i++) {
            char ch = text.charAt(from + raw(i, formatted));
            char up = upper(ch);
            if (!isDigitOrLetter(up)) {
                return false;
            }
            allSame &= ch == first;
            int v = up - '0';
            sum1 += v * WEIGHTS[i + 1];
            sum2 += v * WEIGHTS[i];
        }
        char d1 = text.charAt(from + raw(12, formatted));
        char d2 = text.charAt(from + raw(13, formatted));
        if (!isDigit(d1) || !isDigit(d2) || (allSame && d1 == first && d2 == first)) {
            return false;
        }
        int dv1 = Mod11.checkDigit(sum1);
        return d1 - '0' == dv1 && d2 - '0' == Mod11.checkDigit(sum2 + dv1 * WEIGHTS[BODY]);
    }

    /**
     * The CNPJ whose first twelve characters are given (digits or letters; lower case accepted), with
     * its check digits computed.
     *
     * @throws IllegalArgumentException when the text is not twelve digits or letters, or gives a CNPJ
     *     of one repeated digit
     */
    public static Cnpj withCheckDigits(CharSequence body) {
        if (body == null || body.length() != BODY) {
            throw new IllegalArgumentException(
                    "need exactly 12 digits or letters, got " + (body == null ? "null" : Texts.quote(body)));
        }
        char[] c = new char[LENGTH];
        for (int i = 0; i < BODY; i++) {
            char ch = upper(body.charAt(i));
            if (!isDigitOrLetter(ch)) {
                throw new IllegalArgumentException(
                        "not a digit or letter A-Z at position " + i + " of " + Texts.quote(body));
            }
            c[i] = ch;
        }
        int expected = checkDigits(body, 0, false);
        c[12] = (char) ('0' + expected / 10);
        c[13] = (char) ('0' + expected % 10);
        if (repeated(c)) {
            throw new IllegalArgumentException(
                    Texts.quote(body) + " gives a CNPJ of one repeated digit, which is never valid");
        }
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

    @Override
    public String canonical() {
        return value;
    }

    /** The mask {@code NN.NNN.NNN/NNNN-NN}. */
    @Override
    public String formatted() {
        char[] f = new char[FORMATTED_LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            f[raw(i, true)] = value.charAt(i);
        }
        f[2] = '.';
        f[6] = '.';
        f[10] = '/';
        f[15] = '-';
        return new String(f);
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

    /**
     * Both check digits of the twelve body characters of {@code s} (already checked to be digits or
     * letters, either case), as {@code 10 * dv1 + dv2}.
     */
    private static int checkDigits(CharSequence s, int from, boolean formatted) {
        int sum1 = 0;
        int sum2 = 0;
        for (int i = 0; i < BODY; i++) {
            int v = upper(s.charAt(from + raw(i, formatted))) - '0';
            sum1 += v * WEIGHTS[i + 1];
            sum2 += v * WEIGHTS[i];
        }
        int dv1 = Mod11.checkDigit(sum1);
        int dv2 = Mod11.checkDigit(sum2 + dv1 * WEIGHTS[BODY]);
        return dv1 * 10 + dv2;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isDigitOrLetter(char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
    }

    private static char upper(char c) {
        return c >= 'a' && c <= 'z' ? (char) (c - ('a' - 'A')) : c;
    }

    private static boolean isUpperCase(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z') {
                return false;
            }
        }
        return true;
    }

    private static boolean repeated(char[] c) {
        for (char ch : c) {
            if (ch != c[0]) {
                return false;
            }
        }
        return true;
    }

    /** Position in the masked text of canonical character {@code i}. */
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

    private static LocalizedText formatMessage(CharSequence text, LocalizedText why) {
        return Message.CNPJ_FORMAT.with(Texts.quote(text), why);
    }
}
