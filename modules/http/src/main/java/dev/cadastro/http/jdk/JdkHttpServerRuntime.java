package dev.cadastro.http.jdk;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.AcceptLanguage;
import dev.cadastro.http.ErrorResponses;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Headers;
import dev.cadastro.http.Limits;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The default runtime: the JDK's built-in {@code com.sun.net.httpserver.HttpServer}, one virtual
 * thread per exchange, tuned through {@link RuntimeOptions}.
 *
 * <p>Before the handler runs, the runtime enforces the {@link Limits} and answers with the envelope:
 * 414 for a request target beyond {@code maxUriLength}, 431 for header fields beyond {@code
 * maxHeaderBytes} or {@code maxHeaderCount}, 413 for a declared or streamed body beyond {@code
 * maxBodyBytes}. The guard's hard limits are four times wider and the JDK server's eight times, so
 * the adapter answers first, then the guard.
 *
 * <p>By default a {@link ConnectionGuard} owns the public port and the JDK server listens on a private
 * loopback port: the guard caps connections per client address, closes a client that sends no
 * complete request head in time, and refuses, in the envelope, the heads the JDK server would answer
 * in HTML or accept wrongly (control characters in header values). docs/http.md lists what each layer
 * answers. What the runtime and the guard answer themselves is reported to the {@link
 * Observed.Refusals} the runtime is started with (route {@code sem_rota}), so refused requests are
 * counted and logged like the handler's.
 */
