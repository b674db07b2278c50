package dev.cadastro.loader;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/** Root of the loader's failures: the load stopped and nothing was published. */
public class LoaderException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public LoaderException(String message, Throwable cause) {
        // An operator's failure, never shown to an API client (a 500 shows its fixed message): the text as is.
        super(ErrorCode.ERRO_INTERNO, Message.OPERATOR_TEXT.with(message), null, cause);
    }

    public LoaderException(String message) {
        this(message, null);
    }
}
