package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PhoneTest {

    private static Violation violationOf(Parsed<Phone> parsed) {
        return assertInstanceOf(Parsed.Invalid.class, parsed).violation();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "(11) 91234-5678",
                "11912345678",
                "+55 11 91234 5678",
                "+55 (11) 91234-5678",
                "5511912345678",
                "011 91234-5678",
                "11.91234.5678"
            })
    void acceptsMobileNumbersInTheUsualNotations(String text) {
        Phone phone = Phone.of(text);
        assertEquals(11, phone.ddd());
        assertEquals("912345678", phone.number());
        assertEquals(Phone.Kind.MOBILE, phone.kind());
        assertTrue(phone.isMobile());
        assertEquals("11912345678", phone.national());
        assertEquals("+5511912345678", phone.e164());
        assertEquals("(11) 91234-5678", phone.formatted());
    }

    @Test
    void acceptsFixedLines() {
        Phone phone = Phone.of("(21) 3234-5678");
        assertEquals(Phone.Kind.FIXED, phone.kind());
        assertEquals("(21) 3234-5678", phone.formatted());
        assertEquals("+552132345678", phone.e164());
        assertEquals(Phone.Kind.FIXED, Phone.of("555532345678").kind());
    }

    @Test
    void theAreaCode55OfRioGrandeDoSulIsNotMistakenForTheCountryCode() {
        Phone phone = Phone.of("55 91234-5678");
        assertEquals(55, phone.ddd());
        assertEquals("912345678", phone.number());
    }

    @ParameterizedTest
    @ValueSource(strings = {"(20) 91234-5678", "(23) 3234-5678", "(10) 91234-5678", "(00) 91234-5678"})
    void rejectsAreaCodesNotInService(String text) {
        Violation v = violationOf(Phone.parse(text));
        assertEquals("telefone", v.field());
        assertEquals(Violation.DDD, v.rule());
    }

    @ParameterizedTest
    @ValueSource(strings = {"(11) 81234-5678", "(11) 1234-5678", "(11) 6234-5678", "(11) 0234-5678", "11 91234-567"})
    void rejectsSubscriberNumbersThatAreNeitherMobileNorFixed(String text) {
        assertEquals(Violation.SUBSCRIBER_NUMBER, violationOf(Phone.parse(text)).rule());
    }

    @ParameterizedTest
    @ValueSource(strings = {"(11) 91234-56789", "11 9123a-5678", "phone", "+55 11 91234 5678 1234", "1191234"})
    void rejectsWrongShapes(String text) {
        assertEquals(Violation.FORMAT, violationOf(Phone.parse(text)).rule());
    }

    @Test
    void rejectsForeignCountryCodes() {
        assertEquals(
                Violation.COUNTRY, violationOf(Phone.parse("+1 212 555 0100")).rule());
    }

    @Test
    void blankIsRequired() {
        assertEquals(Violation.REQUIRED, violationOf(Phone.parse(" ")).rule());
        assertEquals(Violation.REQUIRED, violationOf(Phone.parse(null)).rule());
    }

    @Test
    void mobileOnlyRejectsFixedLinesUnderTheGivenField() {
        Violation v = violationOf(Phone.parseMobile("(11) 3234-5678", "telefone_destino"));
        assertEquals("telefone_destino", v.field());
        assertEquals(Violation.MOBILE_ONLY, v.rule());
        assertTrue(v.message().contains("(11) 3234-5678"), v.message());
        assertTrue(Phone.parseMobile("(11) 91234-5678", "telefone_destino").isValid());
    }

    @Test
    void formsDoNotDependOnTheDefaultLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("ar-EG-u-nu-arab"));
            assertEquals("(11) 91234-5678", Phone.of("11912345678").formatted());
            assertEquals("11912345678", Phone.of("11912345678").national());
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void constructorChecksItsParts() {
        assertEquals("(11) 91234-5678", new Phone(11, "912345678", Phone.Kind.MOBILE).formatted());
        assertThrows(IllegalArgumentException.class, () -> new Phone(20, "912345678", Phone.Kind.MOBILE));
        assertThrows(IllegalArgumentException.class, () -> new Phone(11, "912345678", Phone.Kind.FIXED));
        assertThrows(IllegalArgumentException.class, () -> new Phone(11, "32345678", null));
        assertFalse(Phone.parse("(11) 91234-5678\u0000").isValid());
    }
}
