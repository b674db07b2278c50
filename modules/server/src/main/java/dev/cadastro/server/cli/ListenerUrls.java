package dev.cadastro.server.cli;

import dev.cadastro.http.Health;
import dev.cadastro.server.CadastroServer;
import java.io.PrintStream;
import java.net.InetSocketAddress;

/**
 * The operator's block that {@code serve} and {@code demo} print once the server answers: each
 * listener's health URLs (no key, not rate limited), so a load balancer or a Kubernetes probe can be
 * pointed at them by copying a line, and the metrics URL when the management listener runs.
 */
final class ListenerUrls {
    private ListenerUrls() {}

    static void print(PrintStream out, CadastroServer server) {
        out.println("Health (no key, not rate limited; ready answers 503 while starting, draining or without the"
                + " database):");
        line(out, "company data", server.address(), server.port());
        server.calls().ifPresent(calls -> {
            line(out, "call records", calls.address(), calls.port());
            InetSocketAddress recordings = calls.recordingsAddress();
            line(out, "recordings", recordings, recordings.getPort());
        });
        server.metricsAddress()
                .ifPresent(m -> out.println("Metrics (Prometheus text format, operators only): http://"
                        + ServeCommand.hostFor(m) + ":" + m.getPort() + "/metrics"));
    }

    private static void line(PrintStream out, String listener, InetSocketAddress address, int port) {
        String base = "http://" + ServeCommand.hostFor(address) + ":" + port;
        out.printf("  %-13s %s  %s%n", listener, base + Health.LIVE, base + Health.READY);
    }
}
