package dev.cadastro.core.calls;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;

/** The call's recording is still being archived ({@link ErrorCode#INDISPONIVEL}); retry in a few minutes. */
public final class RecordingUnavailableException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public RecordingUnavailableException(String id) {
        super(
                ErrorCode.INDISPONIVEL,
                "the recording of call " + id + " is still being archived; retry in a few minutes");
    }
}
