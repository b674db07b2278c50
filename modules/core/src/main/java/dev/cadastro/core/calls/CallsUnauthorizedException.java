package dev.cadastro.core.calls;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;

/**
 * The request carries no valid call-records token ({@link ErrorCode#NAO_AUTORIZADO}): missing, not a
 * bearer token, unknown, revoked, or a key of the company-data service.
 */
public final class CallsUnauthorizedException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public CallsUnauthorizedException(LocalizedText message) {
        super(ErrorCode.NAO_AUTORIZADO, message);
    }
}
