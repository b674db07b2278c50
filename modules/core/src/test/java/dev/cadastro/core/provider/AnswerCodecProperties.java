package dev.cadastro.core.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.credit.CreditAnswers;
import dev.cadastro.core.credit.CreditReport;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.enrichment.BureauAnswers;
import dev.cadastro.core.enrichment.BureauCompany;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class AnswerCodecProperties {

    @Property(tries = 300)
    void bureauAnswersRoundTrip(@ForAll long seed) {
        String cnpj = RandomAnswers.cnpj(new SplittableRandom(seed));
        BureauCompany company = new RandomAnswers(seed).company(cnpj);
        assertEquals(company, BureauAnswers.read(BureauAnswers.tree(company), Cnpj.of(cnpj)));
    }

    @Property(tries = 300)
    void creditReportsRoundTrip(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        String doc = r.nextBoolean() ? RandomAnswers.cpf(r) : RandomAnswers.cnpj(r);
        CreditReport report = new RandomAnswers(seed).report(doc);
        assertEquals(report, CreditAnswers.read(CreditAnswers.tree(report), TaxId.of(doc)));
    }

    @Property(tries = 300)
    void bureauTreeKeysAreAlwaysOnTheAllowlist(@ForAll long seed) {
        BureauCompany company = new RandomAnswers(seed).company(RandomAnswers.cnpj(new SplittableRandom(seed)));
        for (String path : RandomAnswers.paths(BureauAnswers.tree(company))) {
            assertTrue(BureauAnswers.ALLOWLIST.allows(path), path);
        }
    }

    @Property(tries = 300)
    void creditTreeKeysAreAlwaysOnTheAllowlist(@ForAll long seed) {
        CreditReport report = new RandomAnswers(seed).report(RandomAnswers.cpf(new SplittableRandom(seed)));
        for (String path : RandomAnswers.paths(CreditAnswers.tree(report))) {
            assertTrue(CreditAnswers.ALLOWLIST.allows(path), path);
        }
    }

    /** Extra keys at every level never survive the filter, and never change what is read. */
    @Property(tries = 300)
    void noiseInABureauAnswerIsDroppedAndChangesNothing(@ForAll long seed) {
        String cnpj = RandomAnswers.cnpj(new SplittableRandom(seed));
        RandomAnswers gen = new RandomAnswers(seed);
        BureauCompany company = gen.company(cnpj);
        Map<String, Object> noisy = gen.withNoise(BureauAnswers.tree(company));
        Map<String, Object> filtered = BureauAnswers.ALLOWLIST.filter(noisy);
        List<String> paths = RandomAnswers.paths(filtered);
        for (String path : paths) {
            assertTrue(BureauAnswers.ALLOWLIST.allows(path), path);
            for (String personal : RandomAnswers.PERSONAL_KEYS) {
                assertTrue(!path.endsWith(personal) || path.equals("socios[].cpf"), path);
            }
        }
        assertEquals(company, BureauAnswers.read(noisy, Cnpj.of(cnpj)));
    }

    @Property(tries = 300)
    void noiseInACreditReportIsDroppedAndChangesNothing(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        String doc = r.nextBoolean() ? RandomAnswers.cpf(r) : RandomAnswers.cnpj(r);
        RandomAnswers gen = new RandomAnswers(seed);
        CreditReport report = gen.report(doc);
        Map<String, Object> noisy = gen.withNoise(CreditAnswers.tree(report));
        for (String path : RandomAnswers.paths(CreditAnswers.ALLOWLIST.filter(noisy))) {
            assertTrue(CreditAnswers.ALLOWLIST.allows(path), path);
        }
        assertEquals(report, CreditAnswers.read(noisy, TaxId.of(doc)));
    }
}
