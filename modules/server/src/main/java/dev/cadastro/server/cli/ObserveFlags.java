package dev.cadastro.server.cli;

import dev.cadastro.server.Observability;
import java.net.InetSocketAddress;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The flags of {@code serve} and {@code demo} that turn on the metrics listener and the access log. */
final class ObserveFlags {
    @Option(
            names = "--metrics-port",
            paramLabel = "P",
            description = "Serve Prometheus metrics at http://HOST:P/metrics on a management listener of their own"
                    + " (0 picks a free port; see --metrics-bind). Without it nothing is counted.")
    Integer metricsPort;

    @Option(
            names = "--metrics-bind",
            paramLabel = "ADDR",
            defaultValue = "127.0.0.1",
            description = "Address of the metrics listener (default ${DEFAULT-VALUE}: this machine only).")
    String metricsBind;

    @Option(
            names = "--access-log",
            paramLabel = "on|off",
            defaultValue = "on",
            description = "One line per request (method, route template, status, duration, request id, account)"
                    + " on standard output through the dev.cadastro.access logger (default ${DEFAULT-VALUE}).")
    String accessLog;

    /**
     * What to watch; {@code defaultMetricsPort} applies when {@code --metrics-port} is not given (null: no
     * metrics).
     */
    Observability options(Integer defaultMetricsPort, Function<String, ParameterException> usage) {
        Integer port = metricsPort != null ? metricsPort : defaultMetricsPort;
        if (port != null && (port < 0 || port > 65535)) {
            throw usage.apply("--metrics-port " + port + " must be between 0 and 65535");
        }
        if (!accessLog.equals("on") && !accessLog.equals("off")) {
            throw usage.apply("--access-log " + accessLog + " must be on or off");
        }
        boolean logging = accessLog.equals("on");
        Observability o = Observability.off().withAccessLog(logging);
        if (logging) {
            Logging.accessLogToStandardOutput();
        }
        return port == null ? o : o.withMetrics(new InetSocketAddress(metricsBind, port));
    }
}
