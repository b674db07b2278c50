package dev.cadastro.core.error;

import dev.cadastro.core.document.Violation;
import java.util.Objects;

/**
 * A request parameter or body field broke a rule ({@link ErrorCode#PARAMETRO_INVALIDO}). Carries
 * the {@link Violation}: which field, which rule, and a message naming the value.
 */
public class InvalidParameterException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final transient Violation violation;

    public InvalidParameterException(Violation violation) {
        this(ErrorCode.PARAMETRO_INVALIDO, violation);
    }

    protected InvalidParameterException(ErrorCode code, Violation violation) {
        super(
                code,
                Objects.requireNonNull(violation, "violation").text(),
                Message.FIELD_RULE.with(violation.field(), violation.rule()));
        this.violation = violation;
    }

    /** Convenience for a parameter rule that is not a document rule. */
    public static InvalidParameterException of(String field, String rule, LocalizedText message) {
        return new InvalidParameterException(new Violation(field, rule, message));
    }

    public Violation violation() {
        return violation;
    }
}
