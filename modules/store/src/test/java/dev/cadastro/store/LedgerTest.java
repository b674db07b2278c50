package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.EntryType;
import dev.cadastro.core.ledger.Hold;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.ledger.StatementLine;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class LedgerTest {
    private final Ledger ledger = TestDatabase.store().ledger();

    private static ChargeRequest charge(AccountId account, long amount, String key) {
        return new ChargeRequest(account, CreditKind.CREDITS, amount, IdempotencyKey.of(key), "teste " + key);
    }

    @Test
    void chargeTakesTheAmountAndReportsTheBalanceAfter() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        ChargeResult r = ledger.charge(charge(a, 30, "c1"));
        assertEquals(new ChargeResult(30, 70, false), r);
        assertEquals(new Balance(CreditKind.CREDITS, 70, 0), ledger.balance(a, CreditKind.CREDITS));
    }

    @Test
    void replayOfAKeyChargesNothingEvenWhenTheBalanceNoLongerCoversIt() {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        assertEquals(new ChargeResult(10, 0, false), ledger.charge(charge(a, 10, "same")));
        assertEquals(new ChargeResult(0, 0, true), ledger.charge(charge(a, 10, "same")));
        assertEquals(2, ledger.statement(a, CreditKind.CREDITS, 10).size());
    }

    @Test
    void insufficientBalanceChargesNothingAndSaysWhatWasAvailable() {
        AccountId a = TestDatabase.fundedAccount(5, 0).id();
        InsufficientCreditsException e =
                assertThrows(InsufficientCreditsException.class, () -> ledger.charge(charge(a, 6, "too-much")));
        assertEquals(ErrorCode.SEM_CREDITOS, e.code());
        assertEquals(5, e.available());
        assertEquals(6, e.required());
        assertEquals(5, ledger.balance(a, CreditKind.CREDITS).posted());
        // The key was not consumed: once funded, the same key charges.
        ledger.topUp(a, CreditKind.CREDITS, 1, IdempotencyKey.of("more"), "mais");
        assertEquals(new ChargeResult(6, 0, false), ledger.charge(charge(a, 6, "too-much")));
    }

    @Test
    void zeroAmountWritesNothing() {
        AccountId a = TestDatabase.fundedAccount(5, 0).id();
        assertEquals(new ChargeResult(0, 5, false), ledger.charge(charge(a, 0, "free")));
        assertEquals(1, ledger.statement(a, CreditKind.CREDITS, 10).size());
    }

    @Test
    void aKeyReusedForAnotherAmountIsRefused() {
        AccountId a = TestDatabase.fundedAccount(50, 0).id();
        ledger.charge(charge(a, 5, "k"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ledger.charge(charge(a, 7, "k")));
        assertTrue(e.getMessage().contains("was used for -5"), e.getMessage());
    }

    @Test
    void keysAreScopedToTheAccount() {
        AccountId a = TestDatabase.fundedAccount(50, 0).id();
        AccountId b = TestDatabase.fundedAccount(50, 0).id();
        assertFalse(ledger.charge(charge(a, 5, "shared")).replay());
        assertFalse(ledger.charge(charge(b, 5, "shared")).replay());
    }

    @Test
    void balancesOfTheTwoKindsNeverMix() {
        AccountId a = TestDatabase.fundedAccount(0, 3).id();
        assertThrows(InsufficientCreditsException.class, () -> ledger.charge(charge(a, 1, "credits")));
        ChargeResult sms =
                ledger.charge(new ChargeRequest(a, CreditKind.SMS_CREDITS, 1, IdempotencyKey.of("sms"), "sms"));
        assertEquals(new ChargeResult(1, 2, false), sms);
        assertEquals(0, ledger.balance(a, CreditKind.CREDITS).posted());
    }

    @Test
    void topUpIsIdempotent() {
        AccountId a = TestDatabase.fundedAccount(0, 0).id();
        assertEquals(
                100,
                ledger.topUp(a, CreditKind.CREDITS, 100, IdempotencyKey.of("t"), "compra")
                        .balanceAfter());
        assertTrue(ledger.topUp(a, CreditKind.CREDITS, 100, IdempotencyKey.of("t"), "compra")
                .replay());
        assertEquals(100, ledger.balance(a, CreditKind.CREDITS).posted());
    }

    @Test
    void holdCountsAgainstTheAvailableBalanceUntilPosted() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        HoldRequest req = new HoldRequest(a, CreditKind.CREDITS, 80, IdempotencyKey.of("mailing:1"), "mailing");
        Hold hold = ledger.hold(req);
        assertEquals(Hold.State.HELD, hold.state());
        assertEquals(20, ledger.balance(a, CreditKind.CREDITS).available());
        assertThrows(InsufficientCreditsException.class, () -> ledger.charge(charge(a, 21, "c")));
        assertEquals(hold.amount(), ledger.hold(req).amount(), "placing the same hold again returns it");
        assertEquals(20, ledger.balance(a, CreditKind.CREDITS).available());

        ChargeResult posted = ledger.post(a, req.key(), 60);
        assertEquals(new ChargeResult(60, 40, false), posted);
        assertEquals(new Balance(CreditKind.CREDITS, 40, 0), ledger.balance(a, CreditKind.CREDITS));
        assertEquals(new ChargeResult(0, 40, true), ledger.post(a, req.key(), 60));
        assertThrows(IllegalStateException.class, () -> ledger.release(a, req.key()));
        StatementLine last = ledger.statement(a, CreditKind.CREDITS, 1).get(0);
        assertEquals(EntryType.HOLD_POST, last.type());
        assertEquals(-60, last.amount());
    }

    @Test
    void releasedHoldChargesNothingAndCannotBePosted() {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        IdempotencyKey key = IdempotencyKey.of("mailing:failed");
        ledger.hold(new HoldRequest(a, CreditKind.CREDITS, 10, key, "mailing"));
        assertEquals(Hold.State.RELEASED, ledger.release(a, key).state());
        assertEquals(Hold.State.RELEASED, ledger.release(a, key).state());
        assertEquals(new Balance(CreditKind.CREDITS, 10, 0), ledger.balance(a, CreditKind.CREDITS));
        assertThrows(IllegalStateException.class, () -> ledger.post(a, key, 1));
        assertThrows(NotFoundException.class, () -> ledger.post(a, IdempotencyKey.of("nope"), 1));
    }

    @Test
    void postAboveTheHoldIsRefused() {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        IdempotencyKey key = IdempotencyKey.of("h");
        ledger.hold(new HoldRequest(a, CreditKind.CREDITS, 5, key, "h"));
        assertThrows(IllegalStateException.class, () -> ledger.post(a, key, 6));
        assertEquals(new ChargeResult(0, 10, false), ledger.post(a, key, 0));
        assertEquals(new Balance(CreditKind.CREDITS, 10, 0), ledger.balance(a, CreditKind.CREDITS));
    }

    @Test
    void refundReturnsAChargeOnce() {
        AccountId a = TestDatabase.fundedAccount(0, 2).id();
        IdempotencyKey key = IdempotencyKey.of("sms:x");
        ledger.hold(new HoldRequest(a, CreditKind.SMS_CREDITS, 1, key, "sms"));
        ledger.post(a, key, 1);
        assertEquals(1, ledger.balance(a, CreditKind.SMS_CREDITS).posted());
        assertEquals(1, ledger.refund(a, key, "entrega falhou").credited());
        assertTrue(ledger.refund(a, key, "entrega falhou").replay());
        assertEquals(2, ledger.balance(a, CreditKind.SMS_CREDITS).posted());
        assertThrows(NotFoundException.class, () -> ledger.refund(a, IdempotencyKey.of("none"), "x"));
    }

    @Test
    void statementShowsEveryEntryWithItsRunningBalance() {
        AccountId a = TestDatabase.fundedAccount(100, 0).id();
        ledger.charge(charge(a, 10, "a"));
        ledger.charge(charge(a, 15, "b"));
        ledger.topUp(a, CreditKind.CREDITS, 5, IdempotencyKey.of("t2"), "bonus");
        List<StatementLine> lines = ledger.statement(a, CreditKind.CREDITS, 100);
        assertEquals(
                List.of(100L, 90L, 75L, 80L),
                lines.stream().map(StatementLine::runningBalance).toList());
        assertEquals(
                List.of(100L, -10L, -15L, 5L),
                lines.stream().map(StatementLine::amount).toList());
        List<StatementLine> lastTwo = ledger.statement(a, CreditKind.CREDITS, 2);
        assertEquals(
                List.of(75L, 80L),
                lastTwo.stream().map(StatementLine::runningBalance).toList());
    }

    @Test
    void unknownAccountIsNotFound() {
        AccountId nobody = new AccountId(Long.MAX_VALUE);
        assertThrows(NotFoundException.class, () -> ledger.charge(charge(nobody, 1, "x")));
        assertThrows(NotFoundException.class, () -> ledger.balance(nobody, CreditKind.CREDITS));
    }

    @Test
    void entriesCannotBeChangedOrDeleted() throws SQLException {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                Statement s = c.createStatement()) {
            SQLException update = assertThrows(
                    SQLException.class,
                    () -> s.executeUpdate("UPDATE ledger_entries SET amount = 1000 WHERE account_id = " + a.value()));
            assertTrue(update.getMessage().contains("immutable"), update.getMessage());
            assertThrows(
                    SQLException.class,
                    () -> s.executeUpdate("DELETE FROM ledger_entries WHERE account_id = " + a.value()));
            SQLException overdraft = assertThrows(
                    SQLException.class,
                    () -> s.executeUpdate("UPDATE balances SET posted = -1 WHERE account_id = " + a.value()));
            assertEquals("23514", overdraft.getSQLState());
        }
    }
}
