package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CnpjTest {

    private static Violation violationOf(String text) {
        return assertInstanceOf(Parsed.Invalid.class, Cnpj.parse(text)).violation();
    }

    @Test
    void acceptsTheOfficialAlphanumericExample() {
        Cnpj cnpj = Cnpj.of("12.ABC.345/01DE-35");
        assertEquals("12ABC34501DE35", cnpj.value());
        assertEquals("12ABC34501DE35", cnpj.canonical());
        assertEquals("12.ABC.345/01DE-35", cnpj.formatted());
        assertTrue(cnpj.isAlphanumeric());
        assertEquals("12ABC345", cnpj.root().value());
        assertEquals("01DE", cnpj.order());
        assertEquals("35", cnpj.checkDigits());
        assertEquals(cnpj, Cnpj.withCheckDigits("12ABC34501DE"));
    }

    @Test
    void acceptsLowerCaseAndNormalizesIt() {
        assertTrue(Cnpj.isValid("12abc34501de35"));
        assertTrue(Cnpj.isValid("12.abc.345/01dE-35"));
        assertEquals("12ABC34501DE35", Cnpj.of("12.abc.345/01de-35").value());
    }

    @Test
    void rejectsWrongCheckDigitsNamingTheExpectedOnes() {
        Violation v = violationOf("12.ABC.345/01DE-36");
        assertEquals("cnpj", v.field());
        assertEquals(Violation.CHECK_DIGITS, v.rule());
        assertEquals("cnpj '12.ABC.345/01DE-36' has check digits 36, expected 35", v.message());
        assertFalse(Cnpj.isValid("12.ABC.345/01DE-36"));
    }

    @Test
    void acceptsRealNumericCnpjs() {
        assertEquals("33683111000280", Cnpj.of("33.683.111/0002-80").value());
        assertEquals("11222333000181", Cnpj.of("11222333000181").value());
        assertFalse(Cnpj.of("11222333000181").isAlphanumeric());
    }

    @Test
    void acceptsTheRootOfZerosOfBancoDoBrasil() {
        Cnpj cnpj = Cnpj.of("00.000.000/0001-91");
        assertEquals("00000000", cnpj.root().value());
        assertEquals("0001", cnpj.order());
    }

    @ParameterizedTest
    @ValueSource(strings = {"00000000000000", "00.000.000/0000-00", "11111111111111", "99.999.999/9999-99"})
    void rejectsCnpjWithRepeatedDigits(String text) {
        assertFalse(Cnpj.isValid(text));
        assertEquals(Violation.REPEATED_DIGITS, violationOf(text).rule());
    }

    @ParameterizedTest
    @ValueSource(strings = {"12.ABC.345/01DE-3A", "12ABC34501DEA5"})
    void rejectsLettersInTheCheckDigits(String text) {
        assertFalse(Cnpj.isValid(text));
        assertEquals(Violation.CHECK_DIGITS_NUMERIC, violationOf(text).rule());
    }

    @ParameterizedTest
    @ValueSource(strings = {"12ABC345_1DE35", "12.ABC.345/0ÇDE-35", "12 ABC34501DE3"})
    void rejectsCharactersOtherThanDigitsAndLetters(String text) {
        assertFalse(Cnpj.isValid(text));
        assertEquals(Violation.CHARACTERS, violationOf(text).rule());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"12ABC345/01DE-35", "12.ABC.34501DE35", "12-ABC-345/01DE-35", "1122233300018", "112223330001810"
            })
    void rejectsPartialOrWrongPunctuationAndWrongLengths(String text) {
        assertFalse(Cnpj.isValid(text));
        assertEquals(Violation.FORMAT, violationOf(text).rule());
    }

    @Test
    void blankIsRequired() {
        assertEquals(Violation.REQUIRED, violationOf("  ").rule());
        assertEquals(
                Violation.REQUIRED,
                assertInstanceOf(Parsed.Invalid.class, Cnpj.parse(null))
                        .violation()
                        .rule());
    }

    @Test
    void constructorAcceptsOnlyCanonicalValues() {
        assertThrows(IllegalArgumentException.class, () -> new Cnpj("12abc34501de35"));
        assertThrows(IllegalArgumentException.class, () -> new Cnpj("12.ABC.345/01DE-35"));
        assertThrows(IllegalArgumentException.class, () -> new Cnpj("12ABC34501DE36"));
        assertThrows(IllegalArgumentException.class, () -> new Cnpj(null));
        assertEquals("12ABC34501DE35", new Cnpj("12ABC34501DE35").value());
    }

    @Test
    void withCheckDigitsRejectsBadBodies() {
        assertThrows(IllegalArgumentException.class, () -> Cnpj.withCheckDigits("12ABC34501D"));
        assertThrows(IllegalArgumentException.class, () -> Cnpj.withCheckDigits("12ABC34501D-"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Cnpj.withCheckDigits("000000000000"));
        assertTrue(e.getMessage().contains("repeated"), e.getMessage());
    }

    @Test
    void knownBlindSpotOfTheRule() {
        // Both remainders move between 0 and 1 when the fifth digit changes from 7 to 2.
        assertTrue(Cnpj.isValid("75137465833300"));
        assertTrue(Cnpj.isValid("75132465833300"));
    }

    @Test
    void ofThrowsParametroInvalido() {
        InvalidDocumentException e = assertThrows(InvalidDocumentException.class, () -> Cnpj.of("12.ABC.345/01DE-36"));
        assertEquals(ErrorCode.PARAMETRO_INVALIDO, e.code());
        assertEquals("cnpj", e.violation().field());
        assertEquals("field=cnpj; rule=check-digits", e.detail().orElseThrow());
    }
}
