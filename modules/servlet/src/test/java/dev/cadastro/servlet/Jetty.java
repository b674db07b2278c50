package dev.cadastro.servlet;

import dev.cadastro.http.Limits;
import java.net.InetAddress;
import java.net.URI;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** An embedded Jetty 12 on a free loopback port, set up as docs/embedding.md says. */
final class Jetty implements AutoCloseable {
    private final Server server;
    private final ServerConnector connector;

    private Jetty(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    /** One servlet context at {@code contextPath}, filled by {@code setup}. */
    static Jetty start(String contextPath, Consumer<ServletContextHandler> setup) throws Exception {
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        Limits limits = Limits.defaults();
        http.setRequestHeaderSize(8 * Math.max(limits.maxHeaderBytes(), limits.maxUriLength()));
        http.setUriCompliance(UriCompliance.DEFAULT.with("cadastro", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler(contextPath);
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        setup.accept(context);
        server.setHandler(context);
        server.start();
        return new Jetty(server, connector);
    }

    /** Closes a connection idle for {@code millis} (Jetty's default is 30 s). */
    Jetty idleTimeout(long millis) {
        connector.setIdleTimeout(millis);
        return this;
    }

    int port() {
        return connector.getLocalPort();
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port() + pathAndQuery);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
