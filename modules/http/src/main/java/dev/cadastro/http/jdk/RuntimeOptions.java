package dev.cadastro.http.jdk;

import dev.cadastro.http.Limits;
import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of the JDK server runtime. Immutable; validated when built.
 *
 * <p>The JDK's {@code com.sun.net.httpserver} implementation reads its tuning from {@code
 * sun.net.httpserver.*} system properties once, when its configuration class loads. {@link
 * JdkHttpServerRuntime} therefore sets them from these options before it creates the first server
 * of the process; a property already given on the command line ({@code -Dsun.net.httpserver.nodelay=false})
 * wins. Later servers in the same process share the first one's tuning.
 */
public final class RuntimeOptions {
    private final Duration idleInterval;
    private final int maxIdleConnections;
    private final int maxConnections;
    private final Duration maxRequestTime;
    private final Duration maxResponseTime;
    private final boolean tcpNoDelay;
    private final int backlog;
    private final Duration stopGrace;
    private final Duration drain;
    private final Limits limits;
    private final boolean connectionGuard;
    private final int maxConnectionsPerAddress;
    private final Duration headTimeout;

    private RuntimeOptions(Builder b) {
        this.connectionGuard = b.connectionGuard;
        this.maxConnectionsPerAddress = b.maxConnectionsPerAddress;
        this.headTimeout = b.headTimeout;
        this.idleInterval = b.idleInterval;
        this.maxIdleConnections = b.maxIdleConnections;
        this.maxConnections = b.maxConnections;
        this.maxRequestTime = b.maxRequestTime;
        this.maxResponseTime = b.maxResponseTime;
        this.tcpNoDelay = b.tcpNoDelay;
        this.backlog = b.backlog;
        this.stopGrace = b.stopGrace;
        this.drain = b.drain;
        this.limits = b.limits;
    }

    public static RuntimeOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How long an idle keep-alive connection stays open ({@code sun.net.httpserver.idleInterval}). */
    public Duration idleInterval() {
        return idleInterval;
    }

    /** Idle keep-alive connections kept ({@code sun.net.httpserver.maxIdleConnections}). */
    public int maxIdleConnections() {
        return maxIdleConnections;
    }

    /**
     * Whether a {@link ConnectionGuard} owns the public port (default true): per-address caps, the
     * head timeout, request heads checked and answered in the envelope. Turn it off only behind a
     * proxy that does the same.
     */
    public boolean connectionGuard() {
        return connectionGuard;
    }

    /** Open connections from one client address (default 256); more are closed at accept. Guard only. */
    public int maxConnectionsPerAddress() {
        return maxConnectionsPerAddress;
    }

    /**
     * Time a client has to send a complete request head (default 10 s), counted from the connection's
     * acceptance for its first request, from the head's first byte for the next ones. Guard only.
     */
    public Duration headTimeout() {
        return headTimeout;
    }

    /**
     * Open client connections at once (default 4096): the guard's total cap, and the JDK server's
     * ({@code jdk.httpserver.maxConnections}).
     */
    public int maxConnections() {
        return maxConnections;
    }

    /** Time allowed to read a request ({@code sun.net.httpserver.maxReqTime}); slow clients are cut. */
    public Duration maxRequestTime() {
        return maxRequestTime;
    }

    /** Time allowed to write a response ({@code sun.net.httpserver.maxRspTime}). */
    public Duration maxResponseTime() {
        return maxResponseTime;
    }

    /** TCP_NODELAY on accepted sockets ({@code sun.net.httpserver.nodelay}). */
    public boolean tcpNoDelay() {
        return tcpNoDelay;
    }

    /** The listen backlog. */
    public int backlog() {
        return backlog;
    }

    /** How long {@code close()} waits for exchanges in flight. */
    public Duration stopGrace() {
        return stopGrace;
    }

    /**
     * How long a stopping server answers {@code /health/ready} with 503 while it still serves, before it
     * stops accepting (default 0): the time a load balancer or Kubernetes needs to take it out of
     * rotation. The server, not the runtime, waits it ({@code CadastroServer.close()}).
     */
    public Duration drain() {
        return drain;
    }

    /** The request size limits the adapter answers with the envelope. */
    public Limits limits() {
        return limits;
    }

    public static final class Builder {
        private Duration idleInterval = Duration.ofSeconds(30);
        private int maxIdleConnections = 512;
        private int maxConnections = 4096;
        private Duration maxRequestTime = Duration.ofSeconds(30);
        private Duration maxResponseTime = Duration.ofSeconds(60);
        private boolean tcpNoDelay = true;
        private int backlog = 1024;
        private Duration stopGrace = Duration.ofSeconds(2);
        private Duration drain = Duration.ZERO;
        private Limits limits = Limits.defaults();
        private boolean connectionGuard = true;
        private int maxConnectionsPerAddress = 256;
        private Duration headTimeout = Duration.ofSeconds(10);

        private Builder() {}

        public Builder connectionGuard(boolean on) {
            this.connectionGuard = on;
            return this;
        }

        public Builder maxConnectionsPerAddress(int n) {
            this.maxConnectionsPerAddress = n;
            return this;
        }

        public Builder headTimeout(Duration d) {
            this.headTimeout = d;
            return this;
        }

        public Builder idleInterval(Duration d) {
            this.idleInterval = d;
            return this;
        }

        public Builder maxIdleConnections(int n) {
            this.maxIdleConnections = n;
            return this;
        }

        public Builder maxConnections(int n) {
            this.maxConnections = n;
            return this;
        }

        public Builder maxRequestTime(Duration d) {
            this.maxRequestTime = d;
            return this;
        }

        public Builder maxResponseTime(Duration d) {
            this.maxResponseTime = d;
            return this;
        }

        public Builder tcpNoDelay(boolean on) {
            this.tcpNoDelay = on;
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
            requireSeconds("idleInterval", idleInterval);
            requireSeconds("maxRequestTime", maxRequestTime);
            requireSeconds("maxResponseTime", maxResponseTime);
            Objects.requireNonNull(stopGrace, "stopGrace");
            if (stopGrace.isNegative()) {
                throw new IllegalArgumentException("stopGrace " + stopGrace + " must not be negative");
            }
            Objects.requireNonNull(drain, "drain");
            if (drain.isNegative()) {
                throw new IllegalArgumentException("drain " + drain + " must not be negative");
            }
            if (maxIdleConnections < 1) {
                throw new IllegalArgumentException("maxIdleConnections " + maxIdleConnections + " must be at least 1");
            }
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections " + maxConnections + " must be at least 1");
            }
            if (backlog < 1) {
                throw new IllegalArgumentException("backlog " + backlog + " must be at least 1");
            }
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(headTimeout, "headTimeout");
            if (headTimeout.toMillis() < 100) {
                throw new IllegalArgumentException("headTimeout " + headTimeout + " is below the minimum of 100 ms");
            }
            if (maxConnectionsPerAddress < 1) {
                throw new IllegalArgumentException(
                        "maxConnectionsPerAddress " + maxConnectionsPerAddress + " must be at least 1");
            }
            return new RuntimeOptions(this);
        }

        private static void requireSeconds(String knob, Duration d) {
            Objects.requireNonNull(d, knob);
            if (d.toSeconds() < 1) {
                throw new IllegalArgumentException(knob + " " + d + " is below the minimum of 1 second");
            }
        }
    }
}
