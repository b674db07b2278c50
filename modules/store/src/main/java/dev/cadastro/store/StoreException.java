package dev.cadastro.store;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/**
 * The database failed (unreachable, timed out, refused a statement): {@link ErrorCode#ERRO_INTERNO},
 * safe to retry because every ledger operation is idempotent.
 */
public class StoreException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(ErrorCode.ERRO_INTERNO, Message.STORE_FAILED.with(message), null, cause);
    }
}
