package dev.cadastro.core.document;

import dev.cadastro.core.error.LocalizedText;
import java.util.Locale;
import java.util.Objects;

/**
 * A broken rule: the field it concerns, a stable rule token (for example {@code check-digits}) and a
 * message for people that names the value and the rule, kept as a {@link LocalizedText} so each reader
 * sees it in its language ({@link #message()} is English, for the command line and logs).
 *
 * <p>The rule tokens used by the document types are the constants below; they are stable, so callers
 * may branch on them. Other modules may use their own tokens for their own fields.
 */
public record Violation(String field, String rule, LocalizedText text) {
    /** The value is missing or blank. */
    public static final String REQUIRED = "required";
    /** The value has the wrong length or punctuation, or a character where a digit must be. */
    public static final String FORMAT = "format";
    /** A CNPJ or CNPJ root has a character that is neither a digit nor a letter A-Z. */
    public static final String CHARACTERS = "characters";
    /** A CNPJ has a letter in one of its two check-digit positions. */
    public static final String CHECK_DIGITS_NUMERIC = "check-digits-numeric";
    /** A CPF or CNPJ is one digit repeated ({@code 000.000.000-00}), never valid. */
    public static final String REPEATED_DIGITS = "repeated-digits";
    /** A CPF or CNPJ has check digits that do not match its body. */
    public static final String CHECK_DIGITS = "check-digits";
    /** A phone number has an area code that is not in service. */
    public static final String DDD = "ddd";
    /** A phone number has a country code other than Brazil's. */
    public static final String COUNTRY = "country";
    /** A phone's subscriber number is neither a mobile nor a fixed line. */
    public static final String SUBSCRIBER_NUMBER = "subscriber-number";
    /** A fixed-line phone was given where only mobiles are accepted. */
    public static final String MOBILE_ONLY = "mobile-only";

    public Violation {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(text, "text");
    }

    /** The message in English. */
    public String message() {
        return text.english();
    }

    /** The message in {@code locale}'s language (Portuguese unless it is English). */
    public String message(Locale locale) {
        return text.render(locale);
    }
}
