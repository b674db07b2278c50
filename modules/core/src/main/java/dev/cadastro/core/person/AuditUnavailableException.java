package dev.cadastro.core.person;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/**
 * The audit row of a lookup could not be written ({@code AUDITORIA_INDISPONIVEL}): the transaction
 * rolled back, so nothing was charged, and the use case delivers nothing.
 */
public final class AuditUnavailableException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public AuditUnavailableException(String reason, Throwable cause) {
        super(
                ErrorCode.AUDITORIA_INDISPONIVEL,
                Message.AUDIT_UNAVAILABLE.with(reason),
                Message.TRY_AGAIN_LATER.with(),
                cause);
    }
}
