package dev.cadastro.server.cli;

import dev.cadastro.core.calls.push.PushWorkers;
import dev.cadastro.server.PushOptions;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The flags of {@code serve} and {@code demo} that shape the push of calls to the integrations' endpoints. */
final class PushFlags {
    @Option(names = "--push-allow-http", description = "Deliver to plain-http destinations too (default: https only).")
    boolean allowHttp;

    @Option(
            names = "--push-allow-private",
            description = "Deliver to private, link-local and loopback addresses too (default: public addresses"
                    + " only, checked before every attempt, names resolved).")
    boolean allowPrivate;

    @Option(
            names = "--push-workers",
            paramLabel = "N",
            defaultValue = "64",
            description = "Deliveries this server sends at once (default ${DEFAULT-VALUE}; 0 runs no push workers"
                    + " here).")
    int workers;

    @Option(
            names = "--push-per-integration",
            paramLabel = "N",
            defaultValue = "16",
            description = "Deliveries in flight for one integration across all servers (default ${DEFAULT-VALUE}):"
                    + " what a slow receiver can hold.")
    int perIntegration;

    @Option(
            names = "--push-timeout-seconds",
            paramLabel = "S",
            defaultValue = "10",
            description = "Seconds a receiver has to answer before the attempt fails (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    PushOptions options(Function<String, ParameterException> usage) {
        if (workers < 0 || workers > 4096) {
            throw usage.apply("--push-workers " + workers + " must be between 0 and 4096");
        }
        if (perIntegration < 1 || perIntegration > 4096) {
            throw usage.apply("--push-per-integration " + perIntegration + " must be between 1 and 4096");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 120) {
            throw usage.apply("--push-timeout-seconds " + timeoutSeconds + " must be between 1 and 120");
        }
        PushOptions options = PushOptions.defaults()
                .withPolicy(allowHttp, allowPrivate)
                .withTimeout(Duration.ofSeconds(timeoutSeconds));
        if (workers == 0) {
            return options.disabled();
        }
        PushWorkers.Options w = options.workers().withConcurrency(workers, perIntegration);
        return options.withWorkers(w.withLease(Duration.ofSeconds(Math.max(60, 6L * timeoutSeconds))));
    }
}