public final class JdkHttpServerRuntime implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JdkHttpServerRuntime.class.getName());
    private static final Object TUNING_LOCK = new Object();
    private static RuntimeOptions appliedTuning;

    private final HttpServer server;
    private final ExecutorService executor;
    private final RuntimeOptions options;
    private final ConnectionGuard guard;

    private JdkHttpServerRuntime(
            HttpServer server, ExecutorService executor, RuntimeOptions options, ConnectionGuard guard) {
        this.server = server;
        this.executor = executor;
        this.options = options;
        this.guard = guard;
    }

    /**
     * Starts a server.
     *
     * @param address where to listen; port 0 picks a free port ({@link #port()} tells which)
     * @param handler the application, usually a {@link dev.cadastro.http.Router}
     * @param envelope the envelope of errors raised before the handler runs
     */
    public static JdkHttpServerRuntime start(
            InetSocketAddress address, Handler handler, Service envelope, RuntimeOptions options) throws IOException {
        return start(address, handler, envelope, options, Observed.Refusals.NONE);
    }

    /**
     * {@link #start(InetSocketAddress, Handler, Service, RuntimeOptions)}, reporting every answer the
     * runtime and its guard give before the handler runs (usually {@link Observed#refusals} of the
     * telemetry and access log the handler is observed with).
     */
    public static JdkHttpServerRuntime start(
            InetSocketAddress address,
            Handler handler,
            Service envelope,
            RuntimeOptions options,
            Observed.Refusals refusals)
            throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(envelope, "envelope");
        Objects.requireNonNull(refusals, "refusals");
        applyTuning(options);
        RequestIds ids = new RequestIds();
        // With the guard, the JDK server listens on a private loopback port and the guard on the public one.
        HttpServer server = HttpServer.create(
                options.connectionGuard() ? new InetSocketAddress(InetAddress.getLoopbackAddress(), 0) : address,
                options.backlog());
        ConnectionGuard guard = null;
        if (options.connectionGuard()) {
            try {
                guard = ConnectionGuard.start(address, server.getAddress(), options, envelope, ids::next, refusals);
            } catch (IOException e) {
                server.stop(0);
                throw e;
            }
        }
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        ConnectionGuard g = guard;
        server.createContext(
                "/",
                new Exchanges(
                        handler, envelope, options.limits(), ids, seen -> g == null ? seen : g.client(seen), refusals));
        server.start();
        JdkHttpServerRuntime runtime = new JdkHttpServerRuntime(server, executor, options, guard);
        LOG.log(Level.INFO, "HTTP server listening on {0}", runtime.address());
        return runtime;
    }

    /** The address the server listens on. */
    public InetSocketAddress address() {
        return guard != null ? guard.address() : server.getAddress();
    }

    public int port() {
        return address().getPort();
    }

    /** Stops accepting, waits up to the stop grace for exchanges in flight, then stops. */
    @Override
    public void close() {
        if (guard != null) {
            guard.stopAccepting();
        }
        server.stop((int) Math.max(0, options.stopGrace().toSeconds()));
        if (guard != null) {
            guard.closeConnections();
        }
        executor.shutdownNow();
    }

    /** The JDK reads its tuning once per process: set the properties before its first server. */
    private static void applyTuning(RuntimeOptions o) {
        synchronized (TUNING_LOCK) {
            if (appliedTuning != null) {
                if (appliedTuning != o) {
                    LOG.log(
                            Level.DEBUG,
                            "the JDK HTTP server tuning is per process; this server shares the first one's");
                }
                return;
            }
            Limits limits = o.limits();
            setIfAbsent("sun.net.httpserver.idleInterval", o.idleInterval().toSeconds());
            setIfAbsent("sun.net.httpserver.maxIdleConnections", o.maxIdleConnections());
            setIfAbsent("jdk.httpserver.maxConnections", o.maxConnections());
            setIfAbsent("sun.net.httpserver.maxReqTime", o.maxRequestTime().toSeconds());
            setIfAbsent("sun.net.httpserver.maxRspTime", o.maxResponseTime().toSeconds());
            setIfAbsent("sun.net.httpserver.nodelay", o.tcpNoDelay());
            // The guard's hard limits are four times the adapter's, so that the adapter's enveloped 414/431
            // come first; the JDK's are eight times, so that the guard's come before them (the JDK also
            // counts 32 bytes per header field toward its size).
            setIfAbsent("sun.net.httpserver.maxReqHeaders", 8L * limits.maxHeaderCount());
            setIfAbsent(
                    "sun.net.httpserver.maxReqHeaderSize",
                    8L * Math.max((long) limits.maxHeaderBytes(), limits.maxUriLength()));
            appliedTuning = o;
        }
    }

    private static void setIfAbsent(String key, Object value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, String.valueOf(value));
        }
    }

    /** Reports a refusal; monitoring never fails an exchange. */
    static void refused(Observed.Refusals refusals, String method, int status, String id, long nanos) {
        try {
            refusals.refused(method, status, id, nanos);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "reporting a refused request failed: {0}", e.toString());
        }
    }

    /** Request ids: a random per-server prefix and a counter; unique within a run, cheap, not secret. */
    private static final class RequestIds {
        private final String prefix;
        private final AtomicLong counter = new AtomicLong();

        RequestIds() {
            this.prefix = HexFormat.of().toHexDigits(new SecureRandom().nextInt());
        }

        String next() {
            return prefix + "-" + Long.toHexString(counter.incrementAndGet());
        }
    }

    /** Adapts one exchange to the handler and back. */
    private static final class Exchanges implements com.sun.net.httpserver.HttpHandler {
        private final Handler handler;
        private final Service envelope;
        private final Limits limits;
        private final RequestIds ids;
        private final UnaryOperator<InetSocketAddress> clients;
        private final Observed.Refusals refusals;

        Exchanges(
                Handler handler,
                Service envelope,
                Limits limits,
                RequestIds ids,
                UnaryOperator<InetSocketAddress> clients,
                Observed.Refusals refusals) {
            this.refusals = refusals;
            this.handler = handler;
            this.envelope = envelope;
            this.limits = limits;
            this.ids = ids;
            this.clients = clients;
        }

        @Override
        public void handle(HttpExchange exchange) throws IOException {
            String id = ids.next();
            long start = System.nanoTime();
            Response response;
            boolean closeAfter;
            boolean handled = false;
            try {
                Request request = toRequest(exchange, id);
                handled = true;
                response = handler.handle(request);
            } catch (Throwable t) {
                if (t instanceof VirtualMachineError vme && !(t instanceof StackOverflowError)) {
                    throw vme;
                }
                response = ErrorResponses.render(
                        envelope,
                        t,
                        id,
                        AcceptLanguage.resolve(exchange.getRequestHeaders().get(AcceptLanguage.HEADER)));
            }
            // After a refused body the rest of it is still on the wire: do not reuse the connection.
            closeAfter = response.status() == 413;
            if (!response.headers().contains(ErrorResponses.REQUEST_ID)) {
                response = response.withHeader(ErrorResponses.REQUEST_ID, id);
            }
            if (closeAfter) {
                response = response.withHeader("Connection", "close");
            }
            if (!handled) {
                // Refused before the handler, whose observer never saw it; reported before the write, as
                // the observer reports the handler's answers.
                refused(refusals, exchange.getRequestMethod(), response.status(), id, System.nanoTime() - start);
            }
            write(exchange, response, closeAfter);
        }

        private Request toRequest(HttpExchange exchange, String id) {
            URI uri = exchange.getRequestURI();
            String rawPath = rawBytesEncoded(uri.getRawPath() == null ? "" : uri.getRawPath());
            String rawQuery = uri.getRawQuery() == null ? null : rawBytesEncoded(uri.getRawQuery());
            int targetLength = rawPath.length() + (rawQuery == null ? 0 : rawQuery.length() + 1);
            Headers headers = Headers.copyOf(exchange.getRequestHeaders());
            limits.checkHead(targetLength, headers);
            String declared = headers.first("Content-Length").orElse(null);
            if (declared != null) {
                long length;
                try {
                    length = Long.parseLong(declared.trim());
                } catch (NumberFormatException e) {
                    length = -1;
                }
                if (length > limits.maxBodyBytes()) {
                    throw limits.bodyTooLarge(Message.BODY_DECLARES.with(length));
                }
            }
            InputStream body = limits.boundedBody(exchange.getRequestBody());
            return Request.of(
                    exchange.getRequestMethod(),
                    rawPath,
                    rawQuery,
                    headers,
                    body,
                    id,
                    clients.apply(exchange.getRemoteAddress()),
                    limits);
        }

        /**
         * The JDK server reads the request line as ISO-8859-1, so a raw byte above 0x7F in the target
         * (curl sends UTF-8 unencoded) reaches us as the char of the same value. Percent-encoding it
         * back gives the bytes the client sent, which {@link dev.cadastro.http.PercentDecoding} then
         * decodes strictly as UTF-8: {@code São} is read as sent, a malformed sequence is a 422.
         */
        static String rawBytesEncoded(String raw) {
            int i = 0;
            while (i < raw.length() && raw.charAt(i) < 0x80) {
                i++;
            }
            if (i == raw.length()) {
                return raw;
            }
            StringBuilder sb = new StringBuilder(raw.length() + 16).append(raw, 0, i);
            for (; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c < 0x80 || c > 0xff) {
                    sb.append(c);
                } else {
                    sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
                }
            }
            return sb.toString();
        }

        private static final char[] HEX = "0123456789ABCDEF".toCharArray();

        /**
         * Writes the answer. {@code lingering} (a refused body): once the answer is on the wire, what is
         * left of the body is read and dropped ({@link Limits#swallow}) before the connection closes, or the
         * close would reset a connection with request bytes unread and the client that writes its whole
         * body after the head would lose the 413. Answering first means a client that waits for the
         * answer before sending its body (or never sends it) has it at once; the read ends when that
         * client closes.
         */
        private static void write(HttpExchange exchange, Response response, boolean lingering) throws IOException {
            if (response.streamed() != null) {
                writeStreamed(exchange, response);
                return;
            }
            try (exchange) {
                com.sun.net.httpserver.Headers out = exchange.getResponseHeaders();
                response.headers().forEach(out::add);
                byte[] body = response.body();
                boolean head = "HEAD".equals(exchange.getRequestMethod());
                boolean noBody = body.length == 0 || head || response.status() == 204 || response.status() == 304;
                if (head && body.length > 0) {
                    // The length the GET would have sent; the JDK leaves HEAD's headers to us.
                    out.set("Content-Length", Integer.toString(body.length));
                }
                exchange.sendResponseHeaders(response.status(), noBody ? -1 : body.length);
                if (!noBody) {
                    try (OutputStream os = exchange.getResponseBody()) {
                        os.write(body);
                        if (lingering) {
                            os.flush();
                            swallow(exchange);
                        }
                    }
                }
            } catch (IOException e) {
                // The client went away mid-answer; nothing to tell it.
                LOG.log(Level.DEBUG, "writing the response failed: {0}", e.toString());
            }
        }

        private static void swallow(HttpExchange exchange) {
            try {
                Limits.swallow(exchange.getRequestBody());
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.DEBUG, "the rest of a refused body could not be read: {0}", e.toString());
            }
        }

        private static void writeStreamed(HttpExchange exchange, Response response) {
            try (exchange;
                    Response.Streamed body = response.streamed()) {
                com.sun.net.httpserver.Headers out = exchange.getResponseHeaders();
                response.headers().forEach(out::add);
                boolean head = "HEAD".equals(exchange.getRequestMethod());
                if (head) {
                    out.set("Content-Length", Long.toString(body.length()));
                }
                exchange.sendResponseHeaders(response.status(), head ? -1 : body.length());
                if (!head) {
                    try (OutputStream os = exchange.getResponseBody()) {
                        body.writeTo(os);
                    }
                }
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "streaming the response failed: {0}", e.toString());
            }
        }
    }
}
