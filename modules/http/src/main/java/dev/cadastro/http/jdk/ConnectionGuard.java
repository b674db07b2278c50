package dev.cadastro.http.jdk;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.http.ErrorResponses;
import dev.cadastro.http.Headers;
import dev.cadastro.http.HttpStatusException;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The front of the default runtime: it owns the public port and hands each client's requests, one
 * complete request head at a time, to the JDK server listening on a private loopback port.
 *
 * <p>The JDK server cannot cap connections per client address, gives a connection that never sends a
 * byte its whole idle interval, and parses request heads before any code of ours runs (trimming a
 * {@code NUL} off a header value, reading the target as ISO-8859-1, answering a bad one in HTML). The
 * guard does those parts itself:
 *
 * <ul>
 *   <li>at accept, a connection over {@link RuntimeOptions#maxConnectionsPerAddress()} for its
 *       address is closed at once; over {@link RuntimeOptions#maxConnections()} in all, it takes the
 *       place of the connection that has waited longest for a request head, if any (else it is
 *       closed);
 *   <li>a connection must deliver each complete request head within {@link
 *       RuntimeOptions#headTimeout()} of its first byte (of being accepted, for the first request),
 *       and may stay idle between requests for {@link RuntimeOptions#idleInterval()};
 *   <li>a head is checked before it is forwarded: request-line syntax, header names, control
 *       characters in header values, {@code Content-Length} and {@code Transfer-Encoding}; a target's
 *       raw bytes above 0x7F (UTF-8 as curl sends it) and characters that {@link URI} refuses but that
 *       have no delimiting role are percent-encoded, so that strict UTF-8 decoding happens later,
 *       naming the parameter; what cannot be repaired is answered here in the service's envelope;
 *   <li>the body is copied as framed ({@code Content-Length} or chunked), the responses unchanged.
 * </ul>
 *
 * <p>An idle or slow connection costs a socket and a parked virtual thread here, never a slot of the
 * JDK server, which sees only connections with a complete head.
 */
final class ConnectionGuard implements AutoCloseable {
    private static final byte[] CRLF = {'\r', '\n'};
    /** A connection that got answer bytes this recently is still being answered, not idle. */
    private static final long ANSWERING_NANOS = 1_000_000_000L;

    private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());
    private static final int BUFFER = 16 * 1024;

    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final RuntimeOptions options;
    private final Service envelope;
    private final Supplier<String> requestIds;
    private final Observed.Refusals refusals;
    private final int maxHeadBytes;
    private final int maxHeadLines;
    private final AtomicInteger open = new AtomicInteger();
    private final Map<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final Map<Integer, InetSocketAddress> clientsByUpstreamPort = new ConcurrentHashMap<>();
    private final Thread acceptor;
    private volatile boolean closed;

    private ConnectionGuard(
            ServerSocket listener,
            InetSocketAddress upstream,
            RuntimeOptions options,
            Service envelope,
            Supplier<String> requestIds,
            Observed.Refusals refusals) {
        this.refusals = refusals;
        this.listener = listener;
        this.upstream = upstream;
        this.options = options;
        this.envelope = envelope;
        this.requestIds = requestIds;
        this.maxHeadBytes =
                4 * Math.max(options.limits().maxHeaderBytes(), options.limits().maxUriLength());
        this.maxHeadLines = 4 * options.limits().maxHeaderCount();
        this.acceptor = Thread.ofPlatform().name("cadastro-http-guard").daemon().unstarted(this::acceptLoop);
    }

    /**
     * Listens on {@code address} and forwards to the JDK server at {@code upstream}.
     *
     * @param requestIds the runtime's request ids, for the answers the guard gives itself
     * @param refusals told of each of those answers
     */
    static ConnectionGuard start(
            InetSocketAddress address,
            InetSocketAddress upstream,
            RuntimeOptions options,
            Service envelope,
            Supplier<String> requestIds,
            Observed.Refusals refusals)
            throws IOException {
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(address, options.backlog());
        ConnectionGuard guard = new ConnectionGuard(listener, upstream, options, envelope, requestIds, refusals);
        guard.acceptor.start();
        return guard;
    }

    InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    /** The client behind a connection the JDK server received from the guard, or {@code seen} itself. */
    InetSocketAddress client(InetSocketAddress seen) {
        if (seen == null || !seen.getAddress().isLoopbackAddress()) {
            return seen;
        }
        return clientsByUpstreamPort.getOrDefault(seen.getPort(), seen);
    }

    /** Connections open now (for tests and diagnostics). */
    int openConnections() {
        return open.get();
    }

    /** Stops accepting; connections in flight go on until {@link #closeConnections()}. */
    void stopAccepting() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the listener failed: {0}", e.toString());
        }
    }

    void closeConnections() {
        for (Connection c : connections) {
            c.close();
        }
    }

    @Override
    public void close() {
        stopAccepting();
        closeConnections();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                // Out of file descriptors, most likely: wait a little rather than spin.
                LOG.log(Level.DEBUG, "accept failed: {0}", e.toString());
                sleepQuietly();
                continue;
            }
            InetAddress address = ((InetSocketAddress) socket.getRemoteSocketAddress()).getAddress();
            if (!admit(address)) {
                closeQuietly(socket);
                continue;
            }
            Connection c = new Connection(socket, address);
            connections.add(c);
            Thread.ofVirtual().name("cadastro-http-client").start(c::serveRequests);
        }
    }

    private boolean admit(InetAddress address) {
        boolean[] ok = {false};
        perAddress.compute(address, (a, n) -> {
            int count = n == null ? 0 : n;
            if (count >= options.maxConnectionsPerAddress()) {
                return n;
            }
            ok[0] = true;
            return count + 1;
        });
        if (!ok[0]) {
            LOG.log(Level.DEBUG, "refused a connection from {0}: at its cap", address);
            return false;
        }
        if (open.incrementAndGet() > options.maxConnections() && !evictTheLongestWaiting()) {
            open.decrementAndGet();
            perAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
            LOG.log(Level.DEBUG, "refused a connection from {0}: {1} open", address, options.maxConnections());
            return false;
        }
        return true;
    }

    /**
     * At the cap, a new client takes the place of the connection that has waited longest for a
     * request head (silent since accepted, or idle between requests): holding connections open then
     * does not lock anyone out. False when every connection is busy with a request.
     */
    private boolean evictTheLongestWaiting() {
        Connection oldest = null;
        long oldestSince = 0;
        long now = System.nanoTime();
        for (Connection c : connections) {
            long since = c.waitingSince;
            // A connection still receiving an answer (a file streaming out) is not waiting, whatever it sent.
            boolean answering = c.writing || (c.answeredAt != 0 && now - c.answeredAt < ANSWERING_NANOS);
            if (since != 0 && !answering && (oldest == null || since - oldestSince < 0)) {
                oldest = c;
                oldestSince = since;
            }
        }
        if (oldest == null) {
            return false;
        }
        LOG.log(Level.DEBUG, "closed a waiting connection from {0} to admit a new one", oldest.address);
        oldest.close();
        return true;
    }

    private void release(InetAddress address) {
        perAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
        open.decrementAndGet();
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do: the socket is gone either way
        }
    }

    /** A head the guard refuses, with the answer it gives. */
    private static final class Refused extends Exception {
        final HttpStatusException answer;

        Refused(HttpStatusException answer) {
            super(answer.getMessage(), null, false, false);
            this.answer = answer;
        }
    }

    /** One client connection and, once it sent a valid head, its connection to the JDK server. */
    private final class Connection {
        private final Socket client;
        private final InetAddress address;
        private final AtomicBoolean done = new AtomicBoolean();
        /** When it started waiting for a request head ({@link System#nanoTime()}, made odd); 0 while busy. */
        volatile long waitingSince = System.nanoTime() | 1;
        /** When bytes of an answer last went to the client (a download may still be streaming). */
        volatile long answeredAt;
        /** True while an answer's bytes are being written to a client that may read slowly. */
        volatile boolean writing;

        private final CountDownLatch responsesDone = new CountDownLatch(1);
        private volatile boolean answering;
        private Socket server;
        private OutputStream toServer;
        private Wire in;

        Connection(Socket client, InetAddress address) {
            this.client = client;
            this.address = address;
        }

        void serveRequests() {
            try {
                client.setTcpNoDelay(options.tcpNoDelay());
                in = new Wire(client.getInputStream());
                long firstDeadline = System.nanoTime() + options.headTimeout().toNanos();
                boolean first = true;
                while (true) {
                    long waitUntil = first
                            ? firstDeadline
                            : System.nanoTime() + options.idleInterval().toNanos();
                    if (!first) {
                        waitingSince = System.nanoTime() | 1;
                    }
                    if (!in.awaitByte(client, waitUntil)) {
                        break; // the client closed between requests
                    }
                    long headDeadline = first
                            ? firstDeadline
                            : System.nanoTime() + options.headTimeout().toNanos();
                    first = false;
                    Head head;
                    try {
                        head = readHead(headDeadline);
                    } catch (Refused r) {
                        answer(r.answer);
                        return;
                    }
                    waitingSince = 0;
                    if (!forward(head)) {
                        return;
                    }
                }
                if (toServer != null) {
                    // Let the server finish the answers it owes, then it closes and so do we.
                    server.shutdownOutput();
                    return;
                }
            } catch (SocketTimeoutException e) {
                LOG.log(Level.DEBUG, "closed a connection from {0}: no complete request head in time", address);
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "connection from {0} ended: {1}", address, e.toString());
            }
            close();
        }

        /** Writes the head and the body it frames to the server; false when the connection is over. */
        private boolean forward(Head head) throws IOException {
            if (toServer == null) {
                server = new Socket();
                server.setTcpNoDelay(options.tcpNoDelay());
                server.connect(upstream, (int) options.headTimeout().toMillis());
                clientsByUpstreamPort.put(server.getLocalPort(), (InetSocketAddress) client.getRemoteSocketAddress());
                toServer = server.getOutputStream();
                InputStream fromServer = server.getInputStream();
                OutputStream toClient = client.getOutputStream();
                Thread.ofVirtual().name("cadastro-http-responses").start(() -> copyResponses(fromServer, toClient));
            }
            try {
                toServer.write(head.bytes);
                long bodyDeadline = System.nanoTime() + options.maxRequestTime().toNanos();
                if (head.chunked) {
                    copyChunked(bodyDeadline);
                } else {
                    in.copy(client, toServer, head.contentLength, bodyDeadline);
                }
                toServer.flush();
                return true;
            } catch (IOException e) {
                // The server closed (a refused body, a timeout), or the client stopped sending its body:
                // what the server answers still reaches the client, then both close.
                LOG.log(Level.DEBUG, "forwarding to the server ended: {0}", e.toString());
                try {
                    server.shutdownOutput();
                } catch (IOException ignored) {
                    // already closed
                }
                return false;
            }
        }

        private void copyChunked(long deadline) throws IOException {
            while (true) {
                byte[] line = in.line(client, deadline, maxHeadBytes);
                if (line == null) {
                    throw new IOException("the client closed inside a chunked body");
                }
                String text = new String(line, StandardCharsets.ISO_8859_1).strip();
                int semicolon = text.indexOf(';');
                String hex = semicolon < 0 ? text : text.substring(0, semicolon).strip();
                // At most 7 hex digits (256 MiB): the JDK reads a chunk size as an int without an
                // overflow check, so a longer size would end the body there and not here.
                long size = -1;
                if (!hex.isEmpty() && hex.length() <= 7 && hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                    size = Long.parseLong(hex, 16);
                }
                if (size < 0) {
                    throw new IOException("malformed chunk size line");
                }
                // The line the JDK reads is ours: the size alone, CRLF, no extensions.
                toServer.write((Long.toHexString(size) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                if (size == 0) {
                    byte[] last = in.line(client, deadline, maxHeadBytes);
                    if (last == null || !Arrays.equals(last, CRLF)) {
                        throw new IOException("a chunked body with trailer fields, which are not accepted");
                    }
                    toServer.write(CRLF);
                    return;
                }
                in.copy(client, toServer, size, deadline);
                byte[] end = in.line(client, deadline, 2);
                if (end == null || !Arrays.equals(end, CRLF)) {
                    throw new IOException("a chunk does not end with CRLF");
                }
                toServer.write(CRLF);
            }
        }

        private void copyResponses(InputStream fromServer, OutputStream toClient) {
            byte[] buf = new byte[BUFFER];
            try {
                int n;
                while ((n = fromServer.read(buf)) > 0) {
                    writing = true;
                    toClient.write(buf, 0, n);
                    if (fromServer.available() == 0) {
                        toClient.flush();
                    }
                    writing = false;
                    answeredAt = System.nanoTime();
                }
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "copying responses ended: {0}", e.toString());
            } finally {
                responsesDone.countDown();
                if (!answering) {
                    close();
                }
            }
        }

        /** Answers a refused head: after the answers the server still owes, then closes. */
        private void answer(HttpStatusException refusal) {
            answering = true;
            try {
                if (server != null) {
                    server.shutdownOutput();
                    if (!responsesDone.await(options.maxResponseTime().toMillis(), TimeUnit.MILLISECONDS)) {
                        close();
                        return;
                    }
                }
                String id = requestIds.get();
                Response r = ErrorResponses.render(envelope, refusal, id);
                // Reported as the observed handler reports its answers: once decided, before the write.
                JdkHttpServerRuntime.refused(refusals, headMethod, r.status(), id, System.nanoTime() - headStart);
                OutputStream out = client.getOutputStream();
                out.write(serialize(r));
                out.flush();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "answering a refused head failed: {0}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            close();
        }

        void close() {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            closeQuietly(client);
            if (server != null) {
                clientsByUpstreamPort.remove(server.getLocalPort());
                closeQuietly(server);
            }
            connections.remove(this);
            release(address);
        }

        /** The method of the head being read once its request line was read, for a refusal's report. */
        private String headMethod;
        /** When the head being read started to arrive ({@link System#nanoTime()}). */
        private long headStart;

        private Head readHead(long deadline) throws IOException, Refused {
            headMethod = null;
            headStart = System.nanoTime();
            byte[] requestLine;
            do {
                requestLine = in.line(client, deadline, maxHeadBytes);
                if (requestLine == null) {
                    throw new IOException("the client closed inside a request head");
                }
            } while (isEmptyLine(requestLine)); // RFC 9112, section 2.2: ignore empty lines before a request
            if (requestLine.length > maxHeadBytes) {
                throw refuse(
                        414,
                        Message.REQUEST_LINE_TOO_LONG.with(maxHeadBytes),
                        Message.FIELD_RULE.with("uri", "max-length"));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(512);
            requestLine(trimEnd(requestLine), out);
            long contentLength = 0;
            String declaredLength = null;
            String transferEncoding = null;
            int lines = 0;
            int size = requestLine.length;
            while (true) {
                byte[] line = in.line(client, deadline, maxHeadBytes);
                if (line == null) {
                    throw new IOException("the client closed inside a request head");
                }
                size += line.length;
                if (size > maxHeadBytes || ++lines > maxHeadLines + 1) {
                    throw refuse(
                            431,
                            Message.HEAD_TOO_LARGE.with(maxHeadBytes, maxHeadLines),
                            Message.FIELD_RULE.with("headers", "max-bytes"));
                }
                byte[] field = trimEnd(line);
                if (field.length == 0) {
                    break;
                }
                String name = headerName(field);
                String value = headerValue(name, field);
                String lower = name.toLowerCase(Locale.ROOT);
                if (lower.equals("content-length")) {
                    for (String part : value.split(",", -1)) {
                        String v = part.strip();
                        if (v.isEmpty() || v.length() > 18 || !v.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                            throw refuse(
                                    400,
                                    Message.CONTENT_LENGTH_NOT_NUMBER.with(quote(value)),
                                    Message.FIELD_RULE.with("Content-Length", "digits"));
                        }
                        if (declaredLength != null && !declaredLength.equals(v)) {
                            throw refuse(
                                    400,
                                    Message.CONTENT_LENGTH_TWICE.with(declaredLength, v),
                                    Message.FIELD_RULE.with("Content-Length", "single-value"));
                        }
                        declaredLength = v;
                    }
                    contentLength = Long.parseLong(declaredLength);
                    // One field with one value, as the JDK server accepts it.
                    out.write(("Content-Length: " + declaredLength + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    continue;
                }
                if (lower.equals("transfer-encoding")) {
                    if (transferEncoding != null || !value.strip().equalsIgnoreCase("chunked")) {
                        // RFC 9112, section 6.1: a coding the server does not implement is a 501; a
                        // value that is no list of codings at all is the client's error.
                        boolean codings = !value.isBlank()
                                && java.util.Arrays.stream(value.split(",", -1))
                                        .allMatch(c -> Texts.isHttpToken(c.strip()));
                        throw refuse(
                                transferEncoding == null && codings ? 501 : 400,
                                Message.TRANSFER_ENCODING.with(quote(value)),
                                Message.FIELD_RULE.with("Transfer-Encoding", "chunked"));
                    }
                    transferEncoding = "chunked";
                }
                out.write(field);
                out.write('\r');
                out.write('\n');
            }
            if (declaredLength != null && transferEncoding != null) {
                throw refuse(400, Message.FRAMING.with(), Message.FIELD_RULE.with("Content-Length", "framing"));
            }
            out.write('\r');
            out.write('\n');
            return new Head(out.toByteArray(), contentLength, transferEncoding != null);
        }

        /** Checks the request line and writes it, its target made safe for {@link URI}, into {@code out}. */
        private void requestLine(byte[] line, ByteArrayOutputStream out) throws Refused {
            int sp1 = indexOf(line, (byte) ' ', 0);
            int sp2 = sp1 < 0 ? -1 : indexOf(line, (byte) ' ', sp1 + 1);
            if (sp1 <= 0 || sp2 < 0 || sp2 == sp1 + 1 || indexOf(line, (byte) ' ', sp2 + 1) >= 0) {
                throw refuse(
                        400,
                        Message.REQUEST_LINE_SYNTAX.with(quote(latin1(line, 0, line.length))),
                        Message.FIELD_RULE.with("request-line", "syntax"));
            }
            String method = latin1(line, 0, sp1);
            headMethod = method;
            if (!Texts.isHttpToken(method)) {
                throw refuse(400, Message.METHOD_TOKEN.with(quote(method)), Message.FIELD_RULE.with("method", "token"));
            }
            String version = latin1(line, sp2 + 1, line.length);
            if (!version.startsWith("HTTP/")) {
                throw refuse(
                        400,
                        Message.REQUEST_LINE_VERSION.with(quote(latin1(line, 0, line.length))),
                        Message.FIELD_RULE.with("request-line", "syntax"));
            }
            if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
                throw refuse(505, Message.HTTP_VERSION.with(quote(version)), null);
            }
            String target = target(line, sp1 + 1, sp2);
            out.writeBytes((method + " " + target + " " + version + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }

        /** The target, percent-encoding what has no role in it, or the refusal. */
        private String target(byte[] line, int from, int to) throws Refused {
            StringBuilder sb = new StringBuilder(to - from + 16);
            for (int i = from; i < to; i++) {
                int b = line[i] & 0xff;
                if (b < 0x20 || b == 0x7f) {
                    throw refuse(
                            400,
                            Message.TARGET_CONTROL_CHARACTER.with(String.format("%04X", b)),
                            Message.FIELD_RULE.with("uri", "control-character"));
                }
                if (b >= 0x80 || "\"<>\\^`{|}".indexOf(b) >= 0) {
                    sb.append('%').append(Character.toUpperCase(Character.forDigit(b >> 4, 16)));
                    sb.append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
                } else {
                    sb.append((char) b);
                }
            }
            String target = sb.toString();
            URI uri;
            try {
                uri = new URI(target);
            } catch (URISyntaxException e) {
                throw refuse(
                        400,
                        Message.TARGET_NOT_URI.with(quote(target), e.getIndex()),
                        Message.FIELD_RULE.with("uri", "syntax"));
            }
            String path = uri.getRawPath();
            if (path == null || !path.startsWith("/")) {
                throw switch (envelope) {
                    case COMPANY_DATA ->
                        new Refused(new HttpStatusException(
                                404,
                                ErrorCode.NAO_ENCONTRADO,
                                Message.NO_RESOURCE_SLASH.with(quote(target)),
                                Message.PATH_IS.with(target),
                                Headers.empty()));
                    case CALL_RECORDS ->
                        new Refused(new HttpStatusException(
                                404,
                                ErrorCode.ROTA_INEXISTENTE,
                                Message.NO_ROUTE.with(quote(target)),
                                null,
                                Headers.empty()));
                };
            }
            return target;
        }

        private String headerName(byte[] field) throws Refused {
            if (field[0] == ' ' || field[0] == '\t') {
                throw refuse(400, Message.OBS_FOLD.with(), Message.FIELD_RULE.with("headers", "obs-fold"));
            }
            int colon = indexOf(field, (byte) ':', 0);
            String name = colon < 0 ? "" : latin1(field, 0, colon);
            if (colon <= 0 || !Texts.isHttpToken(name)) {
                throw refuse(
                        400,
                        Message.HEADER_NAME.with(quote(latin1(field, 0, field.length))),
                        Message.FIELD_RULE.with("headers", "name"));
            }
            return name;
        }

        private String headerValue(String name, byte[] field) throws Refused {
            int colon = name.length();
            for (int i = colon + 1; i < field.length; i++) {
                int b = field[i] & 0xff;
                if ((b < 0x20 && b != '\t') || b == 0x7f) {
                    String lower = name.toLowerCase(Locale.ROOT);
                    if (lower.equals("authorization") || lower.equals("x-api-key")) {
                        ErrorCode code =
                                envelope == Service.COMPANY_DATA ? ErrorCode.CHAVE_INVALIDA : ErrorCode.NAO_AUTORIZADO;
                        throw new Refused(new HttpStatusException(
                                401,
                                code,
                                Message.HEADER_CONTROL_CHARACTER.with(name, String.format("%04X", b)),
                                null,
                                Headers.empty()));
                    }
                    throw refuse(
                            400,
                            Message.HEADER_CONTROL_CHARACTER.with(name, String.format("%04X", b)),
                            Message.FIELD_RULE.with(name, "control-character"));
                }
            }
            return latin1(field, colon + 1, field.length).strip();
        }
    }

    private static Refused refuse(int status, LocalizedText message, LocalizedText detail) {
        return new Refused(
                new HttpStatusException(status, ErrorCode.PARAMETRO_INVALIDO, message, detail, Headers.empty()));
    }

    private record Head(byte[] bytes, long contentLength, boolean chunked) {}

    private static boolean isEmptyLine(byte[] line) {
        return trimEnd(line).length == 0;
    }

    /** The line without its CRLF (or bare LF). */
    private static byte[] trimEnd(byte[] line) {
        int n = line.length;
        if (n > 0 && line[n - 1] == '\n') {
            n--;
        }
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        return n == line.length ? line : java.util.Arrays.copyOf(line, n);
    }

    private static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static String latin1(byte[] a, int from, int to) {
        return new String(a, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** A value in a message: quoted, control characters escaped, bytes above 0x7F as \\xHH, bounded. */
    private static String quote(String s) {
        StringBuilder b = new StringBuilder().append('\'');
        int n = Math.min(s.length(), 64);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else if (c > 0x7f) {
                b.append(String.format("\\x%02X", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('\'');
        if (s.length() > n) {
            b.append(" (")
                    .append(s.length())
                    .append(" characters, first ")
                    .append(n)
                    .append(" shown)");
        }
        return b.toString();
    }

    /** The response bytes of an answer the guard gives itself; the connection closes after it. */
    private static byte[] serialize(Response r) {
        StringBuilder head = new StringBuilder(256)
                .append("HTTP/1.1 ")
                .append(r.status())
                .append(' ')
                .append(reason(r.status()))
                .append("\r\n");
        r.headers()
                .forEach((name, value) ->
                        head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(r.body().length).append("\r\n");
        head.append("Connection: close\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(h, h.length + r.body().length);
        System.arraycopy(r.body(), 0, all, h.length, r.body().length);
        return all;
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 414 -> "URI Too Long";
            case 431 -> "Request Header Fields Too Large";
            case 501 -> "Not Implemented";
            case 505 -> "HTTP Version Not Supported";
            default -> "Error";
        };
    }

    /** A buffered reader of the client's bytes whose every read honours a deadline. */
    private static final class Wire {
        private final InputStream in;
        private final byte[] buf = new byte[BUFFER];
        private int pos;
        private int lim;

        Wire(InputStream in) {
            this.in = in;
        }

        /** Waits for a byte until the deadline; false on a clean end of stream. */
        boolean awaitByte(Socket socket, long deadline) throws IOException {
            return pos < lim || fill(socket, deadline);
        }

        /**
         * One line with its terminator (LF, usually after CR), or null at the end of the stream. A line
         * longer than {@code max} is returned cut at {@code max + 1} bytes, for the caller to refuse.
         */
        byte[] line(Socket socket, long deadline, int max) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream(128);
            while (true) {
                if (pos == lim && !fill(socket, deadline)) {
                    return null;
                }
                int start = pos;
                while (pos < lim && buf[pos] != '\n') {
                    pos++;
                }
                boolean end = pos < lim;
                if (end) {
                    pos++;
                }
                line.write(buf, start, pos - start);
                if (end || line.size() > max) {
                    return line.toByteArray();
                }
            }
        }

        void copy(Socket socket, OutputStream out, long length, long deadline) throws IOException {
            long left = length;
            while (left > 0) {
                if (pos == lim && !fill(socket, deadline)) {
                    throw new IOException("the client closed with " + left + " bytes of the body unsent");
                }
                int n = (int) Math.min(left, lim - pos);
                out.write(buf, pos, n);
                pos += n;
                left -= n;
            }
        }

        private boolean fill(Socket socket, long deadline) throws IOException {
            long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remaining <= 0) {
                throw new SocketTimeoutException("deadline passed");
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, remaining));
            int n = in.read(buf, 0, buf.length);
            if (n < 0) {
                return false;
            }
            pos = 0;
            lim = n;
            return true;
        }
    }
}
