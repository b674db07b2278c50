package dev.cadastro.servlet;

import dev.cadastro.core.error.Service;
import dev.cadastro.http.AcceptLanguage;
import dev.cadastro.http.ErrorResponses;
import dev.cadastro.http.Handler;
import dev.cadastro.http.HttpStatusException;
import dev.cadastro.http.Limits;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Response;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.Objects;

/**
 * A servlet that answers every request it receives with one Cadastro {@link Handler}: a service's
 * router behind its health endpoints, or the recording host. Mount one per service, each under its own
 * prefix ({@code /dados/*}, {@code /ligacoes/*}) or in its own context mapped to {@code /*}: the handler
 * sees the path below the mount point (the context path and the prefix removed), still percent-encoded
 * as sent, so {@code /dados/v1/empresas/12.345.678%2F0001-95} reaches it as {@code
 * /v1/empresas/12.345.678%2F0001-95}, the encoded slash inside one segment.
 *
 * <p>Before the handler runs, the bridge enforces the {@link Limits} and
 * answers with the service's envelope: 414 for a request target beyond {@code maxUriLength}, 431 for
 * header fields beyond {@code maxHeaderBytes} or {@code maxHeaderCount}, 413 for a declared or read
 * body beyond {@code maxBodyBytes}. Every answer carries {@code X-Request-Id}; a {@code HEAD} answer
 * has the headers of its {@code GET} and no body; streamed bodies (recordings, exports) are copied to
 * the container without being held. A body whose read fails (a malformed chunk, fewer bytes than
 * its {@code Content-Length} until the idle timeout, a client gone) is answered with the 400
 * envelope and {@code Connection: close}; a client that goes away mid-request or mid-answer costs a
 * debug log line, never a 500 or an error log.
 *
 * <p>The container must pass encoded slashes through (Jetty: {@code UriCompliance} allowing {@code
 * AMBIGUOUS_PATH_SEPARATOR} and {@code setDecodeAmbiguousURIs(true)}; Tomcat: {@code
 * encodedSolidusHandling="passthrough"}) and accept request heads at least as large as the limits
 * (docs/embedding.md).
 */
