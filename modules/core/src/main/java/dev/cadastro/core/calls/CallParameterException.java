package dev.cadastro.core.calls;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import java.util.Objects;

/**
 * A parameter of the call-records service broke a rule ({@link ErrorCode#PARAMETRO_INVALIDO_LIGACOES},
 * {@code parametro_invalido}): a {@code limite} outside 1-200, a malformed date, a cursor that is
 * tampered, truncated, signed with an unknown key, or issued for other filters or another integration.
 * The message names the parameter.
 */
public final class CallParameterException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final String parameter;

    public CallParameterException(String parameter, LocalizedText message) {
        super(ErrorCode.PARAMETRO_INVALIDO_LIGACOES, message, Message.PARAMETER_IS.with(parameter));
        this.parameter = Objects.requireNonNull(parameter, "parameter");
    }

    /** The query parameter at fault, as the client wrote its name ({@code cursor}, {@code limite}). */
    public String parameter() {
        return parameter;
    }
}
