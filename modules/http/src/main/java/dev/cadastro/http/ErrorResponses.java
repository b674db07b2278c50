package dev.cadastro.http;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.sms.OtpLimitException;
import dev.cadastro.core.sms.SmsUnavailableException;
import dev.cadastro.http.internal.Json;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * Renders failures as the envelope of the service that answered.
 *
 * <ul>
 *   <li>company-data: {@code {"erro": {"code": "SEM_CHAVE", "mensagem": "...", "detalhe": "..."}}},
 *       {@code detalhe} omitted when there is none;
 *   <li>call-records: {@code {"erro": "nao_autorizado", "mensagem": "..."}}.
 * </ul>
 *
 * <p>The status comes from {@link ErrorMapping} for the endpoint that answered, or from {@link
 * HttpStatusException} when the protocol fixes it. A provider whose circuit is open adds {@code
 * Retry-After}: the whole seconds until it is probed again, at least 1; so does {@code LIMITE_OTP},
 * with the seconds until the phone may receive the next code. Any other throwable is a 500 {@code ERRO_INTERNO}: it is logged with the request
 * id and the stack trace, and the client sees only a fixed message and the request id, never the
 * exception's text.
 */
public final class ErrorResponses {
    private static final System.Logger LOG = System.getLogger(ErrorResponses.class.getName());

    /** The header that carries the request id on every answer. */
    public static final String REQUEST_ID = "X-Request-Id";

    private ErrorResponses() {}

    /** The answer to a failure raised while handling {@code request} on an endpoint that overrides no status. */
    public static Response render(Service envelope, Throwable failure, String requestId) {
        return render(envelope, ErrorMapping.Endpoint.STANDARD, failure, requestId);
    }

    /** The answer to a failure raised while handling {@code request} on this endpoint. */
    public static Response render(
            Service envelope, ErrorMapping.Endpoint endpoint, Throwable failure, String requestId) {
        if (failure instanceof CadastroException e && e.code() != ErrorCode.ERRO_INTERNO) {
            int status = e instanceof HttpStatusException h ? h.status() : ErrorMapping.status(e.code(), endpoint);
            Headers extra = switch (e) {
                case HttpStatusException h -> h.headers();
                case ProviderUnavailableException p
                when p.retryAfter().isPresent() ->
                    Headers.of(
                            "Retry-After",
                            Long.toString(retryAfterSeconds(p.retryAfter().get())));
                case OtpLimitException o -> Headers.of("Retry-After", Long.toString(o.retryAfterSeconds()));
                case SmsUnavailableException s
                when s.retryAfter().isPresent() ->
                    Headers.of(
                            "Retry-After",
                            Long.toString(retryAfterSeconds(s.retryAfter().get())));
                default -> Headers.empty();
            };
            return envelope(
                            envelope,
                            status,
                            e.code(),
                            e.getMessage(),
                            e.detail().orElse(null),
                            requestId)
                    .withHeaders(extra);
        }
        LOG.log(Level.ERROR, "request " + requestId + " failed with an internal error", failure);
        return internal(envelope, requestId);
    }

    /** Whole seconds, rounded up, never below 1 (RFC 9110, section 10.2.3 takes a non-negative integer). */
    static long retryAfterSeconds(Duration wait) {
        return ProviderUnavailableException.wholeSeconds(wait);
    }

    /** The 500 answer: fixed message, the request id in {@code detalhe} and in the header. */
    public static Response internal(Service envelope, String requestId) {
        return envelope(
                envelope,
                ErrorMapping.status(ErrorCode.ERRO_INTERNO),
                ErrorCode.ERRO_INTERNO,
                "internal error; retry, and quote the request id if it persists",
                "request_id=" + requestId,
                requestId);
    }

    /** An envelope for a code with an explicit status. */
    public static Response envelope(
            Service envelope, int status, ErrorCode code, String message, String detail, String requestId) {
        byte[] body = switch (envelope) {
            case COMPANY_DATA ->
                Json.bytes(g -> {
                    g.writeStartObject();
                    g.writeObjectFieldStart("erro");
                    g.writeStringField("code", code.name());
                    g.writeStringField("mensagem", message);
                    if (detail != null) {
                        g.writeStringField("detalhe", detail);
                    }
                    g.writeEndObject();
                    g.writeEndObject();
                });
            case CALL_RECORDS ->
                Json.bytes(g -> {
                    g.writeStartObject();
                    g.writeStringField("erro", code.wire());
                    g.writeStringField("mensagem", message);
                    g.writeEndObject();
                });
        };
        Response response = Response.json(status, body).withHeader(REQUEST_ID, requestId);
        // RFC 9110, section 11.6.1: a 401 names the scheme the client must use.
        return status == 401 ? response.withHeader("WWW-Authenticate", "Bearer") : response;
    }
}
