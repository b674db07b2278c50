/**
 * The runtime of {@code ./cadastro serve} and {@code demo}: Jetty 12 serving Cadastro's handlers
 * through the servlet bridge ({@code dev.cadastro.servlet}), one Jetty server per listener, with the
 * edge protection a public port needs (connections in all and per client address, head and body
 * timeouts, size limits) and every refusal Jetty makes itself answered in the listener's envelope.
 * Nothing here sets a process-wide property.
 */
module dev.cadastro.jetty {
    requires dev.cadastro.core;
    requires java.logging;
    requires transitive dev.cadastro.http;
    requires dev.cadastro.servlet;
    requires jakarta.servlet;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.ee10.servlet;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.io;
    requires org.eclipse.jetty.util;

    exports dev.cadastro.jetty;
}
