package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TaxIdTest {

    @Test
    void readsElevenDigitsAndTheCpfMaskAsCpf() {
        assertInstanceOf(Cpf.class, TaxId.of("11144477735"));
        assertInstanceOf(Cpf.class, TaxId.of("111.444.777-35"));
        assertEquals("111.444.777-35", TaxId.of(" 11144477735 ").formatted());
    }

    @Test
    void readsFourteenCharactersAndTheCnpjMaskAsCnpj() {
        assertInstanceOf(Cnpj.class, TaxId.of("12ABC34501DE35"));
        assertInstanceOf(Cnpj.class, TaxId.of("12.ABC.345/01DE-35"));
        assertEquals("11222333000181", TaxId.of("11.222.333/0001-81").canonical());
    }

    @Test
    void keepsTheViolationOfTheTypeItChose() {
        Violation cpf = assertInstanceOf(Parsed.Invalid.class, TaxId.parse("111.444.777-36"))
                .violation();
        assertEquals("cpf", cpf.field());
        assertEquals(Violation.CHECK_DIGITS, cpf.rule());
        Violation cnpj = assertInstanceOf(Parsed.Invalid.class, TaxId.parse("11222333000182"))
                .violation();
        assertEquals("cnpj", cnpj.field());
    }

    @Test
    void saysWhyTextOfOtherLengthsIsNeither() {
        Violation v = assertInstanceOf(Parsed.Invalid.class, TaxId.parse("123")).violation();
        assertEquals(TaxId.DOCUMENT_FIELD, v.field());
        assertEquals(Violation.FORMAT, v.rule());
        assertTrue(v.message().contains("it has 3 characters"), v.message());
        assertFalse(TaxId.isValid("123"));
        assertEquals(
                Violation.REQUIRED,
                assertInstanceOf(Parsed.Invalid.class, TaxId.parse(" "))
                        .violation()
                        .rule());
    }

    @Test
    void isValidFollowsTheShape() {
        assertTrue(TaxId.isValid("111.444.777-35"));
        assertTrue(TaxId.isValid("12abc34501de35"));
        assertFalse(TaxId.isValid("111.444.777-36"));
        assertFalse(TaxId.isValid(null));
    }
}
