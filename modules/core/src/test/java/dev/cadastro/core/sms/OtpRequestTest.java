package dev.cadastro.core.sms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.document.Phone;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OtpRequestTest {

    @Test
    void acceptsMobilesWithOrWithoutCountryCodeAndPunctuation() {
        for (String text : new String[] {"11987654321", "+55 (11) 98765-4321", "55 11 98765 4321", "(11) 98765.4321"}) {
            OtpRequest r = OtpRequest.parse(text, null, null);
            assertEquals("11987654321", r.phone().national(), text);
            assertEquals(Duration.ofSeconds(600), r.validity());
            assertEquals(6, r.digits());
        }
    }

    @Test
    void refusesFixedLinesNamingTheMobileOnlyRule() {
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> OtpRequest.parse("(11) 3234-5678", null, null));
        assertEquals(ErrorCode.PARAMETRO_INVALIDO, e.code());
        assertEquals("telefone", e.violation().field());
        assertEquals("mobile-only", e.violation().rule());
    }

    @Test
    void refusesAreaCodesNotInServiceAndNumbersOfTheWrongShape() {
        assertEquals("ddd", rule("20987654321"));
        assertEquals("subscriber-number", rule("11887654321"));
        assertEquals("country", rule("+1 11 98765 4321"));
        assertEquals("required", rule(" "));
    }

    private static String rule(String phone) {
        return assertThrows(InvalidParameterException.class, () -> OtpRequest.parse(phone, null, null))
                .violation()
                .rule();
    }

    @Test
    void validityIsSixtyToThirtySixHundredSeconds() {
        assertEquals(
                Duration.ofSeconds(60),
                OtpRequest.parse("11987654321", 60L, null).validity());
        assertEquals(
                Duration.ofSeconds(3600),
                OtpRequest.parse("11987654321", 3600L, null).validity());
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> OtpRequest.parse("11987654321", 59L, null));
        assertEquals("validade_segundos", e.violation().field());
        assertEquals("validade_segundos 59 must be 60 to 3600", e.getMessage());
        assertThrows(InvalidParameterException.class, () -> OtpRequest.parse("11987654321", 3601L, null));
    }

    @Test
    void digitsAreFourToEight() {
        assertEquals(4, OtpRequest.parse("11987654321", null, 4L).digits());
        assertEquals(8, OtpRequest.parse("11987654321", null, 8L).digits());
        assertEquals(
                "digitos",
                assertThrows(InvalidParameterException.class, () -> OtpRequest.parse("11987654321", null, 3L))
                        .violation()
                        .field());
        assertThrows(InvalidParameterException.class, () -> OtpRequest.parse("11987654321", null, 9L));
    }

    @Test
    void masksTheMiddleOfTheNumber() {
        assertEquals("(11) 9****-4321", OtpRequest.mask(Phone.of("11987654321")));
    }
}
