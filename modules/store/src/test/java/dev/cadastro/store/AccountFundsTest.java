package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.overview.AccountFunds;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The funds read of an account's overview against the real schema: balances and running exports in one read. */
class AccountFundsTest {
    private final Store store = TestDatabase.store();
    private final AccountFunds funds = store.accountFunds();
    private final CostRules costs = new CostRules(Clock.systemUTC());

    private MailingJob export(AccountId account, int quantity) {
        String id = UUID.randomUUID().toString().replace("-", "");
        MailingJob job = MailingJob.create(id, account, "ufs=SP", quantity, quantity, ExportFormat.CSV, Instant.now());
        HoldRequest hold = costs.mailingHold(account, id, quantity);
        return store.mailingJobs().create(job, hold);
    }

    @Test
    void aNewAccountHasItsToppedUpBalancesAndNothingHeld() {
        AccountId a = TestDatabase.fundedAccount(100, 7).id();
        assertEquals(
                new AccountFunds.Funds(
                        new Balance(CreditKind.CREDITS, 100, 0), new Balance(CreditKind.SMS_CREDITS, 7, 0), 0, 0),
                funds.funds(a));
    }

    @Test
    void runningExportsAndTheirHoldsAreCountedApartFromOtherHolds() {
        AccountId a = TestDatabase.fundedAccount(100, 3).id();
        MailingJob first = export(a, 30);
        export(a, 20);
        // A hold that is not an export's: part of the balance's held credits, not of the exports'.
        store.ledger()
                .hold(new HoldRequest(a, CreditKind.CREDITS, 5, IdempotencyKey.of("other:" + a), "outra reserva"));
        store.ledger().hold(costs.smsCode(a, "d1"));

        AccountFunds.Funds f = funds.funds(a);
        assertEquals(new Balance(CreditKind.CREDITS, 100, 55), f.credits());
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 3, 1), f.sms());
        assertEquals(2, f.runningExports());
        assertEquals(50, f.heldByExports());

        // A failed export releases its hold and no longer runs.
        assertTrue(store.mailingJobs()
                .fail(first.fail(ErrorCode.ERRO_INTERNO, Message.MAILING_NOT_WRITTEN.with(), Instant.now()), null));
        AccountFunds.Funds after = funds.funds(a);
        assertEquals(new Balance(CreditKind.CREDITS, 100, 25), after.credits());
        assertEquals(1, after.runningExports());
        assertEquals(20, after.heldByExports());
    }

    @Test
    void anotherAccountsExportsAndBalancesAreNotCounted() {
        AccountId a = TestDatabase.fundedAccount(10, 1).id();
        AccountId b = TestDatabase.fundedAccount(500, 50).id();
        export(b, 200);
        assertEquals(
                new AccountFunds.Funds(
                        new Balance(CreditKind.CREDITS, 10, 0), new Balance(CreditKind.SMS_CREDITS, 1, 0), 0, 0),
                funds.funds(a));
        assertEquals(200, funds.funds(b).heldByExports());
    }

    @Test
    void anUnknownAccountIsNotFound() {
        assertThrows(NotFoundException.class, () -> funds.funds(new AccountId(Long.MAX_VALUE)));
    }
}
