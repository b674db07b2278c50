package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CnpjTest {

    @Test
    void acceptsTheOfficialAlphanumericExample() {
        Cnpj cnpj = Cnpj.of("12.ABC.345/01DE-35");
        assertEquals("12ABC34501DE35", cnpj.value());
        assertEquals("12.ABC.345/01DE-35", cnpj.formatted());
        assertTrue(cnpj.isAlphanumeric());
        assertTrue(Cnpj.isValid("12abc34501de35"));
    }

    @Test
    void rejectsWrongCheckDigitsNamingTheExpectedOnes() {
        Parsed<Cnpj> parsed = Cnpj.parse("12.ABC.345/01DE-36");
        Parsed.Invalid<Cnpj> invalid = (Parsed.Invalid<Cnpj>) parsed;
        assertEquals("cnpj", invalid.violation().field());
        assertEquals("check-digits", invalid.violation().rule());
        assertTrue(
                invalid.violation().message().contains("expected 35"),
                invalid.violation().message());
        assertFalse(Cnpj.isValid("12.ABC.345/01DE-36"));
    }

    @Test
    void acceptsARealNumericCnpj() {
        assertEquals("33683111000280", Cnpj.of("33.683.111/0002-80").value());
    }
}
