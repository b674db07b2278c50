package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.enrichment.BureauAnswers;
import dev.cadastro.core.enrichment.BureauCompany;
import dev.cadastro.core.provider.MalformedAnswerException;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Partner;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.core.register.SearchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulatedBureauTest {
    private final TestRegister fixture = TestRegister.get();

    @Test
    void knowsEveryEstablishmentOfTheRegister() {
        SimulatedBureau bureau = new SimulatedBureau(fixture.register, FaultPlan.none());
        for (Cnpj cnpj : fixture.cnpjs.subList(0, 60)) {
            BureauCompany c = bureau.company(cnpj).orElseThrow();
            assertEquals(cnpj.value(), c.cnpj());
            assertNotNull(c.porte());
            assertNotNull(c.risco());
            assertFalse(c.socios().isEmpty(), "every company has partners");
        }
    }

    @Test
    void givesTheSameAnswerTwiceAndAcrossInstances() {
        SimulatedBureau one = new SimulatedBureau(fixture.register, FaultPlan.none());
        SimulatedBureau two = new SimulatedBureau(fixture.register, FaultPlan.none());
        for (Cnpj cnpj : fixture.cnpjs.subList(0, 40)) {
            BureauCompany first = one.company(cnpj).orElseThrow();
            assertEquals(first, one.company(cnpj).orElseThrow());
            assertEquals(first, two.company(cnpj).orElseThrow());
        }
    }

    @Test
    void knowsSomeCnpjsOutsideTheRegisterAndNotOthers() {
        SimulatedBureau bureau = new SimulatedBureau(fixture.register, FaultPlan.none());
        Cnpj known = fixture.outside(SimulatedBureau::knowsOutsideRegister);
        Cnpj unknown = fixture.outside(c -> !SimulatedBureau.knowsOutsideRegister(c));
        assertEquals(known.value(), bureau.company(known).orElseThrow().cnpj());
        assertEquals(Optional.empty(), bureau.company(unknown));
    }

    @Test
    void knowsAboutATenthOfTheCnpjsOutsideTheRegister() {
        int known = 0;
        for (int i = 0; i < 2000; i++) {
            if (SimulatedBureau.knowsOutsideRegister(Cnpj.withCheckDigits(String.format("%08d0001", 50_000_000 + i)))) {
                known++;
            }
        }
        assertTrue(known > 150 && known < 250, "known " + known + " of 2000");
    }

    @Test
    void theRawAnswerCarriesPersonalFieldsThatNeverReachTheResult() {
        SimulatedBureau bureau = new SimulatedBureau(fixture.register, FaultPlan.none());
        Cnpj cnpj = fixture.cnpjs.get(3);
        Map<String, Object> raw =
                bureau.rawAnswer(cnpj, fixture.register.lookup(cnpj).orElseThrow());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rawSocios = (List<Map<String, Object>>) raw.get("socios");
        for (Map<String, Object> socio : rawSocios) {
            assertTrue(socio.containsKey("pep"), "every raw partner carries an unknown field");
            if ("PF".equals(socio.get("tipo"))) {
                for (String personal :
                        List.of("endereco_residencial", "telefones", "email", "data_nascimento", "nome_mae")) {
                    assertTrue(socio.containsKey(personal), "a raw natural partner carries " + personal);
                }
            }
        }
        String read = BureauAnswers.tree(bureau.company(cnpj).orElseThrow()).toString();
        for (String personal : List.of(
                "endereco_residencial", "telefones", "data_nascimento", "nome_mae", "email", "pep", "telefone")) {
            assertFalse(read.contains(personal + "="), personal + " leaked: " + read);
        }
    }

    @Test
    void extraFieldsNeverPassTheAllowlist() {
        Cnpj cnpj = fixture.cnpjs.get(5);
        SimulatedBureau bureau =
                new SimulatedBureau(fixture.register, FaultPlan.none().always(new Fault.ExtraFields()));
        BureauCompany flooded = bureau.company(cnpj).orElseThrow();
        assertEquals(
                new SimulatedBureau(fixture.register, FaultPlan.none())
                        .company(cnpj)
                        .orElseThrow(),
                flooded);
    }

    @Test
    void aMalformedAnswerFailsValidation() {
        SimulatedBureau bureau =
                new SimulatedBureau(fixture.register, FaultPlan.none().always(new Fault.Malformed()));
        for (Cnpj cnpj : fixture.cnpjs.subList(0, 10)) {
            MalformedAnswerException e = assertThrows(MalformedAnswerException.class, () -> bureau.company(cnpj));
            assertTrue(List.of("cnpj", "socios", "atividades_secundarias").contains(e.path()), e.path());
        }
    }

    @Test
    void aDownBureauThrowsAndAFaultForOneDocumentSparesTheOthers() {
        Cnpj down = fixture.cnpjs.get(0);
        SimulatedBureau bureau =
                new SimulatedBureau(fixture.register, FaultPlan.none().forDocument(down.value(), new Fault.Down()));
        assertThrows(UncheckedIOException.class, () -> bureau.company(down));
        assertTrue(bureau.company(fixture.cnpjs.get(1)).isPresent());
        bureau.faults().clear();
        assertTrue(bureau.company(down).isPresent());
    }

    @Test
    void completesThePublishedPartnersCpfConsistentlyWithItsMask() {
        Cnpj cnpj = fixture.cnpjs.get(7);
        Partner person = new Partner(
                Partner.Kind.PERSON,
                "MARIA DAS DORES",
                "***456789**",
                "49",
                "Socio-Administrador",
                LocalDate.of(2015, 3, 2),
                null,
                "***000000**",
                null,
                "00",
                null,
                5);
        Partner company = new Partner(
                Partner.Kind.COMPANY,
                "HOLDING SA",
                "11222333000181",
                "22",
                "Socio",
                LocalDate.of(2016, 1, 1),
                null,
                "***123456**",
                "JOAO REPRESENTANTE",
                "05",
                "Administrador",
                0);
        RegisterSearch withPartners = new PublishedPartners(fixture.register, cnpj.root(), List.of(person, company));
        SimulatedBureau bureau = new SimulatedBureau(withPartners, FaultPlan.none());

        List<BureauCompany.Socio> socios = bureau.company(cnpj).orElseThrow().socios();

        assertEquals(2, socios.size());
        BureauCompany.Socio pf = socios.get(0);
        assertEquals("PF", pf.tipo());
        assertEquals("MARIA DAS DORES", pf.nome());
        assertEquals("***456789**", Cpf.of(pf.cpf()).masked(), "digits 4 to 9 are the published ones");
        assertEquals("41 a 50 anos", pf.faixaEtaria());
        assertEquals(LocalDate.of(2015, 3, 2), pf.dataEntrada());
        assertEquals(null, pf.representanteLegal(), "the dump's ***000000** means no representative");
        BureauCompany.Socio pj = socios.get(1);
        assertEquals("11222333000181", pj.cnpj());
        assertEquals(
                new BureauCompany.Representante("JOAO REPRESENTANTE", "***123456**", "Administrador"),
                pj.representanteLegal());
        assertEquals(
                pf.cpf(),
                new SimulatedBureau(withPartners, FaultPlan.none())
                        .company(cnpj)
                        .orElseThrow()
                        .socios()
                        .get(0)
                        .cpf());
    }

    /**
     * The real register, with a published partner structure for one root: the dump's Socios rows are
     * loaded by another change, and until then the real index answers no partners.
     */
    record PublishedPartners(RegisterSearch real, CnpjRoot root, List<Partner> partners) implements RegisterSearch {
        @Override
        public SearchResult search(RegisterQuery query) {
            return real.search(query);
        }

        @Override
        public CountResult count(RegisterQuery query) {
            return real.count(query);
        }

        @Override
        public Optional<Empresa> lookup(Cnpj cnpj) {
            return real.lookup(cnpj);
        }

        @Override
        public List<Partner> partners(CnpjRoot asked) {
            return asked.equals(root) ? partners : real.partners(asked);
        }

        @Override
        public long export(RegisterQuery query, int limit, RecordSink sink) throws IOException {
            return real.export(query, limit, sink);
        }
    }
}
