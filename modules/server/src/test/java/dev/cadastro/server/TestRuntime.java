package dev.cadastro.server;

import dev.cadastro.core.error.Service;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Limits;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.servlet.CadastroServlet;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The runtimes the end-to-end suites run on: the server's own ({@link JettyRuntime}, what {@link
 * CadastroServer} listens with: Jetty 12 with the edge protection) and a plain Jetty 12 host as
 * docs/embedding.md writes it, with the handlers mounted through the servlet bridge ({@link
 * CadastroServlet}). Each listens on a free loopback port.
 */
enum TestRuntime {
    SERVER {
        @Override
        Listener listen(Handler handler, Service envelope) throws IOException {
            JettyRuntime runtime = JettyRuntime.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    handler,
                    envelope,
                    RuntimeOptions.defaults());
            return new Listener() {
                @Override
                public int port() {
                    return runtime.port();
                }

                @Override
                public void close() {
                    runtime.close();
                }
            };
        }
    },
    JETTY {
        @Override
        Listener listen(Handler handler, Service envelope) throws IOException {
            return jetty(new CadastroServlet(handler, envelope, Limits.defaults()));
        }
    };

    /** Held so that the level set on it is not lost with a collected logger. */
    private static final java.util.logging.Logger JETTY_LOG = java.util.logging.Logger.getLogger("org.eclipse.jetty");

    /** One listener answering with {@code handler}; errors before it in the envelope of {@code envelope}. */
    abstract Listener listen(Handler handler, Service envelope) throws IOException;

    /** A listener: its port, and close() to stop it. */
    interface Listener extends AutoCloseable {
        int port();

        @Override
        void close();
    }

    /**
     * A Jetty server on a free loopback port with {@code servlet} at {@code /*} of the root context,
     * built by {@link JettyHost#server} and {@link JettyHost#context}: the configuration docs/embedding.md
     * documents, word for word.
     */
    static Listener jetty(CadastroServlet servlet) throws IOException {
        // Jetty's debug log holds request and response bytes (CPFs, codes): kept off even when a test
        // turns the root logger up to see every Cadastro line (docs/embedding.md says the same to hosts).
        JETTY_LOG.setLevel(java.util.logging.Level.INFO);
        Server server = JettyHost.server(0);
        ServerConnector connector = (ServerConnector) server.getConnectors()[0];
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        ServletContextHandler context = JettyHost.context();
        context.addServlet(new ServletHolder("cadastro", servlet), "/*");
        server.setHandler(context);
        try {
            server.start();
        } catch (Exception e) {
            throw new IOException("Jetty did not start: " + e.getMessage(), e);
        }
        return new Listener() {
            @Override
            public int port() {
                return connector.getLocalPort();
            }

            @Override
            public void close() {
                try {
                    server.stop();
                } catch (Exception e) {
                    throw new IllegalStateException("Jetty did not stop", e);
                }
            }
        };
    }
}
