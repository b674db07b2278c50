package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ParsedTest {

    @Test
    void givesTheCanonicalFormOfWhatParsesAndTheTextAsSentOtherwise() {
        assertEquals(
                "11144477735", Cpf.parse("111.444.777-35").map(Cpf::canonical).orElse("111.444.777-35"));
        assertEquals(
                "111.444.777-36",
                Cpf.parse("111.444.777-36").map(Cpf::canonical).orElse("111.444.777-36"));
        assertEquals(
                "11222333000181",
                Cnpj.parse(" 11.222.333/0001-81 ").map(Cnpj::value).orElse("as sent"));
    }
}
