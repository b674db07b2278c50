package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CnpjRootTest {

    @Test
    void acceptsDigitsLettersLowerCaseAndTheMask() {
        assertEquals("12ABC345", CnpjRoot.of("12abc345").value());
        assertEquals("33683111", CnpjRoot.of("33.683.111").value());
        assertEquals("12ABC345", CnpjRoot.of(" 12.ABC.345 ").value());
    }

    @Test
    void acceptsTheRootOfZeros() {
        assertEquals("00000000", CnpjRoot.of("00000000").value());
        assertTrue(CnpjRoot.isValid("00000000"));
    }

    @Test
    void rejectsWrongLengthsAndCharactersNamingTheRule() {
        Violation format = assertInstanceOf(Parsed.Invalid.class, CnpjRoot.parse("1234567"))
                .violation();
        assertEquals("cnpj_basico", format.field());
        assertEquals(Violation.FORMAT, format.rule());
        Violation characters = assertInstanceOf(Parsed.Invalid.class, CnpjRoot.parse("1234-678"))
                .violation();
        assertEquals(Violation.CHARACTERS, characters.rule());
        Violation blank =
                assertInstanceOf(Parsed.Invalid.class, CnpjRoot.parse("  ")).violation();
        assertEquals(Violation.REQUIRED, blank.rule());
        assertFalse(CnpjRoot.isValid("12abc345"));
    }

    @Test
    void buildsItsEstablishments() {
        CnpjRoot root = CnpjRoot.of("12ABC345");
        assertEquals(Cnpj.of("12.ABC.345/01DE-35"), root.establishment("01DE"));
        assertEquals(Cnpj.of("00.000.000/0001-91"), CnpjRoot.of("00000000").establishment("0001"));
        assertThrows(IllegalArgumentException.class, () -> root.establishment("001"));
    }

    @Test
    void constructorAcceptsOnlyCanonicalRoots() {
        assertThrows(IllegalArgumentException.class, () -> new CnpjRoot("12abc345"));
        assertThrows(IllegalArgumentException.class, () -> new CnpjRoot("12ABC3456"));
        assertThrows(IllegalArgumentException.class, () -> new CnpjRoot(null));
    }
}
