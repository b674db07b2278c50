package dev.cadastro.core.ledger;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/**
 * The balance does not cover what the call would deliver ({@code SEM_CREDITOS}); nothing was
 * charged or held.
 */
public class InsufficientCreditsException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final CreditKind kind;
    private final long required;
    private final long available;

    public InsufficientCreditsException(AccountId account, CreditKind kind, long required, long available) {
        super(
                ErrorCode.SEM_CREDITOS,
                Message.INSUFFICIENT_CREDITS.with(
                        account,
                        available,
                        kind == CreditKind.SMS_CREDITS ? Message.KIND_SMS_CREDITS.with() : Message.KIND_CREDITS.with(),
                        required),
                Message.INSUFFICIENT_CREDITS_DETAIL.with(kind, required, available));
        this.kind = kind;
        this.required = required;
        this.available = available;
    }

    public CreditKind kind() {
        return kind;
    }

    public long required() {
        return required;
    }

    public long available() {
        return available;
    }
}
