package dev.cadastro.core.error;

import java.util.Objects;
import java.util.Optional;

/**
 * Root of every failure the core reports to a caller. Each subtype is named after the failure and
 * carries a stable {@link ErrorCode}; adapters translate the code, never the class.
 *
 * <p>The message is meant for the client: it names the value, the limit and the knob (for example
 * {@code "limite 500 exceeds the maximum 200"}). The optional detail adds context that is safe to
 * show.
 */
public class CadastroException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String detail;

    public CadastroException(ErrorCode code, String message) {
        this(code, message, null, null);
    }

    public CadastroException(ErrorCode code, String message, String detail) {
        this(code, message, detail, null);
    }

    public CadastroException(ErrorCode code, String message, String detail, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.code = Objects.requireNonNull(code, "code");
        this.detail = detail;
    }

    /** The stable code clients program against. */
    public ErrorCode code() {
        return code;
    }

    /** Optional extra context, safe to show to the client. */
    public Optional<String> detail() {
        return Optional.ofNullable(detail);
    }
}
