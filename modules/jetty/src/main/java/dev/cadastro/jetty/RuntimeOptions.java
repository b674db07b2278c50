package dev.cadastro.jetty;

import dev.cadastro.http.Limits;
import java.time.Duration;
import java.util.Objects;

/**
 * The knobs of one listener of {@link JettyRuntime}: its connection caps, its timeouts and the request
 * limits the servlet bridge answers with the envelope. Immutable; validated when built. Nothing here
 * is process-wide: two listeners in one JVM may be tuned apart.
 *
 * @param maxConnections open connections the listener holds at once (default 4096). At the cap it stops
 *     accepting (new clients wait in the listen backlog) and gives the connections it holds the head timeout
 *     as their idle timeout, so idle ones make room quickly (Jetty's {@code NetworkConnectionLimit}).
 * @param maxConnectionsPerAddress open connections from one client address (default 256); one more is
 *     closed as soon as it is accepted, so one address cannot take the whole {@link #maxConnections()}.
 * @param idleTimeout how long a connection may stay without a byte in either direction (default 30 s): a
 *     keep-alive connection between requests, a stalled body, a client that stopped reading its answer.
 * @param headTimeout time a client has to send a complete request head (default 10 s), counted from the
 *     connection's acceptance for its first request and from the head's first byte for the next ones: a client
 *     that trickles its head a byte at a time (slowloris) is closed when it runs out.
 * @param bodyTimeout time a client has to send a whole request, head and body, counted from the head's
 *     first byte (default 30 s): a body trickled slower than that (a slow-body attack) is cut; the connection
 *     is closed.
 * @param backlog connections the operating system queues before the listener accepts them (default 1024).
 * @param stopGrace how long {@code close()} waits for requests in flight (default 2 s).
 * @param drain how long a stopping server answers {@code /health/ready} with 503 while it still serves,
 *     before it stops accepting (default 0): the time a load balancer or Kubernetes needs to take it out of
 *     rotation. The server, not the runtime, waits it ({@code CadastroServer.close()}).
 * @param limits the request size limits the bridge answers with the envelope (414, 431, 413).
 */
public record RuntimeOptions(
        int maxConnections,
        int maxConnectionsPerAddress,
        Duration idleTimeout,
        Duration headTimeout,
        Duration bodyTimeout,
        int backlog,
        Duration stopGrace,
        Duration drain,
        Limits limits) {

    public RuntimeOptions {
        atLeast("maxConnections", maxConnections, 1);
        atLeast("maxConnectionsPerAddress", maxConnectionsPerAddress, 1);
        atLeast("backlog", backlog, 1);
        atLeastMillis("idleTimeout", idleTimeout, 100);
        atLeastMillis("headTimeout", headTimeout, 100);
        atLeastMillis("bodyTimeout", bodyTimeout, 100);
        Objects.requireNonNull(stopGrace, "stopGrace");
        if (stopGrace.isNegative()) {
            throw new IllegalArgumentException("stopGrace " + stopGrace + " must not be negative");
        }
        Objects.requireNonNull(drain, "drain");
        if (drain.isNegative()) {
            throw new IllegalArgumentException("drain " + drain + " must not be negative");
        }
        Objects.requireNonNull(limits, "limits");
    }

    private static void atLeast(String knob, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(knob + " " + value + " must be at least " + min);
        }
    }

    private static void atLeastMillis(String knob, Duration d, long min) {
        Objects.requireNonNull(d, knob);
        if (d.toMillis() < min) {
            throw new IllegalArgumentException(knob + " " + d + " is below the minimum of " + min + " ms");
        }
    }

    public static RuntimeOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .maxConnections(maxConnections)
                .maxConnectionsPerAddress(maxConnectionsPerAddress)
                .idleTimeout(idleTimeout)
                .headTimeout(headTimeout)
                .bodyTimeout(bodyTimeout)
                .backlog(backlog)
                .stopGrace(stopGrace)
                .drain(drain)
                .limits(limits);
    }

    @Override
    public String toString() {
        return "RuntimeOptions[maxConnections=" + maxConnections + ", maxConnectionsPerAddress="
                + maxConnectionsPerAddress + ", idleTimeout=" + idleTimeout + ", headTimeout=" + headTimeout
                + ", bodyTimeout=" + bodyTimeout + ", backlog=" + backlog + ", stopGrace=" + stopGrace + ", drain="
                + drain + ", " + limits + "]";
    }

    public static final class Builder {
        private int maxConnections = 4096;
        private int maxConnectionsPerAddress = 256;
        private Duration idleTimeout = Duration.ofSeconds(30);
        private Duration headTimeout = Duration.ofSeconds(10);
        private Duration bodyTimeout = Duration.ofSeconds(30);
        private int backlog = 1024;
        private Duration stopGrace = Duration.ofSeconds(2);
        private Duration drain = Duration.ZERO;
        private Limits limits = Limits.defaults();

        private Builder() {}

        public Builder maxConnections(int n) {
            this.maxConnections = n;
            return this;
        }

        public Builder maxConnectionsPerAddress(int n) {
            this.maxConnectionsPerAddress = n;
            return this;
        }

        public Builder idleTimeout(Duration d) {
            this.idleTimeout = d;
            return this;
        }

        public Builder headTimeout(Duration d) {
            this.headTimeout = d;
            return this;
        }

        public Builder bodyTimeout(Duration d) {
            this.bodyTimeout = d;
            return this;
        }

        public Builder backlog(int n) {
            this.backlog = n;
            return this;
        }

        public Builder stopGrace(Duration d) {
            this.stopGrace = d;
            return this;
        }

        public Builder drain(Duration d) {
            this.drain = d;
            return this;
        }

        public Builder limits(Limits limits) {
            this.limits = limits;
            return this;
        }

        public RuntimeOptions build() {
            return new RuntimeOptions(
                    maxConnections,
                    maxConnectionsPerAddress,
                    idleTimeout,
                    headTimeout,
                    bodyTimeout,
                    backlog,
                    stopGrace,
                    drain,
                    limits);
        }
    }
}
