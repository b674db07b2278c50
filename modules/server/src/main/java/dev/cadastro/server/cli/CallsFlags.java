package dev.cadastro.server.cli;

import dev.cadastro.server.CallRecordsOptions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The flags of {@code serve} and {@code demo} for the call-records service: its API's port, the
 * recording host's port and public base URL, and the ingest interval.
 */
final class CallsFlags {
    static final int DEFAULT_RECORDINGS_PORT = 8082;

    @Option(
            names = "--calls-port",
            paramLabel = "Q",
            description = "TCP port of the call-records API (/v1/ligacoes; 0 picks a free one). serve runs the"
                    + " call-records service only when it is given; demo uses 8081 by default.")
    Integer callsPort;

    @Option(
            names = "--recordings-port",
            paramLabel = "R",
            description = "TCP port of the recording host, which serves the WAV files behind the signed links"
                    + " (default " + DEFAULT_RECORDINGS_PORT + "; 0 picks a free one).")
    Integer recordingsPort;

    @Option(
            names = "--recordings-base-url",
            paramLabel = "URL",
            description = "Public base URL of the recording host, the start of url_gravacao and of the audio"
                    + " redirect, e.g. a CDN in front of it (default http://HOST:R of the recording host itself).")
    String recordingsBaseUrl;

    @Option(
            names = "--calls-refresh",
            paramLabel = "DURATION",
            description = "How often calls are ingested from the exchange: 2m, 30s, 1h or PT2M (serve's default 2m,"
                    + " the contract's refresh; demo's 30s).")
    String refresh;

    /** Whether the call-records API port was given. */
    boolean callsPortGiven() {
        return callsPort != null;
    }

    /**
     * The call-records options these flags give, listening on {@code bind}.
     *
     * @param defaultCallsPort the API's port when {@code --calls-port} was not given
     */
    CallRecordsOptions options(String bind, int defaultCallsPort, Function<String, ParameterException> usage) {
        int calls = port("--calls-port", callsPort == null ? defaultCallsPort : callsPort, usage);
        int recordings =
                port("--recordings-port", recordingsPort == null ? DEFAULT_RECORDINGS_PORT : recordingsPort, usage);
        if (calls != 0 && calls == recordings) {
            throw usage.apply("--calls-port and --recordings-port are both " + calls + "; give two ports");
        }
        CallRecordsOptions options =
                CallRecordsOptions.of(new InetSocketAddress(bind, calls), new InetSocketAddress(bind, recordings));
        if (recordingsBaseUrl != null) {
            try {
                java.net.URI uri = new java.net.URI(recordingsBaseUrl);
                if (uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                    throw new java.net.URISyntaxException(recordingsBaseUrl, "needs a host and no query or fragment");
                }
                options = options.withRecordingsBaseUrl(recordingsBaseUrl);
            } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                throw usage.apply("--recordings-base-url " + recordingsBaseUrl
                        + " is not an http:// or https:// URL with a host: " + e.getMessage());
            }
        }
        return options;
    }

    /** The ingest interval: {@code --calls-refresh}, or {@code otherwise}. */
    Duration refresh(Duration otherwise, Function<String, ParameterException> usage) {
        return refresh == null ? otherwise : duration("--calls-refresh", refresh, usage);
    }

    private static int port(String option, int port, Function<String, ParameterException> usage) {
        if (port < 0 || port > 65535) {
            throw usage.apply(option + " " + port + " must be between 0 and 65535");
        }
        return port;
    }

    /** {@code 90s}, {@code 2m}, {@code 1h}, {@code 500ms} or ISO 8601 ({@code PT2M}); at least one second. */
    static Duration duration(String option, String text, Function<String, ParameterException> usage) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Duration d;
        try {
            if (t.startsWith("pt")) {
                d = Duration.parse(t.toUpperCase(Locale.ROOT));
            } else if (t.matches("[0-9]{1,9}ms")) {
                d = Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            } else if (t.matches("[0-9]{1,9}[smh]")) {
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                d = switch (t.charAt(t.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    default -> Duration.ofHours(n);
                };
            } else {
                throw usage.apply(option + " " + text + " is not a duration such as 30s, 2m, 1h or PT2M");
            }
        } catch (DateTimeParseException e) {
            throw usage.apply(option + " " + text + " is not a duration such as 30s, 2m, 1h or PT2M");
        }
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            throw usage.apply(option + " " + text + " must be at least 1 second");
        }
        return d;
    }
}
