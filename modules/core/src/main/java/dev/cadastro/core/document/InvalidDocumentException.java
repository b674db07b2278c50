package dev.cadastro.core.document;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;

/**
 * A CPF, CNPJ or phone number failed its rules. A CPF shaped right whose digits fail (wrong check
 * digits, or one digit repeated) carries {@link ErrorCode#CPF_INVALIDO}, the code the company-data
 * contract gives to "CPF check digits wrong"; every other document fault, including a CPF that is missing
 * or malformed, is {@link ErrorCode#PARAMETRO_INVALIDO}.
 */
public class InvalidDocumentException extends InvalidParameterException {
    private static final long serialVersionUID = 1L;

    public InvalidDocumentException(Violation violation) {
        super(codeFor(violation), violation);
    }

    /** The error code a document violation is reported with. */
    public static ErrorCode codeFor(Violation v) {
        boolean cpfDigits = Cpf.FIELD.equals(v.field())
                && (Violation.CHECK_DIGITS.equals(v.rule()) || Violation.REPEATED_DIGITS.equals(v.rule()));
        return cpfDigits ? ErrorCode.CPF_INVALIDO : ErrorCode.PARAMETRO_INVALIDO;
    }
}
