package dev.cadastro.server;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * How a server can be watched: the management listener serving {@code /metrics} (and the health
 * endpoints) when an address is given, and the access log ({@code dev.cadastro.access}) on or off.
 * docs/adr/0027-metrics-and-access-log.md says why metrics have a listener of their own.
 *
 * @param metrics where the management listener listens; empty for no metrics at all (nothing counted)
 * @param accessLog whether each answered request writes a line to the {@code dev.cadastro.access} logger
 */
public record Observability(Optional<InetSocketAddress> metrics, boolean accessLog) {
    public Observability {
        Objects.requireNonNull(metrics, "metrics");
    }

    /** No metrics and no access log: requests go straight to the handlers. */
    public static Observability off() {
        return new Observability(Optional.empty(), false);
    }

    /** Metrics on a management listener at {@code address} (port 0 picks a free one). */
    public Observability withMetrics(InetSocketAddress address) {
        return new Observability(Optional.of(address), accessLog);
    }

    public Observability withAccessLog(boolean on) {
        return new Observability(metrics, on);
    }
}
