package dev.cadastro.store;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;

/**
 * The database failed (refused a statement, broke a rule the code relies on): {@link
 * ErrorCode#ERRO_INTERNO}, safe to retry because every ledger operation is idempotent. A database that
 * cannot be reached at all is the subtype {@link StoreUnavailableException}.
 */
public class StoreException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(ErrorCode.ERRO_INTERNO, Message.STORE_FAILED.with(message), null, cause);
    }

    /** For subtypes that carry another code. */
    protected StoreException(ErrorCode code, LocalizedText message, LocalizedText detail, Throwable cause) {
        super(code, message, detail, cause);
    }
}
