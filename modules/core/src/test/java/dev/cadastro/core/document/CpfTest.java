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

class CpfTest {

    private static Violation violationOf(String text) {
        return assertInstanceOf(Parsed.Invalid.class, Cpf.parse(text)).violation();
    }

    @Test
    void acceptsPlainFormattedAndPaddedInput() {
        assertEquals("11144477735", Cpf.of("11144477735").digits());
        assertEquals("11144477735", Cpf.of("111.444.777-35").digits());
        assertEquals("11144477735", Cpf.of("  111.444.777-35\n").digits());
        assertEquals("111.444.777-35", Cpf.of("11144477735").formatted());
    }

    @ParameterizedTest
    @ValueSource(strings = {"00000000000", "11111111111", "999.999.999-99", "555.555.555-55"})
    void rejectsCpfWithRepeatedDigits(String text) {
        assertFalse(Cpf.isValid(text));
        Violation v = violationOf(text);
        assertEquals("cpf", v.field());
        assertEquals(Violation.REPEATED_DIGITS, v.rule());
        assertTrue(v.message().contains(text), v.message());
    }

    @Test
    void rejectsWrongCheckDigitsNamingTheExpectedOnes() {
        Violation v = violationOf("111.444.777-36");
        assertEquals(Violation.CHECK_DIGITS, v.rule());
        assertEquals("cpf '111.444.777-36' has check digits 36, expected 35", v.message());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"1114447773", "111444777350", "111.444.77735", "111444777-35", "111.444.777.35", "1114447773a"})
    void rejectsWrongShapesAsFormat(String text) {
        assertFalse(Cpf.isValid(text));
        Violation v = violationOf(text);
        assertEquals(Violation.FORMAT, v.rule());
        assertTrue(v.message().contains("NNN.NNN.NNN-NN"), v.message());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\t\n"})
    void blankIsRequiredNotMalformed(String text) {
        assertEquals(Violation.REQUIRED, violationOf(text).rule());
        assertEquals(
                Violation.REQUIRED,
                assertInstanceOf(Parsed.Invalid.class, Cpf.parse(null))
                        .violation()
                        .rule());
        assertFalse(Cpf.isValid(text));
        assertFalse(Cpf.isValid(null));
    }

    @Test
    void knownBlindSpotOfTheRule() {
        // Changing the first digit here moves the first remainder from 1 to 0; both give check digit 0,
        // and the first digit's weight for the second check digit is 11. Both are valid CPFs.
        assertTrue(Cpf.isValid("64540489003"));
        assertTrue(Cpf.isValid("74540489003"));
    }

    @Test
    void toStringMasksTheNumber() {
        Cpf cpf = Cpf.of("111.444.777-35");
        assertEquals("***444777**", cpf.masked());
        assertEquals("Cpf[***444777**]", cpf.toString());
        assertFalse(cpf.toString().contains("11144477735"));
    }

    @Test
    void constructorAcceptsOnlyCanonicalValidDigits() {
        assertEquals("11144477735", new Cpf("11144477735").digits());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Cpf("111.444.777-35"));
        assertTrue(e.getMessage().contains("Cpf.parse"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Cpf("11144477736"));
        assertThrows(IllegalArgumentException.class, () -> new Cpf(" 1144477735"));
        assertThrows(IllegalArgumentException.class, () -> new Cpf(null));
    }

    @Test
    void withCheckDigitsCompletesNineDigits() {
        assertEquals("11144477735", Cpf.withCheckDigits("111444777").digits());
        assertThrows(IllegalArgumentException.class, () -> Cpf.withCheckDigits("11144477"));
        assertThrows(IllegalArgumentException.class, () -> Cpf.withCheckDigits("11144477a"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Cpf.withCheckDigits("222222222"));
        assertTrue(e.getMessage().contains("repeated"), e.getMessage());
    }

    @Test
    void ofThrowsCpfInvalidoForDigitsAndParametroInvalidoForShape() {
        InvalidDocumentException digits = assertThrows(InvalidDocumentException.class, () -> Cpf.of("111.444.777-36"));
        assertEquals(ErrorCode.CPF_INVALIDO, digits.code());
        assertEquals(Violation.CHECK_DIGITS, digits.violation().rule());
        assertEquals(
                ErrorCode.CPF_INVALIDO,
                assertThrows(InvalidDocumentException.class, () -> Cpf.of("333.333.333-33"))
                        .code());
        assertEquals(
                ErrorCode.PARAMETRO_INVALIDO,
                assertThrows(InvalidDocumentException.class, () -> Cpf.of("123"))
                        .code());
        assertEquals(
                ErrorCode.PARAMETRO_INVALIDO,
                assertThrows(InvalidDocumentException.class, () -> Cpf.of(" ")).code());
    }

    @Test
    void ordersByDigits() {
        assertTrue(Cpf.of("11144477735").compareTo(Cpf.of("52998224725")) < 0);
    }
}
