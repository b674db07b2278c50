package dev.cadastro.http;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;

/**
 * A failure whose HTTP status is fixed by the protocol rather than by the error catalogue: a method
 * the route does not allow (405), a body, request target or header block beyond the {@link Limits}
 * (413, 414, 431). It still carries the catalogue code the envelope shows ({@code NAO_ENCONTRADO} for
 * 405, {@code PARAMETRO_INVALIDO} for the size limits), so clients keep one set of codes.
 */
public final class HttpStatusException extends CadastroException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final transient Headers headers;

    public HttpStatusException(
            int status, ErrorCode code, LocalizedText message, LocalizedText detail, Headers headers) {
        super(code, message, detail);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status " + status + " is not an error status");
        }
        this.status = status;
        this.headers = headers == null ? Headers.empty() : headers;
    }

    public int status() {
        return status;
    }

    /** Fields the response must carry, such as {@code Allow} on a 405. */
    public Headers headers() {
        return headers;
    }
}
