package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every rule of the cost table, applied to the PostgreSQL ledger with a clock set on either side of
 * midnight and of the month's turn in America/Sao_Paulo (UTC-3: 03:00Z is 00:00 there).
 */
class CostRulesLedgerTest {
    private static final Cnpj CNPJ = Cnpj.of("33.683.111/0002-80");
    private static final Cpf CPF = Cpf.withCheckDigits("529982247");

    private final Ledger ledger = TestDatabase.store().ledger();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-20T02:59:59Z"));
    private final CostRules rules = new CostRules(clock);

    private long charge(ChargeRequest r) {
        return ledger.charge(r).charged();
    }

    private long credits(AccountId a) {
        return ledger.balance(a, CreditKind.CREDITS).posted();
    }

    @Test
    void sameCnpjLookupIsFreeUntilMidnightInSaoPaulo() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        clock.set(Instant.parse("2026-11-20T03:00:00Z")); // 00:00:00 on the 20th
        assertEquals(1, charge(rules.companyLookup(a, CNPJ)));
        clock.set(Instant.parse("2026-11-21T02:59:59Z")); // 23:59:59 on the 20th
        assertEquals(0, charge(rules.companyLookup(a, CNPJ)));
        clock.set(Instant.parse("2026-11-21T03:00:00Z")); // 00:00:00 on the 21st
        assertEquals(1, charge(rules.companyLookup(a, CNPJ)));
        assertEquals(1, charge(rules.companyLookup(a, Cnpj.withCheckDigits("112223330001"))));
        assertEquals(97, credits(a));
    }

    @Test
    void enrichmentChargesFiveOncePerCnpjPerDay() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        assertEquals(5, charge(rules.enrichment(a, CNPJ)));
        assertEquals(0, charge(rules.enrichment(a, CNPJ)));
        clock.set(Instant.parse("2026-11-20T03:00:00Z"));
        assertEquals(5, charge(rules.enrichment(a, CNPJ)));
        assertEquals(90, credits(a));
    }

    @Test
    void personLookupChargesFifteenEveryCallAndAnAsyncJobOnce() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        assertEquals(15, charge(rules.personLookup(a, "r1")));
        assertEquals(15, charge(rules.personLookup(a, "r2")));
        for (int poll = 0; poll < 5; poll++) {
            assertEquals(poll == 0 ? 15 : 0, charge(rules.personJob(a, "job-1")));
        }
        assertEquals(55, credits(a));
    }

    @Test
    void creditReportChargesTenOncePerDocumentPerSaoPauloMonth() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        clock.set(Instant.parse("2026-11-01T03:00:00Z")); // 1 Nov 00:00
        assertEquals(10, charge(rules.creditReport(a, CNPJ)));
        assertEquals(10, charge(rules.creditReport(a, CPF)));
        clock.set(Instant.parse("2026-12-01T02:59:59Z")); // 30 Nov 23:59:59
        assertEquals(0, charge(rules.creditReport(a, CNPJ)));
        assertEquals(0, charge(rules.creditReport(a, CPF)));
        clock.set(Instant.parse("2026-12-01T03:00:00Z")); // 1 Dec 00:00
        assertEquals(10, charge(rules.creditReport(a, CNPJ)));
        assertEquals(70, credits(a));
    }

    @Test
    void searchChargesRecordsDeliveredAndCountOnlyNothing() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        assertEquals(50, charge(rules.search(a, "s1", 50, false)));
        assertEquals(0, charge(rules.search(a, "s2", 0, true)));
        assertEquals(0, charge(rules.search(a, "s1", 50, false)), "a retried request charges once");
        assertThrows(InsufficientCreditsException.class, () -> ledger.charge(rules.search(a, "s3", 51, false)));
        assertEquals(50, credits(a));
    }

    @Test
    void batchChargesNoInvalidCpfEachDuplicateOnceAndARetryNothing() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        List<String> cpfs = List.of(CPF.digits(), "000.000.000-00", CPF.formatted(), "12345678901", "52998224725");
        Map<Cpf, ChargeRequest> charges = rules.personBatch(a, "lote-7", cpfs);
        assertEquals(1, charges.size()); // 52998224725 is CPF itself
        assertEquals(15, charges.values().stream().mapToLong(this::charge).sum());
        assertEquals(
                0,
                rules.personBatch(a, "lote-7", cpfs).values().stream()
                        .mapToLong(this::charge)
                        .sum());
        assertEquals(85, credits(a));
    }

    @Test
    void mailingHoldsTheQuantityChargesLeadsDeliveredAndAFailedJobNothing() {
        AccountId a = TestDatabase.fundedAccount(1_000, 0).id();
        HoldRequest done = rules.mailingHold(a, "job-ok", 600);
        HoldRequest failed = rules.mailingHold(a, "job-failed", 400);
        ledger.hold(done);
        ledger.hold(failed);
        assertThrows(InsufficientCreditsException.class, () -> ledger.hold(rules.mailingHold(a, "job-3", 1)));
        assertEquals(550, ledger.post(a, done.key(), rules.mailingCost(550)).charged());
        assertEquals(0, ledger.post(a, done.key(), rules.mailingCost(550)).charged(), "polling charges once");
        ledger.release(a, failed.key());
        assertEquals(450, credits(a));
        assertEquals(450, ledger.balance(a, CreditKind.CREDITS).available());
    }

    @Test
    void smsCodeCostsOneSmsCreditReturnedOnFailedDeliveryAndNothingOnOutage() {
        AccountId a = TestDatabase.fundedAccount(10, 3).id();
        HoldRequest delivered = rules.smsCode(a, "d1");
        ledger.hold(delivered);
        ledger.post(a, delivered.key(), CostRules.SMS_CODE);
        assertEquals(2, ledger.balance(a, CreditKind.SMS_CREDITS).posted());

        HoldRequest outage = rules.smsCode(a, "d2");
        ledger.hold(outage);
        ledger.release(a, outage.key()); // provider answered 502
        assertEquals(2, ledger.balance(a, CreditKind.SMS_CREDITS).available());

        HoldRequest undelivered = rules.smsCode(a, "d3");
        ledger.hold(undelivered);
        ledger.post(a, undelivered.key(), CostRules.SMS_CODE);
        assertEquals(1, ledger.refund(a, undelivered.key(), "entrega falhou").credited());
        assertEquals(2, ledger.balance(a, CreditKind.SMS_CREDITS).posted());
        assertEquals(10, credits(a), "SMS never touches credits");
    }
}
