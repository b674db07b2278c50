package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.credit.CreditAnswers;
import dev.cadastro.core.credit.CreditReport;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.provider.MalformedAnswerException;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SimulatedCreditBureauTest {
    private final TestRegister fixture = TestRegister.get();
    private final SimulatedCreditBureau credit = new SimulatedCreditBureau(fixture.register, FaultPlan.none());

    private static Cpf cpf(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return Cpf.withCheckDigits(String.format("%09d", 100_000_000 + r.nextInt(800_000_000)));
    }

    @Test
    void hasAReportOnEveryEstablishmentOfTheRegister() {
        for (Cnpj cnpj : fixture.cnpjs.subList(0, 60)) {
            CreditReport r = credit.report(cnpj).orElseThrow();
            assertEquals(cnpj.value(), r.documento());
            assertEquals("CNPJ", r.tipoDocumento());
            assertEquals(fixture.register.lookup(cnpj).orElseThrow().razaoSocial(), r.nome());
        }
    }

    @Test
    void hasNothingOnAboutAFifthOfCpfsAndSaysWhich() {
        int nothing = 0;
        for (long i = 0; i < 500; i++) {
            Cpf cpf = cpf(i);
            Optional<CreditReport> r = credit.report(cpf);
            assertEquals(SimulatedCreditBureau.hasNothingOn(cpf), r.isEmpty(), cpf.masked());
            nothing += r.isEmpty() ? 1 : 0;
        }
        assertTrue(nothing > 60 && nothing < 140, nothing + " of 500");
    }

    @Test
    void hasNothingOnSomeCnpjsOutsideTheRegister() {
        Cnpj none = fixture.outside(SimulatedCreditBureau::hasNothingOn);
        Cnpj some = fixture.outside(c -> !SimulatedCreditBureau.hasNothingOn(c));
        assertEquals(Optional.empty(), credit.report(none));
        assertTrue(credit.report(some).isPresent());
    }

    @Test
    void givesTheSameReportTwiceAndAcrossInstances() {
        SimulatedCreditBureau other = new SimulatedCreditBureau(fixture.register, FaultPlan.none());
        for (long i = 0; i < 30; i++) {
            Cpf cpf = cpf(i);
            assertEquals(credit.report(cpf), credit.report(cpf));
            assertEquals(credit.report(cpf), other.report(cpf));
        }
        Cnpj cnpj = fixture.cnpjs.get(11);
        assertEquals(credit.report(cnpj), other.report(cnpj));
    }

    @Test
    void reportsCarryRealisticBlocks() {
        int negative = 0, protests = 0, debts = 0, inquiries = 0, partners = 0;
        for (Cnpj cnpj : fixture.cnpjs.subList(0, 120)) {
            CreditReport r = credit.report(cnpj).orElseThrow();
            negative += r.negativacoes().size();
            protests += r.protestos().size();
            debts += r.dividasVencidas().size();
            inquiries += r.consultasRecentes().size();
            partners += r.socios().size();
            r.consultasRecentes()
                    .forEach(c -> assertTrue(
                            !c.data().isBefore(SimulatedBureau.AS_OF.minusDays(90)),
                            "inquiries are of the last 90 days"));
        }
        assertTrue(negative > 0 && protests > 0 && debts > 0 && inquiries > 0 && partners > 0);
    }

    @Test
    void theHoldersPersonalBlocksNeverReachTheReport() {
        SimulatedCreditBureau flooded =
                new SimulatedCreditBureau(fixture.register, FaultPlan.none().always(new Fault.ExtraFields()));
        for (long i = 0; i < 20; i++) {
            Cpf cpf = cpf(i);
            Optional<CreditReport> r = flooded.report(cpf);
            if (r.isEmpty()) {
                continue;
            }
            assertEquals(credit.report(cpf), r, "extra fields change nothing");
            String tree = CreditAnswers.tree(r.get()).toString();
            for (String personal : List.of(
                    "filiacao",
                    "nome_mae",
                    "nome_pai",
                    "data_nascimento",
                    "enderecos",
                    "telefones",
                    "emails",
                    "titulo_eleitor",
                    "rg",
                    "dados_pessoais")) {
                assertFalse(tree.contains(personal + "="), personal + " leaked: " + tree);
            }
        }
    }

    @Test
    void partnerCpfsAgreeWithTheEnrichmentBureau() {
        SimulatedBureau bureau = new SimulatedBureau(fixture.register, FaultPlan.none());
        for (Cnpj cnpj : fixture.cnpjs.subList(0, 30)) {
            List<String> fromBureau = bureau.company(cnpj).orElseThrow().socios().stream()
                    .map(s -> s.cpf() != null ? s.cpf() : s.cnpj())
                    .filter(d -> d != null)
                    .collect(Collectors.toList());
            List<String> fromCredit = credit.report(cnpj).orElseThrow().socios().stream()
                    .map(CreditReport.Socio::documento)
                    .collect(Collectors.toList());
            assertEquals(fromBureau, fromCredit, cnpj.value());
        }
    }

    @Test
    void aMalformedReportFailsValidation() {
        SimulatedCreditBureau bad =
                new SimulatedCreditBureau(fixture.register, FaultPlan.none().always(new Fault.Malformed()));
        Cnpj cnpj = fixture.cnpjs.get(2);
        MalformedAnswerException e = assertThrows(MalformedAnswerException.class, () -> bad.report(cnpj));
        assertTrue(List.of("documento", "negativacoes", "tipo_documento").contains(e.path()), e.path());
    }
}
