package dev.cadastro.core.calls;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/**
 * No such call for this integration ({@link ErrorCode#NAO_ENCONTRADA}): unknown, of another
 * integration, not ready yet, or (for its metadata) outside the 7-day window. The answer is the same
 * in every case, so a token learns nothing about other integrations' ids.
 */
public final class CallNotFoundException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public CallNotFoundException(String id) {
        super(ErrorCode.NAO_ENCONTRADA, Message.CALL_NOT_FOUND.with(id));
    }
}
