package dev.cadastro.http;

import java.lang.System.Logger.Level;

/**
 * One line per answered request through {@code System.Logger} {@value #LOGGER} at {@code INFO}, in
 * {@code key=value} form:
 *
 * <pre>{@code service=company-data method=GET route=/v1/empresas/{cnpj} status=200 duration_ms=1.834 request_id=5f1c09aa-2b account=42}</pre>
 *
 * <p>The fields are the ones {@link Observed} has, and no other: the route is the matched template
 * (never the path, which carries CNPJs), there is no query string (CPFs, phones), no header (keys,
 * tokens) and no body (codes). {@code account} is the authenticated account or call-records
 * integration id, {@code -} before authentication; {@code refused_by} is added when a rate limit
 * refused the request. Where the line ends is the host's choice: the JDK's logging by default, SLF4J
 * through its {@code slf4j-jdk-platform-logging} bridge (docs/configuration.md, "Metrics and logs").
 */
public final class AccessLog {
    /** The logger name hosts route or silence. */
    public static final String LOGGER = "dev.cadastro.access";

    private static final AccessLog OFF = new AccessLog(null);

    private final System.Logger logger;

    private AccessLog(System.Logger logger) {
        this.logger = logger;
    }

    /** Writes a line per request to {@value #LOGGER} whenever that logger is enabled for {@code INFO}. */
    public static AccessLog toSystemLogger() {
        return new AccessLog(System.getLogger(LOGGER));
    }

    /** Writes nothing. */
    public static AccessLog off() {
        return OFF;
    }

    /** Whether this log may write at all (a host's logger configuration still decides each line). */
    public boolean enabled() {
        return logger != null;
    }

    void log(
            String service, String method, String route, int status, long nanos, String requestId, RequestFacts facts) {
        if (logger == null || !logger.isLoggable(Level.INFO)) {
            return;
        }
        logger.log(Level.INFO, line(service, method, route, status, nanos, requestId, facts));
    }

    static String line(
            String service, String method, String route, int status, long nanos, String requestId, RequestFacts facts) {
        StringBuilder b = new StringBuilder(160)
                .append("service=")
                .append(service)
                .append(" method=")
                .append(method)
                .append(" route=")
                .append(route)
                .append(" status=")
                .append(status)
                .append(" duration_ms=");
        long micros = Math.max(0, nanos) / 1_000;
        b.append(micros / 1_000).append('.');
        long fraction = micros % 1_000;
        if (fraction < 100) {
            b.append('0');
        }
        if (fraction < 10) {
            b.append('0');
        }
        b.append(fraction).append(" request_id=").append(requestId).append(" account=");
        String account = facts.account();
        b.append(account == null ? "-" : account);
        String refused = facts.refusedBy();
        if (refused != null) {
            b.append(" refused_by=").append(refused);
        }
        return b.toString();
    }
}
