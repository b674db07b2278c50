package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.person.Dossier;
import dev.cadastro.core.person.PersonAnswers;
import dev.cadastro.core.person.Subject;
import dev.cadastro.core.provider.MalformedAnswerException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulatedPersonBureauTest {
    private static Cpf cpf(int i) {
        return Cpf.withCheckDigits(String.format("%09d", 200_000_000 + i * 7919));
    }

    @Test
    void theSameCpfGetsTheSameDossierAndSomePersonsHaveNoDataUnderSomePurposes() {
        SimulatedPersonBureau a = new SimulatedPersonBureau(FaultPlan.none());
        SimulatedPersonBureau b = new SimulatedPersonBureau(FaultPlan.none());
        int none = 0;
        int someOnly = 0;
        for (int i = 0; i < 400; i++) {
            Cpf c = cpf(i);
            int empty = 0;
            for (Purpose p : Purpose.values()) {
                Optional<Dossier> d = a.lookup(new Subject.ByCpf(c), p);
                assertEquals(
                        d.map(PersonAnswers::tree),
                        b.lookup(new Subject.ByCpf(c), p).map(PersonAnswers::tree));
                assertEquals(SimulatedPersonBureau.hasNothingOn(c, p), d.isEmpty());
                d.ifPresent(x -> assertEquals(c.digits(), x.cpf()));
                empty += d.isEmpty() ? 1 : 0;
            }
            none += empty == Purpose.values().length ? 1 : 0;
            someOnly += empty > 0 && empty < Purpose.values().length ? 1 : 0;
        }
        assertTrue(none > 10 && none < 100, "about a tenth have nothing at all: " + none);
        assertTrue(someOnly > 50, "others lack data under some purposes only: " + someOnly);
    }

    @Test
    void aPhoneLeadsToItsOwnerDeterministicallyAndTheDossierListsThatPhone() {
        SimulatedPersonBureau bureau = new SimulatedPersonBureau(FaultPlan.none());
        int found = 0;
        for (int i = 0; i < 50; i++) {
            String number = "2191234" + String.format("%04d", i);
            Optional<Cpf> owner = SimulatedPersonBureau.ownerOf(number);
            Optional<Dossier> d = bureau.lookup(new Subject.ByPhone(Phone.of(number)), Purpose.KYC_CADASTRO);
            if (d.isPresent()) {
                found++;
                assertEquals(owner.orElseThrow().digits(), d.get().cpf());
                assertEquals(number, d.get().telefones().get(0).numero());
            }
        }
        assertTrue(found > 20, "most phones have an owner with data: " + found);
    }

    @Test
    void faultsMakeItFailOrAnswerGarbageForTheDocumentsTheyName() {
        Cpf c = cpf(3);
        FaultPlan plan = FaultPlan.none();
        SimulatedPersonBureau bureau = new SimulatedPersonBureau(plan);
        plan.forDocument(c.digits(), new Fault.Down());
        assertThrows(RuntimeException.class, () -> bureau.lookup(new Subject.ByCpf(c), Purpose.KYC_CADASTRO));
        plan.clear().forDocument(c.digits(), new Fault.Malformed());
        if (!SimulatedPersonBureau.hasNothingOn(c, Purpose.KYC_CADASTRO)) {
            assertThrows(
                    MalformedAnswerException.class, () -> bureau.lookup(new Subject.ByCpf(c), Purpose.KYC_CADASTRO));
        }
        plan.clear().forDocument(c.digits(), new Fault.ExtraFields());
        for (Purpose p : Purpose.values()) {
            Optional<Dossier> d = bureau.lookup(new Subject.ByCpf(c), p);
            assertEquals(SimulatedPersonBureau.hasNothingOn(c, p), d.isEmpty(), "extra fields are dropped, not fatal");
        }
    }
}
