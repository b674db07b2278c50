package dev.cadastro.jetty;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.ErrorResponses;
import dev.cadastro.http.Headers;
import dev.cadastro.http.HttpStatusException;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Response;
import java.io.ByteArrayOutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The connection-level protection of one listener: at most {@code maxConnectionsPerAddress} open
 * connections from one client address (one more is closed as soon as it opens), and a complete request
 * head within {@code headTimeout}, counted from the connection's opening for its first request and from
 * the first byte after the previous request for the next ones. A connection that runs out of time is
 * answered 408 in the envelope and closed.
 *
 * <p>Jetty's parser is internal, so the head's progress is seen from outside: a connection is between
 * requests from its opening and from each request's completion until the next one reaches the handler
 * ({@link #around}); bytes received meanwhile are a head on its way. A sweep every tenth of the
 * timeout (at least 20 ms, at most 1 s) closes the late ones.
 */
final class Edge implements Connection.Listener {
    private static final System.Logger LOG = System.getLogger(Edge.class.getName());

    private final int maxPerAddress;
    private final long headNanos;
    private final long sweepMillis;
    private final Service envelope;
    private final Observed.Refusals refusals;
    private final RequestIds ids = new RequestIds();
    private final Map<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
    private final Map<Connection, State> open = new ConcurrentHashMap<>();
    private volatile Scheduler scheduler;
    private volatile boolean sweeping;

    /** What the sweep knows of one connection. */
    private static final class State {
        final InetAddress address;
        final long openedAt = System.nanoTime();
        volatile boolean counted;
        volatile boolean inRequest;
        volatile boolean hadRequest;
        volatile long bytesAtEnd;
        volatile long headStartedAt;

        State(InetAddress address) {
            this.address = address;
        }
    }

    Edge(RuntimeOptions options, Service envelope, Observed.Refusals refusals) {
        this.maxPerAddress = options.maxConnectionsPerAddress();
        this.headNanos = options.headTimeout().toNanos();
        this.sweepMillis = Math.clamp(options.headTimeout().toMillis() / 10, 20, 1000);
        this.envelope = envelope;
        this.refusals = refusals;
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress address = address(connection.getEndPoint().getRemoteSocketAddress());
        State state = new State(address);
        open.put(connection, state);
        if (address == null) {
            return;
        }
        int count = perAddress.merge(address, 1, Integer::sum);
        state.counted = true;
        if (count > maxPerAddress) {
            LOG.log(
                    Level.DEBUG,
                    "closing a connection from {0}: it has {1} open, more than maxConnectionsPerAddress {2}",
                    address.getHostAddress(),
                    count - 1,
                    maxPerAddress);
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        State state = open.remove(connection);
        if (state != null && state.counted) {
            perAddress.computeIfPresent(state.address, (a, n) -> n <= 1 ? null : n - 1);
        }
    }

    /** Open connections from {@code address}, for tests and metrics. */
    int openFrom(InetAddress address) {
        return perAddress.getOrDefault(address, 0);
    }

    /** {@code next} with each request's start and end marked on its connection's state. */
    org.eclipse.jetty.server.Handler around(org.eclipse.jetty.server.Handler next) {
        return new org.eclipse.jetty.server.Handler.Wrapper(next) {
            @Override
            public boolean handle(Request request, org.eclipse.jetty.server.Response response, Callback callback)
                    throws Exception {
                String coding = unsupportedCoding(request);
                if (coding != null) {
                    // Jetty passes a coding other than chunked through undecoded: refused here, in the envelope.
                    org.eclipse.jetty.server.Response.writeError(
                            request,
                            response,
                            callback,
                            400,
                            "Transfer-Encoding " + coding + " is not supported; only chunked is");
                    return true;
                }
                Connection connection = request.getConnectionMetaData().getConnection();
                State state = open.get(connection);
                if (state == null) {
                    return super.handle(request, response, callback);
                }
                state.inRequest = true;
                state.hadRequest = true;
                state.headStartedAt = 0;
                return super.handle(request, response, new Callback() {
                    @Override
                    public void succeeded() {
                        ended();
                        callback.succeeded();
                    }

                    @Override
                    public void failed(Throwable x) {
                        ended();
                        callback.failed(x);
                    }

                    private void ended() {
                        // Before the callback: completing it may start the next pipelined request at once.
                        state.bytesAtEnd = connection.getBytesIn();
                        state.headStartedAt = 0;
                        state.inRequest = false;
                    }

                    @Override
                    public InvocationType getInvocationType() {
                        return callback.getInvocationType();
                    }
                });
            }
        };
    }

    /** A transfer coding of the request other than chunked, or null when there is none. */
    private static String unsupportedCoding(Request request) {
        for (String value : request.getHeaders().getValuesList(org.eclipse.jetty.http.HttpHeader.TRANSFER_ENCODING)) {
            for (String coding : value.split(",")) {
                String c = coding.strip();
                if (!c.isEmpty() && !c.equalsIgnoreCase("chunked")) {
                    return c;
                }
            }
        }
        return null;
    }

    void startSweeping(Scheduler scheduler) {
        this.scheduler = scheduler;
        this.sweeping = true;
        schedule();
    }

    void stopSweeping() {
        sweeping = false;
    }

    private void schedule() {
        Scheduler s = scheduler;
        if (sweeping && s != null && s.isRunning()) {
            try {
                s.schedule(this::sweep, sweepMillis, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "the head-timeout sweep stopped: {0}", e.toString());
            }
        }
    }

    private void sweep() {
        try {
            long now = System.nanoTime();
            open.forEach((connection, state) -> {
                if (state.inRequest) {
                    return;
                }
                long since;
                if (!state.hadRequest) {
                    since = state.openedAt;
                } else {
                    if (state.headStartedAt == 0) {
                        if (connection.getBytesIn() <= state.bytesAtEnd) {
                            return; // idle between requests: Jetty's idle timeout
                        }
                        state.headStartedAt = now;
                    }
                    since = state.headStartedAt;
                }
                if (now - since > headNanos && !state.inRequest) {
                    timeOut(connection);
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "the head-timeout sweep failed: {0}", e.toString());
        } finally {
            schedule();
        }
    }

    /** Answers 408 in the envelope on a connection no request owns, then closes it. */
    private void timeOut(Connection connection) {
        State state = open.remove(connection);
        if (state != null && state.counted) {
            perAddress.computeIfPresent(state.address, (a, n) -> n <= 1 ? null : n - 1);
        }
        EndPoint endPoint = connection.getEndPoint();
        String id = ids.next();
        Response answer = ErrorResponses.render(
                        envelope,
                        new HttpStatusException(
                                408,
                                ErrorCode.PARAMETRO_INVALIDO,
                                Message.REQUEST_TIMEOUT.with("headTimeout " + headNanos / 1_000_000 + " ms"),
                                Message.FIELD_RULE.with("headers", "timeout"),
                                Headers.empty()),
                        id)
                .withHeader("Connection", "close");
        LOG.log(Level.DEBUG, "request {0}: no complete request head in time; answered 408 and closed", id);
        try {
            refusals.refused("OTHER", 408, id, 0);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "reporting a refused request failed: {0}", e.toString());
        }
        try {
            endPoint.write(Callback.from(endPoint::close, x -> endPoint.close()), ByteBuffer.wrap(bytes(answer)));
        } catch (RuntimeException e) {
            endPoint.close();
        }
    }

    /** The answer as HTTP/1.1 bytes, for a connection no request owns. */
    static byte[] bytes(Response answer) {
        StringBuilder head = new StringBuilder("HTTP/1.1 ")
                .append(answer.status())
                .append(' ')
                .append(answer.status() == 408 ? "Request Timeout" : "Bad Request")
                .append("\r\n");
        answer.headers()
                .forEach((name, value) ->
                        head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(answer.body().length).append("\r\n\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(answer.body());
        return out.toByteArray();
    }

    private static InetAddress address(SocketAddress remote) {
        return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }
}
