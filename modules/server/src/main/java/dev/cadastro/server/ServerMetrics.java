package dev.cadastro.server;

import dev.cadastro.http.Handler;
import dev.cadastro.http.Response;
import dev.cadastro.metrics.PrometheusTelemetry;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.PublishedIndex;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The gauges a server registers on its {@link PrometheusTelemetry}, read when scraped
 * (docs/configuration.md, "Metrics and logs", lists them), and the handler of the management
 * listener's {@code GET /metrics}.
 */
final class ServerMetrics {
    private static final System.Logger LOG = System.getLogger(ServerMetrics.class.getName());

    /** The path the management listener serves the scrape on. */
    static final String PATH = "/metrics";

    /** The queue depths are read at most this often, whatever the scrape rate. */
    private static final Duration QUEUES_FRESH_FOR = Duration.ofSeconds(1);

    /**
     * A scrape waits at most this long for the queue depths (a connection from the API's pool, then the
     * query), then serves the last depths read.
     */
    private static final Duration QUEUES_READ_BOUND = Duration.ofSeconds(1);

    private ServerMetrics() {}

    /** The register's published generation and its size. */
    static void register(PrometheusTelemetry metrics, LuceneRegister register) {
        metrics.gauge(
                "cadastro_register_generation",
                "The published generation of the register index being served",
                List.of(),
                s -> published(register).ifPresent(p -> s.add(p.generation())));
        metrics.gauge(
                "cadastro_register_documents",
                "Establishments in the published register index",
                List.of(),
                s -> published(register).ifPresent(p -> s.add(p.documents())));
    }

