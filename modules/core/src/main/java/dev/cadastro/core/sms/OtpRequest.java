package dev.cadastro.core.sms;

import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import java.time.Duration;
import java.util.Objects;

/**
 * A checked request to send a code ({@code POST /v1/sms/otp}).
 *
 * @param phone a mobile number (area code plus 9 digits starting with 9)
 * @param validity how long the code can be checked, 60 s to 1 h
 * @param digits the code's length, 4 to 8
 */
public record OtpRequest(Phone phone, Duration validity, int digits) {
    public static final String TELEFONE = "telefone";
    public static final String VALIDADE = "validade_segundos";
    public static final String DIGITOS = "digitos";
    public static final int MIN_VALIDITY_SECONDS = 60;
    public static final int MAX_VALIDITY_SECONDS = 3600;
    public static final int DEFAULT_VALIDITY_SECONDS = 600;

    public OtpRequest {
        Objects.requireNonNull(phone, "phone");
        Objects.requireNonNull(validity, "validity");
        if (!phone.isMobile()) {
            throw new IllegalArgumentException("an SMS code goes to a mobile number, not " + phone.kind());
        }
        long s = validity.toSeconds();
        if (s < MIN_VALIDITY_SECONDS || s > MAX_VALIDITY_SECONDS || validity.toNanosPart() != 0) {
            throw new IllegalArgumentException("validity " + validity + " must be whole seconds, 60 to 3600");
        }
        OtpCode.requireDigits(digits);
    }

    /**
     * Parses the body's fields; absent numbers take their defaults.
     *
     * @throws InvalidParameterException naming the field and the rule it breaks
     */
    public static OtpRequest parse(String telefone, Long validadeSegundos, Long digitos) {
        Parsed<Phone> parsed = Phone.parseMobile(telefone, TELEFONE);
        if (parsed instanceof Parsed.Invalid<Phone> invalid) {
            throw new InvalidParameterException(invalid.violation());
        }
        Phone phone = ((Parsed.Valid<Phone>) parsed).value();
        long validity = validadeSegundos == null ? DEFAULT_VALIDITY_SECONDS : validadeSegundos;
        if (validity < MIN_VALIDITY_SECONDS || validity > MAX_VALIDITY_SECONDS) {
            throw InvalidParameterException.of(
                    VALIDADE,
                    "range",
                    Message.RANGE.with(VALIDADE, validity, MIN_VALIDITY_SECONDS, MAX_VALIDITY_SECONDS));
        }
        long d = digitos == null ? OtpCode.DEFAULT_DIGITS : digitos;
        if (d < OtpCode.MIN_DIGITS || d > OtpCode.MAX_DIGITS) {
            throw InvalidParameterException.of(
                    DIGITOS, "range", Message.RANGE.with(DIGITOS, d, OtpCode.MIN_DIGITS, OtpCode.MAX_DIGITS));
        }
        return new OtpRequest(phone, Duration.ofSeconds(validity), (int) d);
    }

    /** {@code (11) 9****-5678}: the only form of the phone in logs and messages. */
    public static String mask(Phone phone) {
        String n = phone.number();
        return "(" + phone.ddd() + ") " + n.charAt(0) + "*".repeat(n.length() - 5) + "-" + n.substring(n.length() - 4);
    }
}
