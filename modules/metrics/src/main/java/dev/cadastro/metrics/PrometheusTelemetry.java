package dev.cadastro.metrics;

import dev.cadastro.core.telemetry.Telemetry;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The telemetry port, and the HTTP edge's request event ({@link #requestCompleted}), on Prometheus client_java: one registry per instance (never the library's global
 * one, so two servers in one JVM, or a host's own metrics, stay apart), written in the Prometheus text
 * format by {@link #scrape(OutputStream)}. docs/configuration.md, "Metrics and logs", lists every
 * metric.
 *
 * <p>The event metrics are counters and one histogram, updated on the request's thread: a data point
 * per label set is looked up once and kept, so a request costs a map lookup and two atomic adds. What is
 * cheaper to read than to count (queue depths, circuit states, provider counters the guards already
 * keep) is registered with {@link #gauge} or {@link #counter} and read when scraped.
 */
public final class PrometheusTelemetry implements Telemetry {
    /** The media type of {@link #scrape(OutputStream)}. */
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    /** Latency buckets in seconds: a lookup is a millisecond or two, a person lookup a provider call. */
    private static final double[] LATENCY_BUCKETS = {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer =
            PrometheusTextFormatWriter.builder().build();
    private final Histogram requests;
    private final Counter refusals;
    private final Counter credits;
    private final Counter ledgerEntries;
    private final Counter pushAttempts;
    private final Counter pushFailures;
    private final ConcurrentHashMap<RequestKey, DistributionDataPoint> requestPoints = new ConcurrentHashMap<>();

    private PrometheusTelemetry() {
        requests = Histogram.builder()
                .name("cadastro_http_request_duration_seconds")
                .help("Requests answered, by service, method, route template and status, and how long the"
                        + " handler took")
                .unit(io.prometheus.metrics.model.snapshots.Unit.SECONDS)
                .labelNames("service", "method", "route", "status")
                .classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS)
                .withoutExemplars()
                .register(registry);
        refusals = Counter.builder()
                .name("cadastro_rate_limit_refusals")
                .help("Requests refused by a rate limit, by service and limit (LIMITE_MINUTO, LIMITE_DIARIO)")
                .labelNames("service", "limit")
                .withoutExemplars()
                .register(registry);
        credits = Counter.builder()
                .name("cadastro_credits_charged")
                .help("Credits taken from balances by charges and hold posts, by operation and credit kind")
                .labelNames("operation", "kind")
                .withoutExemplars()
                .register(registry);
        ledgerEntries = Counter.builder()
                .name("cadastro_ledger_entries")
                .help("Ledger entries written, by type")
                .labelNames("type")
                .withoutExemplars()
                .register(registry);
        pushAttempts = Counter.builder()
                .name("cadastro_push_attempts")
                .help("Webhook attempts of push deliveries, by outcome")
                .labelNames("outcome")
                .withoutExemplars()
                .register(registry);
        pushFailures = Counter.builder()
                .name("cadastro_push_failures")
                .help("Webhook attempts of push deliveries that did not deliver")
                .withoutExemplars()
                .register(registry);
    }

    /** A telemetry with its own registry and the event metrics, before any gauge. */
    public static PrometheusTelemetry create() {
        return new PrometheusTelemetry();
    }

    private record RequestKey(String service, String method, String route, int status) {}

    /**
     * One request answered, the HTTP edge's event (its {@code RequestTelemetry}, which a server makes of
     * {@code metrics::requestCompleted}, so this module needs no HTTP module).
     *
     * @param method the method label, one of the edge's closed set or {@code OTHER}
     * @param route the matched template, never a path
     */
    public void requestCompleted(String service, String method, String route, int status, long nanos) {
        RequestKey key = new RequestKey(service, method, route, status);
        DistributionDataPoint point = requestPoints.get(key);
        if (point == null) {
            point = requestPoints.computeIfAbsent(
                    key, k -> requests.labelValues(k.service, k.method, k.route, Integer.toString(k.status)));
        }
        point.observe(nanos / 1e9);
    }

    @Override
    public void rateLimitRefused(String service, String code) {
        refusals.labelValues(service, code).inc();
    }

    @Override
    public void creditsCharged(String operation, String kind, long amount) {
        if (amount > 0) {
            credits.labelValues(operation, kind).inc(amount);
        }
    }

    @Override
    public void ledgerEntryWritten(String type) {
        ledgerEntries.labelValues(type).inc();
    }

    @Override
    public void pushAttempted(String outcome) {
        pushAttempts.labelValues(outcome).inc();
        if (!"DELIVERED".equals(outcome)) {
            pushFailures.inc();
        }
    }

    /** Receives the samples of a metric read when scraped. */
    @FunctionalInterface
    public interface Samples {
        /** One sample: its value and its label values, in the order of the metric's label names. */
        void add(double value, String... labelValues);
    }

    /**
     * A gauge read when scraped: {@code read} adds its current samples. It must be quick and bounded
     * (a scrape waits for it) and must not throw; a sample it does not add is absent from that scrape.
     */
    public void gauge(String name, String help, List<String> labelNames, Consumer<Samples> read) {
        Objects.requireNonNull(read, "read");
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames(labelNames.toArray(String[]::new))
                .callback(cb -> read.accept(cb::call))
                .register(registry);
    }

    /** A counter whose totals something else keeps (a provider guard), read when scraped. */
    public void counter(String name, String help, List<String> labelNames, Consumer<Samples> read) {
        Objects.requireNonNull(read, "read");
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames(labelNames.toArray(String[]::new))
                .callback(cb -> read.accept(cb::call))
                .register(registry);
    }

    /** Writes every metric in the Prometheus text format (version 0.0.4). */
    public void scrape(OutputStream out) throws IOException {
        writer.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
    }

    /** {@link #scrape(OutputStream)} into memory. */
    public byte[] scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        try {
            scrape(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
