package dev.cadastro.server;

import dev.cadastro.core.error.Service;
import dev.cadastro.servlet.CadastroServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The plain Jetty 12 host of docs/embedding.md ("Plain Jetty 12"), word for word: {@link
 * EmbeddingOnJettyTest} compiles and runs it, and {@link TestRuntime#JETTY} builds its server and
 * context with {@link #server} and {@link #context}, so the end-to-end suites run on the documented
 * configuration and the document cannot drift from working code.
 */
final class JettyHost {
    private JettyHost() {}

    // --8<-- [start:host]
    /**
     * Both services of {@code engine} on one Jetty port: company-data under {@code /dados}, call-records
     * under {@code /ligacoes}, the recordings under {@code /gravacoes} (the path of the links' base URL).
     */
    static Server start(CadastroEngine engine, int port) throws Exception {
        Server server = server(port);
        ServletContextHandler context = context();
        CadastroEngine.CallRecordsPart calls = engine.callRecords().orElseThrow();
        mount(context, "/dados/*", new CadastroServlet(engine.companyData(), Service.COMPANY_DATA));
        mount(context, "/ligacoes/*", new CadastroServlet(calls.api(), Service.CALL_RECORDS));
        mount(context, "/gravacoes/*", new CadastroServlet(calls.recordings(), Service.CALL_RECORDS));
        server.setHandler(context);
        server.start();
        return server;
    }

    /** A Jetty server, not started, with one HTTP connector on {@code port}. */
    static Server server(int port) {
        HttpConfiguration http = new HttpConfiguration();
        // Request heads up to 64 KiB, above the adapter's limits (8 KiB targets, 16 KiB of header
        // fields), so that Cadastro answers an oversized request with its envelope (414, 431) first.
        http.setRequestHeaderSize(64 * 1024);
        // A CNPJ's mask has a slash: /v1/empresas/12.345.678%2F0001-95 must reach the handler as sent.
        http.setUriCompliance(UriCompliance.DEFAULT.with("cadastro", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        http.setSendServerVersion(false);

        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setPort(port);
        server.addConnector(connector);
        return server;
    }

    /** The root servlet context the servlets are mounted in. */
    static ServletContextHandler context() {
        ServletContextHandler context = new ServletContextHandler("/");
        // Jetty's servlet layer refuses an encoded slash unless told to pass it on.
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        return context;
    }

    private static void mount(ServletContextHandler context, String mapping, CadastroServlet servlet) {
        context.addServlet(new ServletHolder(servlet), mapping);
    }
    // --8<-- [end:host]
}
