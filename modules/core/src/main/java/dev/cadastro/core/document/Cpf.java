package dev.cadastro.core.document;

import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;

/**
 * A valid CPF (Cadastro de Pessoas Fisicas): 11 digits whose last two are check digits.
 *
 * <p>The check digits are modulo 11: the first over the nine base digits with weights 10 down to 2,
 * the second over the nine digits and the first check digit with weights 11 down to 2; a remainder
 * below 2 gives 0, otherwise 11 minus the remainder.
 *
 * <p>Accepted input: the 11 digits, or the mask {@code NNN.NNN.NNN-NN}, with surrounding whitespace;
 * partial punctuation ({@code 111444777-35}) is rejected. Sequences of one repeated digit ({@code
 * 111.111.111-11}) are rejected although their check digits match. {@link #toString()} masks the
 * number, as the Receita Federal does, so a CPF never lands whole in a log by accident; {@link
 * #digits()} gives it whole.
 *
 * @param digits the 11 canonical digits, no punctuation
 */
public record Cpf(String digits) implements TaxId, Comparable<Cpf> {
    /** The field name used in violations. */
    public static final String FIELD = "cpf";

    static final int LENGTH = 11;
    static final int FORMATTED_LENGTH = 14;
    private static final int BASE = 9;

    /**
     * Checks that {@code digits} is already canonical and valid; use {@link #parse} or {@link #of} for
     * untrusted input.
     *
     * @throws IllegalArgumentException when it is not 11 digits with matching check digits
     */
    public Cpf {
        if (digits == null || digits.length() != LENGTH || !isValid(digits)) {
            throw new IllegalArgumentException("not a canonical valid CPF: "
                    + (digits == null ? "null" : Texts.quote(digits))
                    + " (11 digits, matching check digits, not one digit repeated); use Cpf.parse for untrusted input");
        }
    }

    /**
     * Parses untrusted text into a CPF or a {@link Violation} of field {@value #FIELD} with one of the
     * rules {@code required}, {@code format}, {@code repeated-digits}, {@code check-digits}. Never
     * throws for bad input.
     */
    public static Parsed<Cpf> parse(CharSequence text) {
        if (isValid(text)) {
            return Parsed.valid(new Cpf(canonical(text)));
        }
        return new Parsed.Invalid<>(diagnose(text));
    }

