package dev.cadastro.jetty;

import dev.cadastro.core.error.Service;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Observed;
import dev.cadastro.servlet.CadastroServlet;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executors;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * One listener of the runnable server: a Jetty 12 server on one port answering every request with one
 * Cadastro {@link Handler} through the servlet bridge ({@link CadastroServlet}), requests handled on
 * virtual threads. Jetty does the protocol work (framing, chunked bodies and trailers, pipelining,
 * keep-alive); this class adds what a public port needs, each a knob of {@link RuntimeOptions}:
 *
 * <ul>
 *   <li>connections in all ({@code maxConnections}, Jetty's {@link NetworkConnectionLimit}) and per
 *       client address ({@code maxConnectionsPerAddress}, closed at accept beyond it);
 *   <li>a request head must arrive whole within {@code headTimeout} (slowloris) and a body within
 *       {@code bodyTimeout} (slow bodies); a connection silent for {@code idleTimeout} is closed;
 *   <li>the bridge's {@link dev.cadastro.http.Limits} (414, 431, 413 in the envelope), and Jetty's own
 *       head limit four times wider as a backstop;
 *   <li>every answer Jetty gives itself (bad framing, duplicate {@code Content-Length}, control
 *       characters in a header value, an unknown transfer coding, a head beyond its limit) rendered in
 *       the listener's envelope with {@code Connection: close} ({@link EnvelopeErrors}).
 * </ul>
 *
 * <p>What the runtime and the bridge answer before the handler runs is reported to the {@link
 * Observed.Refusals} the runtime is started with (route {@code sem_rota}), so refused requests are
 * counted and logged as the handler's. Nothing is process-wide: each listener has its own server,
 * options and threads.
 */
public final class JettyRuntime implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JettyRuntime.class.getName());

    /**
     * Jetty's own debug lines print request bodies, which carry CPFs and phones. Its loggers stay at INFO
     * unless the operator set {@code org.eclipse.jetty.level} explicitly, so a root logger at debug never
     * writes personal data. Held here so the level is not lost with a collected logger.
     */
    private static final java.util.logging.Logger JETTY_LOGS = java.util.logging.Logger.getLogger("org.eclipse.jetty");

    static {
        if (JETTY_LOGS.getLevel() == null) {
            JETTY_LOGS.setLevel(java.util.logging.Level.INFO);
        }
    }

    private final Server server;
    private final ServerConnector connector;
    private final Edge edge;
    private final InetSocketAddress requested;

    private JettyRuntime(Server server, ServerConnector connector, Edge edge, InetSocketAddress requested) {
        this.server = server;
        this.connector = connector;
        this.edge = edge;
        this.requested = requested;
    }

    /**
     * Starts a listener.
     *
     * @param address where to listen; port 0 picks a free port ({@link #port()} tells which)
     * @param handler the application, usually a service's router behind its health endpoints
     * @param envelope the envelope of errors raised before the handler runs
     */
    public static JettyRuntime start(
            InetSocketAddress address, Handler handler, Service envelope, RuntimeOptions options) throws IOException {
        return start(address, handler, envelope, options, Observed.Refusals.NONE);
    }

    /**
     * {@link #start(InetSocketAddress, Handler, Service, RuntimeOptions)}, reporting every answer given
     * before the handler runs (usually {@link Observed#refusals} of the telemetry and access log the
     * handler is observed with).
     */
    public static JettyRuntime start(
            InetSocketAddress address,
            Handler handler,
            Service envelope,
            RuntimeOptions options,
            Observed.Refusals refusals)
            throws IOException {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(envelope, "envelope");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(refusals, "refusals");
        String name = "cadastro-" + envelope.name().toLowerCase(Locale.ROOT).replace('_', '-');

        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName(name);
        // Jetty's own selector and scheduling work stays on its few platform threads; every request is
        // handled on a virtual thread, as the handlers block on PostgreSQL and the providers.
        threads.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Server server = new Server(threads);
        server.setStopTimeout(options.stopGrace().toMillis());
        server.setStopAtShutdown(false);

        HttpConfiguration http = new HttpConfiguration();
        // Four times the adapter's limits, so that the bridge answers an oversized head with its own 414 or
        // 431 first; beyond this Jetty refuses it, in the envelope too (EnvelopeErrors).
        http.setRequestHeaderSize(
                4 * Math.max(options.limits().maxHeaderBytes(), options.limits().maxUriLength()));
        // A CNPJ's mask has a slash: /v1/empresas/12.345.678%2F0001-95 reaches the handler as sent.
        http.setUriCompliance(UriCompliance.DEFAULT.with("cadastro", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setIdleTimeout(options.idleTimeout().toMillis());

        ServerConnector connector = new ServerConnector(server, 1, -1, new HttpConnectionFactory(http));
        if (address.getAddress() != null && !address.getAddress().isAnyLocalAddress()) {
            connector.setHost(address.getAddress().getHostAddress());
        } else if (address.getAddress() == null) {
            connector.setHost(address.getHostString());
        }
        connector.setPort(address.getPort());
        connector.setAcceptQueueSize(options.backlog());
        connector.setIdleTimeout(options.idleTimeout().toMillis());
        connector.setReuseAddress(true);
        Edge edge = new Edge(options, envelope, refusals);
        connector.addBean(edge);
        server.addConnector(connector);

        NetworkConnectionLimit limit = new NetworkConnectionLimit(options.maxConnections(), connector);
        // At the cap, the connections held get the head timeout as their idle timeout: idle ones make room.
        limit.setEndPointIdleTimeout(options.headTimeout().toMillis());
        server.addBean(limit);

        ServletContextHandler context = new ServletContextHandler("/");
        // Jetty's servlet layer refuses an encoded slash unless told to pass it on.
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        context.addFilter(
                new FilterHolder(new BodyDeadline(options.bodyTimeout())), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(
                new ServletHolder(name, new CadastroServlet(handler, envelope, options.limits(), refusals)), "/*");
        EnvelopeErrors errors = new EnvelopeErrors(envelope, refusals);
        context.setErrorHandler(errors);
        server.setErrorHandler(errors);
        server.setHandler(new GracefulHandler(edge.around(context)));
        try {
            server.start();
        } catch (Exception e) {
            try {
                server.stop();
            } catch (Exception stop) {
                e.addSuppressed(stop);
            }
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("could not listen on " + address + ": " + e.getMessage(), e);
        }
        edge.startSweeping(connector.getScheduler());
        JettyRuntime runtime = new JettyRuntime(server, connector, edge, address);
        LOG.log(Level.INFO, "HTTP server listening on {0}", runtime.address());
        return runtime;
    }

    /** The address the listener is bound to: the one it was started with, and the port it got. */
    public InetSocketAddress address() {
        return requested.getAddress() != null
                ? new InetSocketAddress(requested.getAddress(), connector.getLocalPort())
                : InetSocketAddress.createUnresolved(requested.getHostString(), connector.getLocalPort());
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** Stops accepting, waits up to the stop grace for requests in flight, then stops. */
    @Override
    public void close() {
        edge.stopSweeping();
        try {
            server.stop();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "stopping the listener on {0} failed: {1}", address(), e.toString());
        }
    }
}
