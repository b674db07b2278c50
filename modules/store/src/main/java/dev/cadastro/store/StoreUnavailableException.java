package dev.cadastro.store;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/**
 * The database is stopped, frozen or unreachable ({@link ErrorCode#SERVICO_INDISPONIVEL}): a connection
 * could not be had within the pool's connection timeout, a statement got no answer within the network
 * timeout, the server went away mid-statement, or the store's probe finds it down and refuses at once.
 * The client sees a fixed message; what happened is in {@link #getCause()} and {@link #what()}, for logs.
 */
public final class StoreUnavailableException extends StoreException {
    private static final long serialVersionUID = 1L;

    private final String what;

    public StoreUnavailableException(String what, Throwable cause) {
        super(ErrorCode.SERVICO_INDISPONIVEL, Message.STORE_UNAVAILABLE.with(), null, cause);
        this.what = what;
    }

    /** The operation that failed and why, for logs; never shown to a client. */
    public String what() {
        return what;
    }
}
