package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.metrics.PrometheusTelemetry;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The queue gauges against a real PostgreSQL through a real pool of one connection. */
class ServerMetricsTest {
    private static final String MAILING_DEPTH = "cadastro_queue_depth{queue=\"mailing\"} 0";

    private static EmbeddedDatabase server;
    private static Store store;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "server-metrics-pg-"), false);
        store = Store.open(
                Database.builder()
                        .url(server.jdbcUrl())
                        .poolSize(1)
                        .connectionTimeout(Duration.ofSeconds(60))
                        .build(),
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        store.close();
        server.close();
    }

    private static String scrape(PrometheusTelemetry metrics) {
        return new String(metrics.scrape(), StandardCharsets.UTF_8);
    }

    @Test
    void aScrapeWhileThePoolIsExhaustedServesTheLastDepthsInsteadOfWaitingForAConnection() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-24T12:00:00Z"));
        PrometheusTelemetry metrics = PrometheusTelemetry.create();
        ServerMetrics.queues(metrics, store.dataSource(), clock);
        assertTrue(scrape(metrics).contains(MAILING_DEPTH), scrape(metrics));

        clock.advance(Duration.ofSeconds(5));
        try (Connection held = store.dataSource().getConnection()) {
            // The pool's only connection is taken and the pool would wait 60 s for it: the scrape must not.
            CompletableFuture<String> scraped = CompletableFuture.supplyAsync(() -> scrape(metrics));
            String text = scraped.get(20, TimeUnit.SECONDS);
            assertTrue(text.contains(MAILING_DEPTH), text);
            assertTrue(text.contains("cadastro_queue_oldest_age_seconds{queue=\"mailing\"} 0"), text);
            assertTrue(held.isValid(1), "the connection was held throughout");
        }
    }

    @Test
    void aReadSlowerThanTheFreshnessWindowIsDoneOncePerScrape() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-24T12:00:00Z"));
        AtomicInteger reads = new AtomicInteger();
        DataSource slow = new Delegating(store.dataSource()) {
            @Override
            public Connection getConnection() throws SQLException {
                reads.incrementAndGet();
                // The read takes longer than the window the depths stay fresh for.
                clock.advance(Duration.ofMillis(1500));
                return super.getConnection();
            }
        };
        PrometheusTelemetry metrics = PrometheusTelemetry.create();
        ServerMetrics.queues(metrics, slow, clock);
        String text = scrape(metrics);
        assertTrue(text.contains(MAILING_DEPTH), text);
        assertEquals(1, reads.get(), "the second gauge of the scrape used the first one's read");
    }

    @Test
    void theAccessLogsDroppedLinesAreScraped() {
        PrometheusTelemetry metrics = PrometheusTelemetry.create();
        ServerMetrics.accessLog(metrics);
        String text = scrape(metrics);
        assertTrue(
                text.contains("cadastro_access_log_dropped_total " + (double) AccessLogLines.dropped())
                        || text.contains("cadastro_access_log_dropped_total " + AccessLogLines.dropped()),
                text);
    }

    /** The real pool, with one method overridden by the test. */
    private static class Delegating implements DataSource {
        private final DataSource real;

        Delegating(DataSource real) {
            this.real = real;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return real.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return real.getConnection(user, password);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return real.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            real.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            real.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return real.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return real.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return real.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return real.isWrapperFor(iface);
        }
    }
}
