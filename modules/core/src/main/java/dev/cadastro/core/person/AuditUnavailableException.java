package dev.cadastro.core.person;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;

/**
 * The audit row of a lookup could not be written ({@code AUDITORIA_INDISPONIVEL}): the transaction
 * rolled back, so nothing was charged, and the use case delivers nothing.
 */
public final class AuditUnavailableException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public AuditUnavailableException(String reason, Throwable cause) {
        super(
                ErrorCode.AUDITORIA_INDISPONIVEL,
                "the audit trail could not be written, so nothing was delivered or charged: " + reason,
                "try again later",
                cause);
    }
}
