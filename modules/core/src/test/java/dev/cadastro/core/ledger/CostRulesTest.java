package dev.cadastro.core.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CostRulesTest {
    private static final AccountId ACCOUNT = new AccountId(42);
    private static final Cnpj CNPJ = Cnpj.of("33.683.111/0002-80");
    private static final Cpf CPF = Cpf.withCheckDigits("123456789");

    private static CostRules at(String instant) {
        return new CostRules(Clock.fixed(Instant.parse(instant), ZoneOffset.UTC));
    }

    @Test
    void sameCnpjLookupSharesOneKeyForTheWholeSaoPauloDay() {
        // 03:00Z is 00:00 in Sao Paulo (UTC-3); 02:59:59Z the next day is 23:59:59.
        ChargeRequest first = at("2026-11-20T03:00:00Z").companyLookup(ACCOUNT, CNPJ);
        ChargeRequest last = at("2026-11-21T02:59:59Z").companyLookup(ACCOUNT, CNPJ);
        assertEquals(first.key(), last.key());
        assertEquals("lookup:42:33683111000280:2026-11-20", first.key().value());
        assertEquals(1, first.amount());
        assertNotEquals(
                first.key(),
                at("2026-11-21T03:00:00Z").companyLookup(ACCOUNT, CNPJ).key());
        assertNotEquals(
                first.key(),
                at("2026-11-20T02:59:59Z").companyLookup(ACCOUNT, CNPJ).key());
    }

    @Test
    void enrichmentCostsFiveWithSameDayDedup() {
        ChargeRequest a = at("2026-11-20T12:00:00Z").enrichment(ACCOUNT, CNPJ);
        assertEquals(5, a.amount());
        assertEquals(
                a.key(), at("2026-11-21T02:59:59Z").enrichment(ACCOUNT, CNPJ).key());
        assertNotEquals(
                a.key(), at("2026-11-21T03:00:00Z").enrichment(ACCOUNT, CNPJ).key());
        assertNotEquals(
                a.key(), at("2026-11-20T12:00:00Z").companyLookup(ACCOUNT, CNPJ).key());
    }

    @Test
    void creditReportSharesOneKeyPerDocumentPerSaoPauloMonth() {
        ChargeRequest first = at("2026-11-01T03:00:00Z").creditReport(ACCOUNT, CNPJ);
        assertEquals(10, first.amount());
        assertEquals(
                first.key(),
                at("2026-12-01T02:59:59Z").creditReport(ACCOUNT, CNPJ).key());
        assertNotEquals(
                first.key(),
                at("2026-12-01T03:00:00Z").creditReport(ACCOUNT, CNPJ).key());
        assertNotEquals(
                first.key(),
                at("2026-11-01T02:59:59Z").creditReport(ACCOUNT, CNPJ).key());
        ChargeRequest person = at("2026-11-15T12:00:00Z").creditReport(ACCOUNT, CPF);
        assertEquals(
                person.key(),
                at("2026-11-30T23:00:00Z").creditReport(ACCOUNT, CPF).key());
        assertFalse(person.key().value().contains(CPF.digits()), "no CPF in clear in the ledger");
        assertFalse(person.description().contains(CPF.digits()));
    }

    @Test
    void personLookupChargesFifteenOnEveryCall() {
        CostRules rules = at("2026-11-20T12:00:00Z");
        ChargeRequest one = rules.personLookup(ACCOUNT, "req-1");
        ChargeRequest two = rules.personLookup(ACCOUNT, "req-2");
        assertEquals(15, one.amount());
        assertNotEquals(one.key(), two.key());
        assertEquals(
                rules.personJob(ACCOUNT, "job-9").key(),
                rules.personJob(ACCOUNT, "job-9").key());
        assertEquals(15, rules.personJob(ACCOUNT, "job-9").amount());
    }

    @Test
    void batchChargesNoInvalidCpfAndEachDuplicateOnce() {
        String valid = CPF.digits();
        String other = Cpf.withCheckDigits("987654321").formatted();
        Map<Cpf, ChargeRequest> charges = at("2026-11-20T12:00:00Z")
                .personBatch(ACCOUNT, "lote-1", List.of(valid, "111.111.111-11", CPF.formatted(), other, "123", valid));
        assertEquals(List.of(CPF, Cpf.of(other)), List.copyOf(charges.keySet()));
        assertTrue(charges.values().stream().allMatch(c -> c.amount() == 15));
        assertEquals(
                2, charges.values().stream().map(ChargeRequest::key).distinct().count());
        assertTrue(charges.values().stream().noneMatch(c -> c.key().value().contains(valid)));
    }

    @Test
    void searchChargesRecordsDeliveredAndCountOnlyIsFree() {
        CostRules rules = at("2026-11-20T12:00:00Z");
        assertEquals(37, rules.search(ACCOUNT, "r1", 37, false).amount());
        assertEquals(0, rules.search(ACCOUNT, "r2", 0, true).amount());
        assertEquals(0, rules.search(ACCOUNT, "r3", 50, true).amount());
        assertThrows(IllegalArgumentException.class, () -> rules.search(ACCOUNT, "r4", -1, false));
    }

    @Test
    void mailingHoldsTheQuantityAndSmsHoldsOneSmsCredit() {
        CostRules rules = at("2026-11-20T12:00:00Z");
        HoldRequest mailing = rules.mailingHold(ACCOUNT, "job-1", 5000);
        assertEquals(5000, mailing.amount());
        assertEquals(CreditKind.CREDITS, mailing.kind());
        assertEquals(1200, rules.mailingCost(1200));
        HoldRequest sms = rules.smsCode(ACCOUNT, "disp-1");
        assertEquals(CreditKind.SMS_CREDITS, sms.kind());
        assertEquals(1, sms.amount());
    }

    @Test
    void referencesWithSeparatorsOrSpacesAreRefusedNamingTheCharacter() {
        CostRules rules = at("2026-11-20T12:00:00Z");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> rules.personLookup(ACCOUNT, "a:b"));
        assertTrue(e.getMessage().contains("request reference 'a:b'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> rules.personLookup(ACCOUNT, ""));
        assertThrows(IllegalArgumentException.class, () -> rules.mailingHold(ACCOUNT, "job", 0));
    }
}
