package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LookupAndMunicipioTest {
    private static RegisterFixture fixture;
    private static LuceneRegister register;

    @BeforeAll
    static void buildIndex() {
        fixture = RegisterFixture.build(20_000, 3);
        register = LuceneRegister.open(
                fixture.root,
                SearchOptions.builder().refreshInterval(Duration.ZERO).build());
    }

    @AfterAll
    static void deleteIndex() {
        register.close();
        fixture.close();
    }

    @Test
    void lookupReturnsTheRecordWithDescriptions() {
        for (int i = 0; i < 2_000; i += 37) {
            Establishment e = fixture.rows.get(i);
            Empresa found = register.lookup(e.cnpj()).orElseThrow();
            assertEquals(e.cnpj().value(), found.cnpj());
            assertEquals(e.situacaoCadastral(), found.situacaoCadastral());
            assertEquals(e.cnaePrincipal(), found.cnae());
            assertEquals(SyntheticRegister.lookups().cnaes().get(e.cnaePrincipal()), found.cnaeDescricao());
            assertEquals(e.uf(), found.uf());
            assertEquals(SyntheticRegister.lookups().municipios().get(e.municipio()), found.municipio());
            assertEquals(e.dataAbertura(), found.dataAbertura());
            assertEquals(e.email(), found.email());
            assertEquals(e.bairro(), found.bairro());
            assertEquals(e.cep(), found.cep());
            if (e.company() != null) {
                assertEquals(e.company().razaoSocial(), found.razaoSocial());
                assertEquals(e.company().naturezaJuridica(), found.naturezaJuridica());
                assertEquals(
                        SyntheticRegister.lookups().naturezas().get(e.company().naturezaJuridica()),
                        found.naturezaDescricao());
                assertEquals(e.company().porte(), found.porte());
                Long c = e.company().capitalSocialCentavos();
                assertEquals(c == null ? null : BigDecimal.valueOf(c, 2), found.capitalSocial());
            }
            assertEquals(e.telefones().isEmpty() ? null : e.telefones().get(0).formatted(), found.telefone());
        }
    }

    @Test
    void lookupFindsAlphanumericCnpjsGivenWithPunctuation() {
        Establishment alpha = fixture.rows.stream()
                .filter(e -> e.cnpj().isAlphanumeric())
                .findFirst()
                .orElseThrow();
        Cnpj parsed = Cnpj.of(alpha.cnpj().formatted().toLowerCase(java.util.Locale.ROOT));
        assertEquals(alpha.cnpj().value(), register.lookup(parsed).orElseThrow().cnpj());
    }

    @Test
    void lookupOfAnAbsentCnpjIsEmpty() {
        assertTrue(register.lookup(Cnpj.of("33.683.111/0002-80")).isEmpty());
    }

    @Test
    void situacaoKeepsItsLeadingZeroAndDescriptions() {
        Empresa e = register.search(RegisterQuery.builder()
                        .situacaoCadastral("02")
                        .limite(1)
                        .build())
                .dados()
                .get(0);
        assertEquals("02", e.situacaoCadastral());
        assertEquals("ATIVA", e.situacaoDescricao());
        assertTrue(e.porte() == null || e.porteDescricao() != null);
    }

    private long count(RegisterQuery.Builder b) {
        return register.count(b.build()).total();
    }

    @Test
    void municipalitiesResolveByReceitaCodeIbgeCodeAndAccentInsensitiveName() {
        long byCode = count(RegisterQuery.builder().municipios("7107"));
        assertTrue(byCode > 0);
        assertEquals(byCode, count(RegisterQuery.builder().municipios("3550308")));
        assertEquals(byCode, count(RegisterQuery.builder().municipios("São Paulo")));
        assertEquals(byCode, count(RegisterQuery.builder().municipios("sao  paulo")));
        assertEquals(
                byCode, count(RegisterQuery.builder().municipios("SAO PAULO").ufs("SP")));
        assertEquals(0, count(RegisterQuery.builder().municipios("SAO PAULO").ufs("RJ")));
    }

    @Test
    void anAmbiguousNameNeedsUfs() {
        InvalidParameterException e = assertThrows(
                InvalidParameterException.class,
                () -> register.count(
                        RegisterQuery.builder().municipios("Boa Vista").build()));
        assertEquals("municipios", e.violation().field());
        assertEquals("ambiguous-municipality", e.violation().rule());
        assertTrue(e.getMessage().contains("'Boa Vista' names 2 municipalities (in PB, RR)"), e.getMessage());
        long rr = count(RegisterQuery.builder().municipios("Boa Vista").ufs("RR"));
        assertEquals(count(RegisterQuery.builder().municipios("0301")), rr);
    }

    @Test
    void unknownMunicipalitiesAreRejectedNamingTheValue() {
        for (String bad : new String[] {"Atlantis", "1234567", "0000"}) {
            InvalidParameterException e = assertThrows(
                    InvalidParameterException.class,
                    () -> register.search(
                            RegisterQuery.builder().municipios(bad).build()));
            assertEquals("unknown-municipality", e.violation().rule());
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void aPagePastTheLastMatchIsEmptyAndStatesTheTotal() {
        // SP + situation: a total the precomputed counts answer, so the engine is not asked to plan.
        RegisterQuery base =
                RegisterQuery.builder().ufs("SP").situacaoCadastral("02").build();
        long total = register.count(base).total();
        long expected = fixture.matching(base).size();
        assertEquals(expected, total);
        int last = (int) (total / 50) + 1;
        var lastPage = register.search(RegisterQuery.builder()
                .ufs("SP")
                .situacaoCadastral("02")
                .pagina(last)
                .build());
        assertEquals(total - (long) (last - 1) * 50, lastPage.retornados());
        var past = register.search(RegisterQuery.builder()
                .ufs("SP")
                .situacaoCadastral("02")
                .pagina(last + 1)
                .build());
        assertEquals(0, past.retornados());
        assertEquals(total, past.total());
    }
}
