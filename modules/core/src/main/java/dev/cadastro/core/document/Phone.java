package dev.cadastro.core.document;

import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;

/**
 * A Brazilian phone number: an area code in service ({@link Ddd}) and a subscriber number, either a
 * mobile (9 digits starting with 9) or a fixed line (8 digits starting with 2 to 5).
 *
 * <p>Accepted input: digits with any of the separators space, {@code ( ) - .}; optionally the country
 * code as {@code +55} or {@code 55}, or the trunk prefix {@code 0}. Examples: {@code (11) 91234-5678},
 * {@code +55 11 91234 5678}, {@code 1132345678}.
 *
 * @param ddd the two-digit area code
 * @param number the subscriber number, 8 or 9 digits
 * @param kind mobile or fixed line
 */
public record Phone(int ddd, String number, Kind kind) {
    public static final String FIELD = "telefone";

    /** The kind of line, told by the subscriber number. */
    public enum Kind {
        MOBILE,
        FIXED
    }

    /**
     * Checks the parts: an area code in service and a subscriber number of the given kind.
     *
     * @throws IllegalArgumentException when they do not fit; use {@link #parse} for untrusted input
     */
    public Phone {
        if (!Ddd.isValid(ddd) || number == null || kind == null || kindOf(number) != kind) {
            throw new IllegalArgumentException("not a valid phone: ddd " + ddd + ", number "
                    + (number == null ? "null" : Texts.quote(number)) + ", kind " + kind
                    + "; use Phone.parse for untrusted input");
        }
    }

    /** Parses a mobile or fixed number. */
    public static Parsed<Phone> parse(CharSequence text) {
        return parse(text, FIELD, false);
    }

    /** Parses a number that must be a mobile (SMS destinations). */
    public static Parsed<Phone> parseMobile(CharSequence text, String field) {
        return parse(text, field, true);
    }

    /** Parses a number; {@code field} names it in violations. */
    public static Parsed<Phone> parse(CharSequence text, String field, boolean mobileOnly) {
        if (text == null || text.toString().isBlank()) {
            return Parsed.invalid(field, Violation.REQUIRED, Message.FIELD_REQUIRED.with(field));
        }
        StringBuilder d = new StringBuilder(16);
        boolean plus = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                d.append(c);
            } else if (c == '+' && d.isEmpty() && !plus) {
                plus = true;
            } else if (c != ' ' && c != '(' && c != ')' && c != '-' && c != '.') {
                return Parsed.invalid(field, Violation.FORMAT, formatMessage(field, text));
            }
            if (d.length() > 13) {
                return Parsed.invalid(field, Violation.FORMAT, formatMessage(field, text));
            }
        }
        String digits = d.toString();
        if (plus) {
            if (!digits.startsWith("55")) {
                return Parsed.invalid(field, Violation.COUNTRY, Message.PHONE_COUNTRY.with(field, Texts.quote(text)));
            }
            digits = digits.substring(2);
        } else if ((digits.length() == 12 || digits.length() == 13) && digits.startsWith("55")) {
            digits = digits.substring(2);
        } else if ((digits.length() == 11 || digits.length() == 12) && digits.charAt(0) == '0') {
            digits = digits.substring(1);
        }
        if (digits.length() != 10 && digits.length() != 11) {
            return Parsed.invalid(field, Violation.FORMAT, formatMessage(field, text));
        }
        int ddd = (digits.charAt(0) - '0') * 10 + (digits.charAt(1) - '0');
        if (!Ddd.isValid(ddd)) {
            return Parsed.invalid(
                    field, Violation.DDD, Message.PHONE_DDD.with(field, Texts.quote(text), digits.substring(0, 2)));
        }
        String number = digits.substring(2);
        Kind kind = kindOf(number);
        if (kind == null) {
            return Parsed.invalid(
                    field, Violation.SUBSCRIBER_NUMBER, Message.PHONE_SUBSCRIBER_NUMBER.with(field, Texts.quote(text)));
        }
        if (mobileOnly && kind != Kind.MOBILE) {
            return Parsed.invalid(
                    field, Violation.MOBILE_ONLY, Message.PHONE_MOBILE_ONLY.with(field, Texts.quote(text)));
        }
        return Parsed.valid(new Phone(ddd, number, kind));
    }

    /** Parses untrusted text, throwing {@link InvalidDocumentException} when it is not a phone number. */
    public static Phone of(CharSequence text) {
        return parse(text).orThrow();
    }

    /** The kind told by a subscriber number, or null when it is neither. */
    static Kind kindOf(String number) {
        for (int i = 0; i < number.length(); i++) {
            char c = number.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        if (number.length() == 9 && number.charAt(0) == '9') {
            return Kind.MOBILE;
        }
        if (number.length() == 8 && number.charAt(0) >= '2' && number.charAt(0) <= '5') {
            return Kind.FIXED;
        }
        return null;
    }

    private static LocalizedText formatMessage(String field, CharSequence text) {
        return Message.PHONE_FORMAT.with(field, Texts.quote(text));
    }

    public boolean isMobile() {
        return kind == Kind.MOBILE;
    }

    /** Area code and number as digits only: {@code 11912345678}. */
    public String national() {
        // Plain concatenation: String.format would use the default locale's digits.
        return Integer.toString(ddd) + number;
    }

    /** E.164: {@code +5511912345678}. */
    public String e164() {
        return "+55" + national();
    }

    /** {@code (11) 91234-5678} or {@code (11) 3234-5678}. */
    public String formatted() {
        int split = number.length() - 4;
        return "(" + ddd + ") " + number.substring(0, split) + '-' + number.substring(split);
    }

    @Override
    public String toString() {
        return formatted();
    }
}
