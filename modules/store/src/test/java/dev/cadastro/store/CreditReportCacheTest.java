package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.credit.CachedReport;
import dev.cadastro.core.credit.CreditReport;
import dev.cadastro.core.credit.CreditReportCache;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class CreditReportCacheTest {
    private static final Instant T0 = Instant.parse("2026-03-10T15:00:00Z");
    private static final Cpf CPF = Cpf.withCheckDigits("529982247");
    private static final Cnpj CNPJ = Cnpj.of("11222333000181");

    private final CreditReportCache cache = TestDatabase.store().creditReports();
    private final Ledger ledger = TestDatabase.store().ledger();

    private static CreditReport report(TaxId document, String nome) {
        return new CreditReport(
                document.canonical(),
                document instanceof Cpf ? "CPF" : "CNPJ",
                nome,
                List.of(new CreditReport.Negativacao(
                        "Banco Exemplo", "financiamento", new BigDecimal("1234.50"), LocalDate.of(2025, 7, 1), "SP")),
                List.of(new CreditReport.Protesto(
                        "1o Tabelionato", "Sao Paulo", "SP", new BigDecimal("99.90"), LocalDate.of(2025, 1, 2))),
                List.of(new CreditReport.ChequeSemFundo("001", "1234", "12", 2, LocalDate.of(2024, 12, 1))),
                List.of(new CreditReport.DividaVencida(
                        "Operadora", "telefonia", new BigDecimal("300.00"), LocalDate.of(2025, 2, 10))),
                List.of(new CreditReport.Consulta("Loja", "varejo", LocalDate.of(2026, 3, 1))),
                List.of());
    }

    private static ChargeRequest charge(AccountId account, String key) {
        return new ChargeRequest(account, CreditKind.CREDITS, 10, IdempotencyKey.of(key), "relatorio");
    }

    @Test
    void keepsTheReportWithItsChargeAndReadsItBackEqual() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        CreditReport r = report(CPF, "Maria da Silva");
        ChargeResult paid = cache.chargeAndKeep(charge(a, "credit-1"), new CachedReport(a, CPF, r, T0));
        assertEquals(new ChargeResult(10, 90, false), paid);
        CachedReport back = cache.find(a, CPF, T0.minusSeconds(1)).orElseThrow();
        assertEquals(r, back.report());
        assertEquals(T0, back.fetchedAt());
        assertEquals(CPF, back.document());
    }

    @Test
    void findSkipsAFetchOlderThanTheBoundAndCountsTheBoundItself() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        cache.chargeAndKeep(charge(a, "credit-2"), new CachedReport(a, CNPJ, report(CNPJ, "Empresa"), T0));
        assertTrue(cache.find(a, CNPJ, T0).isPresent());
        assertFalse(cache.find(a, CNPJ, T0.plusNanos(1000)).isPresent());
    }

    @Test
    void entriesArePerAccountAndPerDocumentKind() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        AccountId b = TestDatabase.fundedAccount(100, 0).id();
        cache.chargeAndKeep(charge(a, "credit-3"), new CachedReport(a, CPF, report(CPF, "Maria"), T0));
        assertFalse(cache.find(b, CPF, T0.minusSeconds(60)).isPresent());
        assertFalse(cache.find(a, CNPJ, T0.minusSeconds(60)).isPresent());
    }

    @Test
    void aLaterFetchReplacesTheEarlierOne() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        cache.chargeAndKeep(charge(a, "credit-4a"), new CachedReport(a, CPF, report(CPF, "Antes"), T0));
        Instant later = T0.plusSeconds(8 * 86_400);
        cache.chargeAndKeep(charge(a, "credit-4b"), new CachedReport(a, CPF, report(CPF, "Depois"), later));
        CachedReport back = cache.find(a, CPF, T0).orElseThrow();
        assertEquals("Depois", back.report().nome());
        assertEquals(later, back.fetchedAt());
    }

    @Test
    void anUnaffordableChargeKeepsNothing() {
        AccountId a = TestDatabase.fundedAccount(9, 0).id();
        assertThrows(
                InsufficientCreditsException.class,
                () -> cache.chargeAndKeep(charge(a, "credit-5"), new CachedReport(a, CPF, report(CPF, "X"), T0)));
        assertFalse(cache.find(a, CPF, T0.minusSeconds(60)).isPresent());
        assertEquals(9, ledger.balance(a, CreditKind.CREDITS).posted());
    }

    @Test
    void aReplayedChargeKeepsTheNewFetchWithoutChargingAgain() {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        cache.chargeAndKeep(charge(a, "credit-6"), new CachedReport(a, CPF, report(CPF, "A"), T0));
        ChargeResult again = cache.chargeAndKeep(
                charge(a, "credit-6"), new CachedReport(a, CPF, report(CPF, "B"), T0.plusSeconds(60)));
        assertEquals(new ChargeResult(0, 0, true), again);
        assertEquals("B", cache.find(a, CPF, T0).orElseThrow().report().nome());
    }

    @Test
    void concurrentFetchesOfOneMonthChargeOnce() throws Exception {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        List<Callable<ChargeResult>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Instant at = T0.plusSeconds(i);
            calls.add(
                    () -> cache.chargeAndKeep(charge(a, "credit-7"), new CachedReport(a, CNPJ, report(CNPJ, "E"), at)));
        }
        long charged = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (Future<ChargeResult> f : pool.invokeAll(calls)) {
                charged += f.get().charged();
            }
        }
        assertEquals(10, charged);
        assertEquals(90, ledger.balance(a, CreditKind.CREDITS).posted());
    }

    @Test
    void purgeDeletesOnlyFetchesBeforeTheCutoff() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        Instant old = Instant.parse("2001-01-01T00:00:00Z");
        cache.chargeAndKeep(charge(a, "credit-8a"), new CachedReport(a, CPF, report(CPF, "old"), old));
        cache.chargeAndKeep(charge(a, "credit-8b"), new CachedReport(a, CNPJ, report(CNPJ, "new"), T0));
        assertTrue(cache.purgeFetchedBefore(old.plusSeconds(1)) >= 1);
        assertFalse(cache.find(a, CPF, old.minusSeconds(1)).isPresent());
        assertTrue(cache.find(a, CNPJ, T0).isPresent());
    }

    @Test
    void affordableIsTrueForAReplayEvenOnAnEmptyBalance() {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        ChargeRequest c = charge(a, "credit-9");
        assertTrue(ledger.affordable(c));
        ledger.charge(c);
        assertTrue(ledger.affordable(c), "a replay is free");
        assertFalse(ledger.affordable(charge(a, "credit-9b")));
    }
}
