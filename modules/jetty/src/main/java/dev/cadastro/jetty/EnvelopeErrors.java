package dev.cadastro.jetty;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.AcceptLanguage;
import dev.cadastro.http.ErrorResponses;
import dev.cadastro.http.Headers;
import dev.cadastro.http.HttpStatusException;
import dev.cadastro.http.Observed;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own answers in the listener's envelope: a request Jetty refuses before the bridge sees it
 * (bad framing, two {@code Content-Length} fields, a control character in a header value, an unknown
 * transfer coding, a head beyond its limit, an ambiguous path) gets its status with the company-data or
 * call-records error body, {@code X-Request-Id} and {@code Connection: close} (the rest of such a
 * request cannot be trusted), never Jetty's HTML page. Each is reported as a refusal and logged at
 * debug: a client's fault, not the server's.
 */
final class EnvelopeErrors extends ErrorHandler {
    private static final System.Logger LOG = System.getLogger(EnvelopeErrors.class.getName());

    private final Service envelope;
    private final Observed.Refusals refusals;
    private final RequestIds ids = new RequestIds();

    EnvelopeErrors(Service envelope, Observed.Refusals refusals) {
        this.envelope = envelope;
        this.refusals = refusals;
        setShowStacks(false);
        setShowCauses(false);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        if (status < 400 || status > 599) {
            status = 500;
        }
        Object reasonAttribute = request.getAttribute(ERROR_MESSAGE);
        String reason = reasonAttribute instanceof String s && !s.isBlank() ? s : HttpStatus.getMessage(status);
        if (status == 501 || status == 505) {
            // An unknown transfer coding or a request line without a known version: the client's fault, so
            // a 4xx that no monitoring counts as the server's failure.
            status = 400;
        }
        String id = ids.next();
        Locale locale = AcceptLanguage.resolve(request.getHeaders().getValuesList(AcceptLanguage.HEADER));
        dev.cadastro.http.Response answer;
        if (status == 500) {
            Object cause = request.getAttribute(ERROR_EXCEPTION);
            LOG.log(
                    Level.WARNING,
                    "request " + id + ": Jetty failed it before the handler: " + reason,
                    cause instanceof Throwable t ? t : null);
            answer = ErrorResponses.internal(envelope, id, locale);
        } else {
            LOG.log(Level.DEBUG, "request {0}: refused by Jetty with {1}: {2}", id, status, reason);
            answer = ErrorResponses.render(
                    envelope,
                    new HttpStatusException(
                            status,
                            ErrorCode.PARAMETRO_INVALIDO,
                            status == 408 ? Message.REQUEST_TIMEOUT.with(reason) : Message.HTTP_REFUSED.with(reason),
                            null,
                            Headers.empty()),
                    id,
                    locale);
        }
        try {
            refusals.refused(request.getMethod(), status, id, System.nanoTime() - request.getBeginNanoTime());
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "reporting a refused request failed: {0}", e.toString());
        }
        response.setStatus(status);
        response.getHeaders().remove(HttpHeader.CONTENT_TYPE);
        answer.headers().forEach((name, value) -> response.getHeaders().add(name, value));
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        byte[] body = answer.body();
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        boolean head = "HEAD".equals(request.getMethod());
        response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(body), callback);
        return true;
    }
}
