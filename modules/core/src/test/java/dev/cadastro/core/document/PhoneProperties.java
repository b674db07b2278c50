package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

class PhoneProperties {

    @Provide
    Arbitrary<Integer> dddsInService() {
        return Arbitraries.of(
                11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45,
                46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83,
                84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99);
    }

    @Provide
    Arbitrary<String> eightDigits() {
        return Arbitraries.strings().numeric().ofLength(8);
    }

    @Provide
    Arbitrary<String> notations() {
        return Arbitraries.of("(%s) %s-%s", "%s%s%s", "+55 %s %s %s", "+55 (%s) %s-%s", "55%s%s%s", "0%s %s-%s");
    }

    @Property
    void everyMobileOfAnAreaCodeInServiceParsesInEveryNotation(
            @ForAll("dddsInService") int ddd,
            @ForAll("eightDigits") String rest,
            @ForAll("notations") String notation) {
        String number = "9" + rest;
        String text = notation.formatted(ddd, number.substring(0, 5), number.substring(5));
        Phone phone = Phone.of(text);
        assertEquals(ddd, phone.ddd());
        assertEquals(number, phone.number());
        assertTrue(phone.isMobile());
        assertEquals("+55" + ddd + number, phone.e164());
        assertEquals(phone, Phone.of(phone.formatted()));
        assertEquals(phone, Phone.of(phone.e164()));
        assertTrue(Phone.parseMobile(text, "telefone").isValid());
    }

    @Property
    void everyFixedLineParsesAndIsRefusedWhereOnlyMobilesAre(
            @ForAll("dddsInService") int ddd,
            @ForAll @IntRange(min = 2, max = 5) int first,
            @ForAll @StringLength(7) @NumericChars String rest) {
        String number = first + rest;
        Phone phone = Phone.of("(" + ddd + ") " + number);
        assertEquals(Phone.Kind.FIXED, phone.kind());
        assertEquals(phone, Phone.of(phone.national()));
        assertFalse(Phone.parseMobile(phone.formatted(), "telefone").isValid());
    }

    @Property
    void areaCodesOutOfServiceAreRejected(
            @ForAll @IntRange(min = 10, max = 99) int ddd, @ForAll("eightDigits") String rest) {
        Parsed<Phone> parsed = Phone.parse("(" + ddd + ") 9" + rest);
        assertEquals(Ddd.isValid(ddd), parsed.isValid());
    }

    @Property
    void parseNeverThrows(@ForAll @StringLength(max = 25) String text) {
        switch (Phone.parse(text)) {
            case Parsed.Valid<Phone> v -> assertTrue(Ddd.isValid(v.value().ddd()));
            case Parsed.Invalid<Phone> i ->
                assertEquals(Phone.FIELD, i.violation().field());
        }
    }
}
