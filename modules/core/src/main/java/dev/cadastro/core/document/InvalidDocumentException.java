package dev.cadastro.core.document;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;

/**
 * A CPF, CNPJ or phone number failed its rules. A CPF whose check digits are wrong carries {@link
 * ErrorCode#CPF_INVALIDO}; every other document fault is {@link ErrorCode#PARAMETRO_INVALIDO}.
 */
public class InvalidDocumentException extends InvalidParameterException {
    private static final long serialVersionUID = 1L;

    public InvalidDocumentException(Violation violation) {
        super(codeFor(violation), violation);
    }

    private static ErrorCode codeFor(Violation v) {
        return Cpf.FIELD.equals(v.field()) ? ErrorCode.CPF_INVALIDO : ErrorCode.PARAMETRO_INVALIDO;
    }
}
