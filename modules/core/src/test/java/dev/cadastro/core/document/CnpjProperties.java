package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

class CnpjProperties {

    /**
     * Positions where the modulo-11 rule cannot see every change of one digit: with weights (5,6),
     * (9,2) and (5,6) both remainders can move between 0 and 1, which give the same check digit 0.
     * About 0.03% of such changes keep a CNPJ valid.
     */
    private static final Set<Integer> BLIND_POSITIONS = Set.of(0, 4, 8);

    @Provide
    Arbitrary<String> validCnpjs() {
        return Documents.validCnpjs();
    }

    @Provide
    Arbitrary<String> validNumericCnpjs() {
        return Documents.validNumericCnpjs();
    }

    @Provide
    Arbitrary<String> validAlphanumericCnpjs() {
        return Documents.validAlphanumericCnpjs();
    }

    @Provide
    Arbitrary<String> documentLikeText() {
        return Documents.documentLikeText();
    }

    @Property
    void everyGeneratedValidCnpjValidates(@ForAll("validCnpjs") String value) {
        String formatted = Oracle.formatCnpj(value);
        assertTrue(Cnpj.isValid(value), value);
        assertTrue(Cnpj.isValid(formatted), formatted);
        assertEquals(value, Cnpj.of(value).value());
        assertEquals(value, Cnpj.of("\n" + formatted + " ").value());
    }

    @Property
    void formattedAndParsedRoundTrip(@ForAll("validCnpjs") String value) {
        Cnpj cnpj = Cnpj.of(value);
        assertEquals(Oracle.formatCnpj(value), cnpj.formatted());
        assertEquals(cnpj, Cnpj.of(cnpj.formatted()));
        assertEquals(cnpj, Cnpj.of(cnpj.canonical()));
        assertEquals(value.substring(0, 8), cnpj.root().value());
        assertEquals(cnpj, cnpj.root().establishment(cnpj.order()));
    }

    @Property
    void alphanumericBodiesGetTheCheckDigitsOfTheRule(@ForAll("validAlphanumericCnpjs") String value) {
        String body = value.substring(0, 12);
        Cnpj cnpj = Cnpj.withCheckDigits(body);
        assertEquals(Oracle.cnpjCheckDigits(body), cnpj.checkDigits());
        assertTrue(cnpj.isAlphanumeric());
        assertEquals(cnpj, Cnpj.withCheckDigits(body.toLowerCase(Locale.ROOT)));
    }

    @Property
    void lowerCaseIsAcceptedAndNormalized(@ForAll("validAlphanumericCnpjs") String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        assertTrue(Cnpj.isValid(lower), lower);
        assertEquals(value, Cnpj.of(lower).value());
        assertEquals(Oracle.formatCnpj(value), Cnpj.of(Oracle.formatCnpj(lower)).formatted());
    }

    @Property
    void aChangeOfOneDigitIsRejectedWhereverTheRuleCanSeeIt(
            @ForAll("validNumericCnpjs") String value,
            @ForAll @IntRange(min = 0, max = 13) int position,
            @ForAll @IntRange(min = 1, max = 9) int delta) {
        char changed = (char) ('0' + (value.charAt(position) - '0' + delta) % 10);
        String mutated = Documents.replaceAt(value, position, changed);
        assertEquals(Oracle.cnpjValid(mutated), Cnpj.isValid(mutated), mutated);
        assertEquals(
                Oracle.cnpjValid(mutated),
                Cnpj.parse(Oracle.formatCnpj(mutated)).isValid(),
                mutated);
        if (!BLIND_POSITIONS.contains(position)) {
            assertFalse(Cnpj.isValid(mutated), mutated);
        }
    }

    @Property
    void aChangedLetterIsRejectedWhenTheRuleSeesIt(
            @ForAll("validAlphanumericCnpjs") String value,
            @ForAll @IntRange(min = 0, max = 11) int position,
            @ForAll @IntRange(min = 'A', max = 'Z') int letter) {
        String mutated = Documents.replaceAt(value, position, (char) letter);
        assertEquals(Oracle.cnpjValid(mutated), Cnpj.isValid(mutated), mutated);
    }

    @Property
    void isValidAgreesWithParseAndTheOracle(@ForAll("documentLikeText") String text) {
        boolean valid = Cnpj.isValid(text);
        assertEquals(valid, Cnpj.parse(text).isValid(), text);
        String stripped = text.strip().toUpperCase(Locale.ROOT);
        String canonical = stripped.matches("[0-9A-Z]{2}\\.[0-9A-Z]{3}\\.[0-9A-Z]{3}/[0-9A-Z]{4}-[0-9]{2}")
                ? stripped.replaceAll("[./-]", "")
                : stripped;
        assertEquals(Oracle.cnpjValid(canonical), valid, text);
    }

    @Property
    void parseNeverThrowsAndNamesTheField(@ForAll @StringLength(max = 30) String text) {
        switch (Cnpj.parse(text)) {
            case Parsed.Valid<Cnpj> v -> assertTrue(Cnpj.isValid(text));
            case Parsed.Invalid<Cnpj> i -> {
                assertEquals(Cnpj.FIELD, i.violation().field());
                assertFalse(Cnpj.isValid(text));
            }
        }
    }
}
