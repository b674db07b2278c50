package dev.cadastro.core.overview;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import java.util.Objects;

/**
 * Port: an account's balances and what its running exports hold, read together in one consistent
 * snapshot (a hold placed or settled between two separate reads would show the balances and the
 * exports out of step).
 */
public interface AccountFunds {

    /**
     * @throws dev.cadastro.core.error.NotFoundException when the account does not exist
     */
    Funds funds(AccountId account);

    /**
     * @param credits the credit balance: posted, and held by every open hold
     * @param sms the SMS credit balance
     * @param runningExports the account's mailing exports still {@code processando}
     * @param heldByExports the credits the holds of those exports reserve (part of {@code credits.held()})
     */
    record Funds(Balance credits, Balance sms, int runningExports, long heldByExports) {
        public Funds {
            Objects.requireNonNull(credits, "credits");
            Objects.requireNonNull(sms, "sms");
            if (credits.kind() != CreditKind.CREDITS || sms.kind() != CreditKind.SMS_CREDITS) {
                throw new IllegalArgumentException("funds of kinds " + credits.kind() + " and " + sms.kind());
            }
            if (runningExports < 0 || heldByExports < 0 || heldByExports > credits.held()) {
                throw new IllegalArgumentException("running exports " + runningExports + " holding " + heldByExports
                        + " of the " + credits.held() + " credits held");
            }
        }
    }
}