    /** The rule that text for which {@link #isValid} is false breaks. */
    private static Violation diagnose(CharSequence text) {
        if (text == null) {
            return new Violation(FIELD, Violation.REQUIRED, Message.CPF_REQUIRED.with());
        }
        int from = Text.firstNonBlank(text);
        int len = Text.lastNonBlank(text) - from;
        if (len <= 0) {
            return new Violation(FIELD, Violation.REQUIRED, Message.CPF_REQUIRED.with());
        }
        boolean formatted = len == FORMATTED_LENGTH;
        if (len != LENGTH && !formatted) {
            return new Violation(FIELD, Violation.FORMAT, formatMessage(text, Message.REASON_LENGTH.with(len)));
        }
        if (formatted && !punctuationOk(text, from)) {
            return new Violation(
                    FIELD, Violation.FORMAT, formatMessage(text, Message.REASON_PUNCTUATION.with("NNN.NNN.NNN-NN")));
        }
        char[] d = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            char c = text.charAt(from + raw(i, formatted));
            if (c < '0' || c > '9') {
                return new Violation(FIELD, Violation.FORMAT, formatMessage(text, Message.REASON_NOT_A_DIGIT.with(c)));
            }
            d[i] = c;
        }
        if (repeated(d)) {
            return new Violation(FIELD, Violation.REPEATED_DIGITS, Message.CPF_REPEATED_DIGITS.with(Texts.quote(text)));
        }
        int expected = checkDigits(text, from, formatted);
        int dv1 = expected / 10;
        int dv2 = expected % 10;
        if (d[9] - '0' != dv1 || d[10] - '0' != dv2) {
            return new Violation(
                    FIELD,
                    Violation.CHECK_DIGITS,
                    Message.CPF_CHECK_DIGITS.with(Texts.quote(text), "" + d[9] + d[10], "" + dv1 + dv2));
        }
        throw new IllegalStateException("isValid and parse disagree on " + Texts.quote(text));
    }

    /** The 11 digits of text that {@link #isValid} accepts; the text itself when already canonical. */
    private static String canonical(CharSequence text) {
        int from = Text.firstNonBlank(text);
        int len = Text.lastNonBlank(text) - from;
        if (len == LENGTH) {
            if (text instanceof String s && s.length() == LENGTH) {
                return s;
            }
            return text.subSequence(from, from + LENGTH).toString();
        }
        char[] d = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            d[i] = text.charAt(from + raw(i, true));
        }
        return new String(d);
    }

    /** Parses untrusted text, throwing {@link InvalidDocumentException} when it is not a valid CPF. */
    public static Cpf of(CharSequence text) {
        return parse(text).orThrow();
    }

    /** True when the text is a valid CPF (same rules as {@link #parse}); allocates nothing. */
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
        for (int i = 0; i < BASE; i++) {
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
        if (c9 < '0' || c9 > '9' || c10 < '0' || c10 > '9' || (allSame && c9 == first && c10 == first)) {
            return false;
        }
        int dv1 = Mod11.checkDigit(sum1);
        return c9 - '0' == dv1 && c10 - '0' == Mod11.checkDigit(sum2 + 2 * dv1);
    }

    /**
     * The CPF whose first nine digits are given, with its check digits computed. Useful to build test
     * data and synthetic dumps.
     *
     * @throws IllegalArgumentException when the text is not nine digits, or is nine equal digits (whose
     *     CPF is one digit repeated)
     */
    public static Cpf withCheckDigits(CharSequence firstNine) {
        if (firstNine == null || firstNine.length() != BASE) {
            throw new IllegalArgumentException(
                    "need exactly 9 digits, got " + (firstNine == null ? "null" : Texts.quote(firstNine)));
        }
        char[] d = new char[LENGTH];
        for (int i = 0; i < BASE; i++) {
            char c = firstNine.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("not a digit at position " + i + " of " + Texts.quote(firstNine));
            }
            d[i] = c;
        }
        int expected = checkDigits(firstNine, 0, false);
        d[9] = (char) ('0' + expected / 10);
        d[10] = (char) ('0' + expected % 10);
        if (repeated(d)) {
            throw new IllegalArgumentException(Texts.quote(firstNine)
                    + " gives a CPF of one repeated digit, which is never valid; use other base digits");
        }
        return new Cpf(new String(d));
    }

    @Override
    public String canonical() {
        return digits;
    }

    /** The mask {@code NNN.NNN.NNN-NN}. */
    @Override
    public String formatted() {
        char[] f = new char[FORMATTED_LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            f[raw(i, true)] = digits.charAt(i);
        }
        f[3] = '.';
        f[7] = '.';
        f[11] = '-';
        return new String(f);
    }

    /** The Receita Federal's public mask, {@code ***NNNNNN**}: digits 4 to 9 only. */
    public String masked() {
        return "***" + digits.substring(3, 9) + "**";
    }

    /** The masked form ({@link #masked()}), so that a CPF never reaches a log whole by accident. */
    @Override
    public String toString() {
        return "Cpf[" + masked() + "]";
    }

    @Override
    public int compareTo(Cpf other) {
        return digits.compareTo(other.digits);
    }

    /** Both check digits of the nine base digits of {@code s}, as {@code 10 * dv1 + dv2}. */
    private static int checkDigits(CharSequence s, int from, boolean formatted) {
        int sum1 = 0;
        int sum2 = 0;
        for (int i = 0; i < BASE; i++) {
            int v = s.charAt(from + raw(i, formatted)) - '0';
            sum1 += v * (10 - i);
            sum2 += v * (11 - i);
        }
        int dv1 = Mod11.checkDigit(sum1);
        int dv2 = Mod11.checkDigit(sum2 + 2 * dv1);
        return dv1 * 10 + dv2;
    }

    /** Position in the masked text of canonical digit {@code i}. */
    private static int raw(int i, boolean formatted) {
        return formatted ? i + i / 3 : i;
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

    private static LocalizedText formatMessage(CharSequence text, LocalizedText why) {
        return Message.CPF_FORMAT.with(Texts.quote(text), why);
    }
}
