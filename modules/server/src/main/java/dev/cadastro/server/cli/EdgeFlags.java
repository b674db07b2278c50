package dev.cadastro.server.cli;

import dev.cadastro.http.Limits;
import dev.cadastro.jetty.RuntimeOptions;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The flags of {@code serve} and {@code demo} that tune every listener's edge (docs/adr/0036): the
 * connection caps, the timeouts and the body size. Each default is {@link RuntimeOptions}'s.
 */
final class EdgeFlags {
    @Option(
            names = "--max-connections",
            paramLabel = "N",
            defaultValue = "4096",
            description = "Open connections each listener holds at once; at the cap it stops accepting until one"
                    + " closes (default ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(
            names = "--max-connections-per-address",
            paramLabel = "N",
            defaultValue = "256",
            description = "Open connections from one client address per listener; one more is closed at once"
                    + " (default ${DEFAULT-VALUE}). Behind a proxy every client has the proxy's address: raise it.")
    int maxConnectionsPerAddress;

    @Option(
            names = "--idle-timeout-seconds",
            paramLabel = "S",
            defaultValue = "30",
            description = "Seconds a connection may stay without a byte either way (keep-alive, a stalled body)"
                    + " before it is closed (default ${DEFAULT-VALUE}).")
    long idleTimeoutSeconds;

    @Option(
            names = "--head-timeout-seconds",
            paramLabel = "S",
            defaultValue = "10",
            description = "Seconds a client has to send a whole request head; a slower one gets 408 and is closed"
                    + " (default ${DEFAULT-VALUE}).")
    long headTimeoutSeconds;

    @Option(
            names = "--body-timeout-seconds",
            paramLabel = "S",
            defaultValue = "30",
            description = "Seconds a client has to send a whole request body; a slower one gets 408 and is closed"
                    + " (default ${DEFAULT-VALUE}).")
    long bodyTimeoutSeconds;

    @Option(
            names = "--max-body-bytes",
            paramLabel = "N",
            defaultValue = "1048576",
            description = "Largest request body accepted; a larger one gets 413 (default ${DEFAULT-VALUE}).")
    long maxBodyBytes;

    /** The runtime options these flags give, with the drain of {@code serve --drain-seconds}. */
    RuntimeOptions options(Duration drain, Function<String, ParameterException> usage) {
        within("--max-connections", maxConnections, 1, 1_000_000, usage);
        within("--max-connections-per-address", maxConnectionsPerAddress, 1, 1_000_000, usage);
        within("--idle-timeout-seconds", idleTimeoutSeconds, 1, 3600, usage);
        within("--head-timeout-seconds", headTimeoutSeconds, 1, 3600, usage);
        within("--body-timeout-seconds", bodyTimeoutSeconds, 1, 3600, usage);
        within("--max-body-bytes", maxBodyBytes, 0, 1L << 30, usage);
        return RuntimeOptions.builder()
                .maxConnections(maxConnections)
                .maxConnectionsPerAddress(maxConnectionsPerAddress)
                .idleTimeout(Duration.ofSeconds(idleTimeoutSeconds))
                .headTimeout(Duration.ofSeconds(headTimeoutSeconds))
                .bodyTimeout(Duration.ofSeconds(bodyTimeoutSeconds))
                .limits(Limits.defaults().toBuilder().maxBodyBytes(maxBodyBytes).build())
                .drain(drain)
                .build();
    }

    private static void within(
            String option, long value, long min, long max, Function<String, ParameterException> usage) {
        if (value < min || value > max) {
            throw usage.apply(option + " " + value + " must be between " + min + " and " + max);
        }
    }
}