public final class CadastroServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final System.Logger LOG = System.getLogger(CadastroServlet.class.getName());

    private final transient Handler handler;
    private final Service envelope;
    private final transient Limits limits;
    private final transient Observed.Refusals refusals;
    private final transient RequestIds ids = new RequestIds();

    /**
     * A servlet answering with {@code handler} under the default {@link Limits}.
     *
     * @param envelope the service whose envelope errors raised before the handler use
     */
    public CadastroServlet(Handler handler, Service envelope) {
        this(handler, envelope, Limits.defaults());
    }

    /** A servlet answering with {@code handler}, enforcing {@code limits} before it runs. */
    public CadastroServlet(Handler handler, Service envelope, Limits limits) {
        this(handler, envelope, limits, Observed.Refusals.NONE);
    }

    /**
     * A servlet answering with {@code handler}, enforcing {@code limits} before it runs, and reporting
     * every answer it gives before the handler runs (414, 431, 413, a target outside the mount point)
     * to {@code refusals}, usually {@link Observed#refusals} of the telemetry and access log the handler
     * is observed with, so refused requests are counted and logged as the handler's are.
     */
    public CadastroServlet(Handler handler, Service envelope, Limits limits, Observed.Refusals refusals) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.envelope = Objects.requireNonNull(envelope, "envelope");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.refusals = Objects.requireNonNull(refusals, "refusals");
    }

    /**
     * Registers this servlet in {@code context} under {@code name}, mapped to {@code mapping} ({@code
     * /*}, or a prefix such as {@code /dados/*}), loaded at startup: the registration a host writes
     * without a {@code ServletContainerInitializer} (from a {@code ServletContextListener}, or before
     * the container starts).
     */
    public ServletRegistration.Dynamic mount(ServletContext context, String name, String mapping) {
        ServletRegistration.Dynamic registration = context.addServlet(name, this);
        if (registration == null) {
            throw new IllegalStateException("a servlet named " + name + " is already registered in the context");
        }
        if (!mapping.equals("/*") && !(mapping.startsWith("/") && mapping.endsWith("/*"))) {
            throw new IllegalArgumentException("mapping " + mapping + " must be /* or a prefix such as /dados/*");
        }
        registration.addMapping(mapping);
        registration.setLoadOnStartup(1);
        return registration;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String id = ids.next();
        long start = System.nanoTime();
        Exchange exchange = new Exchange(limits, envelope);
        Response response;
        boolean handled = false;
        try {
            dev.cadastro.http.Request request = exchange.toRequest(req, id, remote(req));
            handled = true;
            response = handler.handle(request);
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError vme && !(t instanceof StackOverflowError)) {
                throw vme;
            }
            response = ErrorResponses.render(
                    envelope, t, id, AcceptLanguage.resolve(Collections.list(req.getHeaders(AcceptLanguage.HEADER))));
        }
        HttpStatusException bodyFailure = exchange.bodyFailure();
        if (bodyFailure != null) {
            // Reading the body failed: whatever the handler answered, the request is the 400. A client
            // still connected (a malformed chunk, a body shorter than declared) reads it; writing to
            // one that left fails in write() with a debug line.
            LOG.log(Level.DEBUG, "request {0}: reading the body failed", id);
            closeStreamed(response);
            if (resp.isCommitted()) {
                return;
            }
            response = ErrorResponses.render(
                    envelope,
                    bodyFailure,
                    id,
                    AcceptLanguage.resolve(Collections.list(req.getHeaders(AcceptLanguage.HEADER))));
        }
        if (!response.headers().contains(ErrorResponses.REQUEST_ID)) {
            response = response.withHeader(ErrorResponses.REQUEST_ID, id);
        }
        boolean unread = bodyFailure == null && response.status() != 413 && bodyLeftUnread(req);
        if (response.status() == 413 || bodyFailure != null || unread) {
            // The rest of a refused, broken or unread body is still on the wire: do not reuse the connection.
            response = response.withHeader("Connection", "close");
        }
        if (!handled) {
            // Refused before the handler, whose observer never saw it; reported before the write, as the
            // observer reports the handler's answers.
            refused(req.getMethod(), response.status(), id, System.nanoTime() - start);
        }
        write(resp, response, "HEAD".equals(req.getMethod()), id);
        if ((response.status() == 413 || unread) && bodyFailure == null) {
            // The answer is written and flushed: a client that waits for it before sending its body has it
            // at once; then what is left of the body is read before the container closes the connection.
            swallow(req, id);
        }
    }

    private void refused(String method, int status, String id, long nanos) {
        try {
            refusals.refused(method, status, id, nanos);
        } catch (RuntimeException e) {
            // Monitoring never fails an exchange.
            LOG.log(Level.DEBUG, "reporting a refused request failed: {0}", e.toString());
        }
    }

    /**
     * Whether the request declared a body that the handler left unread (an early refusal: a 405, a 422
     * on the query): the connection then closes after the answer, which the client is told.
     */
    private static boolean bodyLeftUnread(HttpServletRequest req) {
        boolean declared = req.getContentLengthLong() > 0 || req.getHeader("Transfer-Encoding") != null;
        if (!declared) {
            return false;
        }
        try {
            return !req.getInputStream().isFinished();
        } catch (IOException | IllegalStateException e) {
            return true;
        }
    }

    /** Reads and drops up to {@link Limits#SWALLOW_BYTES} of a refused body once the 413 is written ({@link Limits#swallow}). */
    private static void swallow(HttpServletRequest req, String id) {
        try {
            Limits.swallow(req.getInputStream());
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "request {0}: the refused body ended early", id);
        }
    }

    private static InetSocketAddress remote(HttpServletRequest req) {
        String address = req.getRemoteAddr();
        if (address == null || address.isEmpty()) {
            return null;
        }
        try {
            // An IP literal: no name lookup happens.
            return new InetSocketAddress(InetAddress.getByName(address), req.getRemotePort());
        } catch (UnknownHostException | IllegalArgumentException e) {
            return null;
        }
    }

    private static void write(HttpServletResponse resp, Response response, boolean head, String id) {
        try (Response.Streamed streamed = response.streamed()) {
            resp.setStatus(response.status());
            response.headers().forEach(resp::addHeader);
            int status = response.status();
            boolean bodiless = status == 204 || status == 304 || (status >= 100 && status < 200);
            if (streamed != null) {
                resp.setContentLengthLong(streamed.length());
                if (!head) {
                    OutputStream out = resp.getOutputStream();
                    streamed.writeTo(out);
                    out.flush();
                }
                return;
            }
            byte[] body = response.body();
            if (bodiless) {
                return;
            }
            resp.setContentLength(body.length);
            if (!head && body.length > 0) {
                OutputStream out = resp.getOutputStream();
                out.write(body);
                out.flush();
            }
        } catch (IOException e) {
            // The client went away mid-answer; nothing to tell it.
            LOG.log(Level.DEBUG, "request {0}: writing the response failed: {1}", id, e.toString());
        }
    }

    private static void closeStreamed(Response response) {
        if (response.streamed() != null) {
            try {
                response.streamed().close();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "closing an unsent body failed: {0}", e.toString());
            }
        }
    }

    @Override
    public String getServletInfo() {
        return "Cadastro " + envelope.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + " bridge";
    }
}
