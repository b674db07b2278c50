package dev.cadastro.loader;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;

/** Root of the loader's failures: the load stopped and nothing was published. */
public class LoaderException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public LoaderException(String message, Throwable cause) {
        super(ErrorCode.ERRO_INTERNO, message, null, cause);
    }

    public LoaderException(String message) {
        this(message, null);
    }
}
