package dev.cadastro.core.calls;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;

/** The call's recording is still being archived ({@link ErrorCode#INDISPONIVEL}); retry in a few minutes. */
public final class RecordingUnavailableException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public RecordingUnavailableException(String id) {
        super(ErrorCode.INDISPONIVEL, Message.RECORDING_UNAVAILABLE.with(id));
    }
}
