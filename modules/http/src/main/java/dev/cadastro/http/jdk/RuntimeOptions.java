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
    private final Limits limits;

    private RuntimeOptions(Builder b) {
        this.idleInterval = b.idleInterval;
        this.maxIdleConnections = b.maxIdleConnections;
        this.maxConnections = b.maxConnections;
        this.maxRequestTime = b.maxRequestTime;
        this.maxResponseTime = b.maxResponseTime;
        this.tcpNoDelay = b.tcpNoDelay;
        this.backlog = b.backlog;
        this.stopGrace = b.stopGrace;
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

    /** Open connections accepted at once ({@code jdk.httpserver.maxConnections}). */
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
        private Limits limits = Limits.defaults();

        private Builder() {}

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
