package dev.cadastro.core.enrichment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.register.Partner;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartnerMatchTest {
    private static final String FULL = Cpf.withCheckDigits("123456789").digits();
    private static final String MASKED = "***" + FULL.substring(3, 9) + "**";

    private static Partner person(String name, String masked) {
        return new Partner(
                Partner.Kind.PERSON,
                name,
                masked,
                "49",
                "Socio-Administrador",
                LocalDate.of(2015, 3, 2),
                null,
                "***000000**",
                "",
                "00",
                null,
                4);
    }

    private static BureauCompany.Socio bureauPerson(String name, String cpf) {
        return new BureauCompany.Socio("PF", name, cpf, null, "Socio", null, new BigDecimal("50.00"), null, null, null);
    }

    @Test
    void aPublishedPersonTakesTheBureauCpfWhenDigitsAndNameAgree() {
        BureauCompany.Socio s =
                PartnerMatch.complete(person("JOSÉ  da Silva", MASKED), List.of(bureauPerson("Jose da Silva", FULL)));
        assertEquals(FULL, s.cpf());
        assertEquals("JOSÉ  da Silva", s.nome(), "the published name is kept");
        assertEquals("Socio-Administrador", s.qualificacao(), "the published qualification is kept");
        assertEquals(new BigDecimal("50.00"), s.participacao());
        assertEquals("31 a 40 anos", s.faixaEtaria());
        assertNull(s.representanteLegal(), "***000000** and no name mean no representative");
    }

    @Test
    void aBureauCpfWhoseDigitsDisagreeWithTheMaskIsNotTaken() {
        String other = Cpf.withCheckDigits("123000789").digits();
        BureauCompany.Socio s =
                PartnerMatch.complete(person("Jose da Silva", MASKED), List.of(bureauPerson("Jose da Silva", other)));
        assertNull(s.cpf());
        assertNull(s.participacao());
    }

    @Test
    void aBureauCpfOfAnotherNameIsNotTaken() {
        BureauCompany.Socio s =
                PartnerMatch.complete(person("Jose da Silva", MASKED), List.of(bureauPerson("Maria da Silva", FULL)));
        assertNull(s.cpf());
    }

    @Test
    void aCompanyPartnerKeepsItsCnpjAndNeverACpf() {
        Partner company = new Partner(
                Partner.Kind.COMPANY,
                "HOLDING SA",
                "11222333000181",
                "22",
                "Socio",
                null,
                null,
                null,
                null,
                null,
                null,
                0);
        BureauCompany.Socio s = PartnerMatch.complete(company, List.of(bureauPerson("HOLDING SA", FULL)));
        assertEquals("PJ", s.tipo());
        assertEquals("11222333000181", s.cnpj());
        assertNull(s.cpf());
        assertNull(s.faixaEtaria(), "band 0 is 'not applicable'");
    }

    @Test
    void aRepresentativeKeepsTheMaskedCpf() {
        Partner p = new Partner(
                Partner.Kind.FOREIGNER,
                "JOHN DOE",
                null,
                "37",
                "Socio Pessoa Fisica Residente no Exterior",
                null,
                "249",
                "***654321**",
                "ANA REP",
                "17",
                "Procurador",
                5);
        BureauCompany.Socio s = PartnerMatch.complete(p, List.of());
        assertEquals("ESTRANGEIRO", s.tipo());
        assertEquals("249", s.pais());
        assertEquals(new BureauCompany.Representante("ANA REP", "***654321**", "Procurador"), s.representanteLegal());
    }
}
