package dev.cadastro.s3;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/**
 * The object store did not answer, or refused a request it should have taken (credentials, a missing
 * bucket, a server error), so the operation could not be done now ({@link ErrorCode#SERVICO_INDISPONIVEL}:
 * a 503 to an API client). The client sees a fixed message; what happened is in {@link #what()} and the
 * cause, for logs.
 */
public final class ObjectStoreUnavailableException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final String what;

    public ObjectStoreUnavailableException(String what, Throwable cause) {
        super(ErrorCode.SERVICO_INDISPONIVEL, Message.FILES_UNAVAILABLE.with(), null, cause);
        this.what = what;
    }

    /** The operation that failed and why, for logs; never shown to a client. */
    public String what() {
        return what;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " (" + what + ")";
    }
}
