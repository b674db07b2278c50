package dev.cadastro.http;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Messages;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.sms.OtpLimitException;
import dev.cadastro.core.sms.SmsUnavailableException;
import dev.cadastro.http.internal.Json;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Locale;

/**
 * Renders failures as the envelope of the service that answered.
 *
 * <ul>
 *   <li>company-data: {@code {"erro": {"code": "SEM_CHAVE", "mensagem": "...", "detalhe": "..."}}},
 *       {@code detalhe} omitted when there is none;
 *   <li>call-records: {@code {"erro": "nao_autorizado", "mensagem": "..."}}.
 * </ul>
 *
 * <p>{@code mensagem} and {@code detalhe} are in the request's language: Brazilian Portuguese by
 * default, English when {@code Accept-Language} prefers it ({@link AcceptLanguage}); {@code
 * Content-Language} says which. The codes are the same in both.
 *
 * <p>The status comes from {@link ErrorMapping} for the endpoint that answered, or from {@link
 * HttpStatusException} when the protocol fixes it. A provider whose circuit is open adds {@code
 * Retry-After}: the whole seconds until it is probed again, at least 1; so does {@code LIMITE_OTP},
 * with the seconds until the phone may receive the next code, and {@code SERVICO_INDISPONIVEL}, with
 * {@value #UNAVAILABLE_RETRY_AFTER_SECONDS}. Any other throwable is a 500 {@code ERRO_INTERNO}: it is logged with the request
 * id and the stack trace, and the client sees only a fixed message and the request id, never the
 * exception's text.
 */
public final class ErrorResponses {
    private static final System.Logger LOG = System.getLogger(ErrorResponses.class.getName());

    /** The header that carries the request id on every answer. */
    public static final String REQUEST_ID = "X-Request-Id";

    /**
     * The language the envelope's messages are in ({@code pt-BR} or {@code en}); every such answer also
     * carries {@code Vary: Accept-Language}, so a cache in front keeps one copy per language.
     */
    public static final String CONTENT_LANGUAGE = "Content-Language";

    /**
     * The {@code Retry-After} of {@code SERVICO_INDISPONIVEL}: the store probes the database every half
     * second, so a client that waits this long finds it back as soon as it is.
     */
    static final long UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

    private ErrorResponses() {}

    /** The answer to a failure, in Portuguese, on an endpoint that overrides no status. */
    public static Response render(Service envelope, Throwable failure, String requestId) {
        return render(envelope, ErrorMapping.Endpoint.STANDARD, failure, requestId, Messages.PORTUGUESE);
    }

    /** The answer to a failure on an endpoint that overrides no status, its messages in {@code locale}. */
    public static Response render(Service envelope, Throwable failure, String requestId, Locale locale) {
        return render(envelope, ErrorMapping.Endpoint.STANDARD, failure, requestId, locale);
    }

    /** The answer to a failure raised while handling a request on this endpoint, in Portuguese. */
    public static Response render(
            Service envelope, ErrorMapping.Endpoint endpoint, Throwable failure, String requestId) {
        return render(envelope, endpoint, failure, requestId, Messages.PORTUGUESE);
    }

    /**
     * The answer to a failure raised while handling a request on this endpoint, with {@code mensagem}
     * and {@code detalhe} in {@code locale}'s language ({@link AcceptLanguage}): English or Portuguese.
     */
    public static Response render(
            Service envelope, ErrorMapping.Endpoint endpoint, Throwable failure, String requestId, Locale locale) {
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
                default ->
                    e.code() == ErrorCode.SERVICO_INDISPONIVEL
                            ? Headers.of("Retry-After", Long.toString(UNAVAILABLE_RETRY_AFTER_SECONDS))
                            : Headers.empty();
            };
            return envelope(
                            envelope,
                            status,
                            e.code(),
                            e.message(locale),
                            e.detail(locale).orElse(null),
                            requestId)
                    .withHeaders(extra)
                    .withHeader(CONTENT_LANGUAGE, Messages.answered(locale).toLanguageTag())
                    .withHeader("Vary", AcceptLanguage.HEADER);
        }
        LOG.log(Level.ERROR, "request " + requestId + " failed with an internal error", failure);
        return internal(envelope, requestId, locale);
    }

    /** Whole seconds, rounded up, never below 1 (RFC 9110, section 10.2.3 takes a non-negative integer). */
    static long retryAfterSeconds(Duration wait) {
        return ProviderUnavailableException.wholeSeconds(wait);
    }

    /** The 500 answer in Portuguese. */
    public static Response internal(Service envelope, String requestId) {
        return internal(envelope, requestId, Messages.PORTUGUESE);
    }

    /** The 500 answer: fixed message, the request id in {@code detalhe} and in the header. */
    public static Response internal(Service envelope, String requestId, Locale locale) {
        return envelope(
                        envelope,
                        ErrorMapping.status(ErrorCode.ERRO_INTERNO),
                        ErrorCode.ERRO_INTERNO,
                        Message.INTERNAL_ERROR.with().render(locale),
                        Message.REQUEST_ID_IS.with(requestId).render(locale),
                        requestId)
                .withHeader(CONTENT_LANGUAGE, Messages.answered(locale).toLanguageTag())
                .withHeader("Vary", AcceptLanguage.HEADER);
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
                    // Its own codes as the catalogue spells them (parametro_invalido); a company-data code raised
                    // before routing (a 414, the 500) in lower case, as this envelope writes codes.
                    g.writeStringField(
                            "erro",
                            code.service() == Service.CALL_RECORDS
                                    ? code.wire()
                                    : code.name().toLowerCase(Locale.ROOT));
                    g.writeStringField("mensagem", message);
                    g.writeEndObject();
                });
        };
        Response response = Response.json(status, body).withHeader(REQUEST_ID, requestId);
        // RFC 9110, section 11.6.1: a 401 names the scheme the client must use.
        return status == 401 ? response.withHeader("WWW-Authenticate", "Bearer") : response;
    }
}
