package dev.cadastro.core.sms;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.Optional;

/**
 * A one-time code: {@link #digits()} decimal digits, leading zeros kept. Its {@link #toString()} hides
 * it, so a code that reaches a log line or a message by mistake shows as asterisks; only {@link
 * #reveal()} gives it, for the SMS text and the HMAC.
 */
public final class OtpCode {
    public static final int MIN_DIGITS = 4;
    public static final int MAX_DIGITS = 8;
    public static final int DEFAULT_DIGITS = 6;

    private final String value;

    private OtpCode(String value) {
        this.value = value;
    }

    /**
     * A uniform code of {@code digits} digits: {@code nextInt(10^digits)} is unbiased over the whole
     * range (no modulo of a wider value), then zero-padded, so 000123 is as likely as 987654.
     */
    public static OtpCode generate(SecureRandom random, int digits) {
        Objects.requireNonNull(random, "random");
        requireDigits(digits);
        int bound = 1;
        for (int i = 0; i < digits; i++) {
            bound *= 10;
        }
        String number = Integer.toString(random.nextInt(bound));
        return new OtpCode("0".repeat(digits - number.length()) + number);
    }

    /** A code a client typed: 1 to {@link #MAX_DIGITS} ASCII digits, or empty when it is not that. */
    public static Optional<OtpCode> typed(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_DIGITS) {
            return Optional.empty();
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return Optional.empty();
            }
        }
        return Optional.of(new OtpCode(text));
    }

    static void requireDigits(int digits) {
        if (digits < MIN_DIGITS || digits > MAX_DIGITS) {
            throw new IllegalArgumentException("digitos " + digits + " must be " + MIN_DIGITS + " to " + MAX_DIGITS);
        }
    }

    /** The digits themselves: only for the SMS text and the HMAC, never for a log or a message. */
    public String reveal() {
        return value;
    }

    public int digits() {
        return value.length();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OtpCode other
                && MessageDigest.isEqual(
                        value.getBytes(StandardCharsets.US_ASCII), other.value.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public int hashCode() {
        return value.length();
    }

    @Override
    public String toString() {
        return "*".repeat(value.length());
    }
}