    private static java.util.Optional<PublishedIndex> published(LuceneRegister register) {
        try {
            return java.util.Optional.of(register.published());
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /** The access log lines the launcher's handler dropped because its output fell behind. */
    static void accessLog(PrometheusTelemetry metrics) {
        metrics.counter(
                "cadastro_access_log_dropped",
                "Access log lines dropped because standard output fell behind",
                List.of(),
                s -> s.add(AccessLogLines.dropped()));
    }

    /** Calls, failures and circuit state of each guarded provider, from the guards' own counters. */
    static void providers(PrometheusTelemetry metrics, Supplier<List<ProviderGuard>> guards) {
        metrics.counter(
                "cadastro_provider_calls",
                "Calls to outside providers through their guards, by provider and outcome (ok, error, timeout,"
                        + " malformed, saturated, circuit_open)",
                List.of("provider", "outcome"),
                s -> {
                    for (ProviderGuard g : guards.get()) {
                        ProviderGuard.Snapshot n = g.snapshot();
                        s.add(n.succeeded(), n.name(), "ok");
                        s.add(n.errors(), n.name(), "error");
                        s.add(n.timeouts(), n.name(), "timeout");
                        s.add(n.malformed(), n.name(), "malformed");
                        s.add(n.saturated(), n.name(), "saturated");
                        s.add(n.rejectedOpen(), n.name(), "circuit_open");
                    }
                });
        metrics.gauge(
                "cadastro_provider_circuit_state",
                "The circuit breaker state of each provider: 1 for the current state, 0 for the others",
                List.of("provider", "state"),
                s -> {
                    for (ProviderGuard g : guards.get()) {
                        ProviderGuard.Snapshot n = g.snapshot();
                        for (ProviderGuard.CircuitState state : ProviderGuard.CircuitState.values()) {
                            s.add(
                                    n.state() == state ? 1 : 0,
                                    n.name(),
                                    state.name().toLowerCase(java.util.Locale.ROOT));
                        }
                    }
                });
    }

    /**
     * Depth and oldest age of the background queues: mailing exports running or waiting, person lookup
     * jobs not yet run, push deliveries pending; and the call ingest, as its sources and the time since
     * the least recent one's checkpoint (the feed's lag: it grows when no server ingests). One bounded query (each count reads a partial index or
     * a table purged daily) read at most once a second, and never waited for more than a second: a
     * scrape during pool exhaustion shows the last depths read.
     */
    static void queues(PrometheusTelemetry metrics, DataSource data, Clock clock) {
        QueueReader reader = new QueueReader(data, clock);
        metrics.gauge(
                "cadastro_queue_depth",
                "Background work waiting or running, by queue (mailing, person_jobs, push); call_ingest: the call sources",
                List.of("queue"),
                s -> reader.read().forEach((queue, q) -> s.add(q.depth(), queue)));
        metrics.gauge(
                "cadastro_queue_oldest_age_seconds",
                "Age of the oldest item waiting or running, by queue, 0 when the queue is empty; call_ingest: time since the least recent ingest checkpoint",
                List.of("queue"),
                s -> reader.read().forEach((queue, q) -> s.add(q.oldestAgeSeconds(), queue)));
    }

    private record Queue(long depth, double oldestAgeSeconds) {}

    private static final class QueueReader {
        private static final String SQL = "SELECT 'mailing', count(*), min(created_at) FROM mailing_jobs"
                + " WHERE state = 'processando'"
                + " UNION ALL SELECT 'person_jobs', count(*), min(created_at) FROM person_jobs"
                + " WHERE state IN ('PENDENTE', 'PROCESSANDO')"
                + " UNION ALL SELECT 'push', count(*), min(created_at) FROM call_deliveries WHERE state = 'pendente'"
                // Not a queue of items: the call sources, and how far the least recent checkpoint trails.
                + " UNION ALL SELECT 'call_ingest', count(*), min(ingested_until) FROM call_ingest_sources";

        private final DataSource data;
        private final Clock clock;
        /** Held only to look at the last read or start one, never during a read. */
        private final ReentrantLock lock = new ReentrantLock();

        private CompletableFuture<Map<String, Queue>> reading = CompletableFuture.completedFuture(Map.of());
        private volatile Instant readAt = Instant.EPOCH;
        private volatile Map<String, Queue> last = Map.of();

        QueueReader(DataSource data, Clock clock) {
            this.data = data;
            this.clock = clock;
        }

        /**
         * The depths, read at most once a second and waited for at most {@link #QUEUES_READ_BOUND}: the
         * query shares the API's pool, so when the pool is exhausted the scrape answers with the last
         * depths read instead of waiting for a connection, and the read in flight serves a later scrape.
         * Only one read is ever in flight, and only the call that started it waits for it.
         */
        Map<String, Queue> read() {
            CompletableFuture<Map<String, Queue>> current;
            lock.lock();
            try {
                Instant now = clock.instant();
                if (Duration.between(readAt, now).compareTo(QUEUES_FRESH_FOR) < 0 && !now.isBefore(readAt)) {
                    return last;
                }
                if (!reading.isDone()) {
                    // Another gauge or scrape is already waiting for this read.
                    return last;
                }
                CompletableFuture<Map<String, Queue>> started = new CompletableFuture<>();
                Thread.ofVirtual().name("cadastro-queue-gauges").start(() -> started.complete(query()));
                reading = started;
                current = started;
            } finally {
                lock.unlock();
            }
            try {
                return current.get(QUEUES_READ_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                return last;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
        }

        private Map<String, Queue> query() {
            Instant now = clock.instant();
            Map<String, Queue> queues = new LinkedHashMap<>();
            try (Connection c = data.getConnection();
                    PreparedStatement ps = c.prepareStatement(SQL)) {
                ps.setQueryTimeout(2);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Timestamp oldest = rs.getTimestamp(3);
                        double age = oldest == null
                                ? 0
                                : Math.max(
                                        0,
                                        Duration.between(oldest.toInstant(), now)
                                                        .toMillis()
                                                / 1000.0);
                        queues.put(rs.getString(1), new Queue(rs.getLong(2), age));
                    }
                }
            } catch (SQLException | RuntimeException e) {
                // The scrape goes on without the queues; readiness reports the database.
                LOG.log(System.Logger.Level.DEBUG, "reading the queue depths failed: {0}", e.toString());
                queues = Map.of();
            }
            last = Map.copyOf(queues);
            // When the read ended, not when it started: a slow read still serves the scrape's other gauge.
            readAt = clock.instant();
            return last;
        }
    }

    /** {@code GET}/{@code HEAD} {@value #PATH}: the scrape; anything else 404. */
    static Handler scrape(PrometheusTelemetry metrics) {
        byte[] notFound = "not found; metrics are at /metrics\n".getBytes(StandardCharsets.UTF_8);
        return request -> {
            if (!PATH.equals(request.rawPath())) {
                return Response.of(404, "text/plain; charset=utf-8", notFound);
            }
            if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
                return Response.of(405, "text/plain; charset=utf-8", new byte[0])
                        .withHeader("Allow", "GET, HEAD");
            }
            return Response.of(200, PrometheusTelemetry.CONTENT_TYPE, metrics.scrape())
                    .withHeader("Cache-Control", "no-store");
        };
    }
}
