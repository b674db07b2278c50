package dev.cadastro.benchmarks.push;

import com.sun.net.httpserver.HttpServer;
import dev.cadastro.benchmarks.Flags;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.Delivery;
import dev.cadastro.core.calls.push.DestinationPolicy;
import dev.cadastro.core.calls.push.PushDelivery;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.calls.push.PushWorkers;
import dev.cadastro.core.calls.push.RetrySchedule;
import dev.cadastro.core.work.WorkerPool;
import dev.cadastro.http.callrecords.CallJson;
import dev.cadastro.providers.JdkWebhookSender;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * Push deliveries per second and the time from ready to delivered, on the production path: {@code
 * PgDeliveryQueue.claimMany} (batch claims with {@code FOR UPDATE SKIP LOCKED} and the per-integration
 * cap), {@code PushDelivery} (body rendered by {@code CallJson.wrapped}, Standard Webhooks signature,
 * {@code JdkWebhookSender} POST) and the outcome recorded, run by {@code PushWorkers}, against a local
 * receiver that answers 204 at once (the JDK's HTTP server on loopback, verifying nothing) and the
 * embedded PostgreSQL.
 *
 * <p>Not JMH: a fixed run against a database whose rows are the measurement. Two phases:
 *
 * <ul>
 *   <li>{@code backlog}: {@code --backlog} ready deliveries are written at once (as after an outage), then
 *       the workers start; deliveries per second = rows / (last delivered_at - start);
 *   <li>{@code steady}: deliveries become ready at {@code --rate} a second for {@code --seconds} (written
 *       by a producer every 20 ms with {@code ready_at = now()}, as the ingest's transaction would);
 *       latency = {@code delivered_at - ready_at} per row: p50, p90, p99 and max, read from the table.
 * </ul>
 *
 * The peer is the receiver alone: the same number of POSTs from the same HTTP client with no queue
 * ({@code floor}), the ceiling any queue could reach here.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.push.PushDeliveryRun
 * [--integrations 8] [--backlog 20000] [--rate 1000] [--seconds 20] [--workers 128] [--per-integration 32]
 * [--dir target/push-bench]}
 */
public final class PushDeliveryRun {
    private PushDeliveryRun() {}

    public static void main(String[] args) throws Exception {
        int integrations = Integer.parseInt(Flags.value(args, "integrations", "8"));
        int backlog = Integer.parseInt(Flags.value(args, "backlog", "20000"));
        int rate = Integer.parseInt(Flags.value(args, "rate", "1000"));
        int seconds = Integer.parseInt(Flags.value(args, "seconds", "20"));
        int workers = Integer.parseInt(Flags.value(args, "workers", "128"));
        int perIntegration = Integer.parseInt(Flags.value(args, "per-integration", "32"));
        Path dir = Path.of(Flags.value(args, "dir", "target/push-bench"));
        Files.createDirectories(dir);

        LongAdder received = new LongAdder();
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        receiver.createContext("/", exchange -> {
            try (exchange;
                    InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
                received.increment();
                exchange.sendResponseHeaders(204, -1);
            }
        });
        receiver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        receiver.start();
        URI url = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");

        Database database = Database.builder()
                .embedded(dir.resolve("db"))
                .durableCommits(true)
                .poolSize(32)
                .build();
        try (Store store = Store.open(database, Clock.systemUTC())) {
            String jdbc = store.embedded().orElseThrow().jdbcUrl();
            reset(jdbc);
            List<Integration> all = new ArrayList<>();
            for (int i = 0; i < integrations; i++) {
                Integration in = integration(jdbc, "bench-" + i);
                all.add(in);
                store.pushDestinations()
                        .set(
                                new PushDestination(
                                        in,
                                        url,
                                        "Authorization",
                                        "Bearer bench",
                                        true,
                                        PushDestination.newSecret(new SecureRandom()),
                                        true),
                                Instant.now());
            }
            PushWorkers.Options options = PushWorkers.Options.defaults().withConcurrency(workers, perIntegration);
            CountingQueue queue = new CountingQueue(store.deliveryQueue());
            PushDelivery push = new PushDelivery(
                    queue,
                    new JdkWebhookSender(Duration.ofSeconds(5), Clock.systemUTC()),
                    DestinationPolicy.builder()
                            .allowHttp(true)
                            .allowLoopback(true)
                            .resolver(JdkWebhookSender.RESOLVER)
                            .build(),
                    RetrySchedule.standard(new SecureRandom()),
                    call -> CallJson.wrapped(call, "https://gravacoes.example/calls/" + call.id()),
                    Clock.systemUTC(),
                    PushDelivery.DEFAULT_TIMEOUT);
            System.out.printf(
                    Locale.ROOT,
                    "push bench: %d integrations, %d workers, %d per integration, %d cores, JDK %s%n",
                    integrations,
                    workers,
                    perIntegration,
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version());

            // Floor: the same POSTs without the queue.
            floor(url, Math.min(backlog, 20_000), workers);

            // Backlog.
            produce(jdbc, all, backlog, "b");
            long start = System.nanoTime();
            Instant started = Instant.now();
            try (WorkerPool<Delivery> w = PushWorkers.start(queue, push, "bench", Clock.systemUTC(), options)) {
                awaitDelivered(jdbc, backlog, Duration.ofMinutes(10));
            }
            double took = (System.nanoTime() - start) / 1e9;
            // The rate is read from the rows delivered at their first attempt: a delivery whose attempt
            // failed (a connection the receiver dropped) waits 30 s for its retry by design, which is
            // the schedule, not the queue's speed.
            double[] first = firstAttempts(jdbc, started);
            System.out.printf(
                    Locale.ROOT,
                    "backlog: %,.0f deliveries at their first attempt in %.2f s = %,.0f/s; all %,d in %.2f s"
                            + " (receiver got %,d requests in both runs)%n",
                    first[0],
                    first[1],
                    first[0] / first[1],
                    backlog,
                    took,
                    received.sum());
            report(jdbc, "backlog", "b%");
            System.out.println("  " + queue.summary());
            queue.reset();

            // Steady arrivals.
            truncate(jdbc);
            try (WorkerPool<Delivery> w = PushWorkers.start(queue, push, "bench", Clock.systemUTC(), options)) {
                long t0 = System.nanoTime();
                long produced = 0;
                int tick = 0;
                while (System.nanoTime() - t0 < seconds * 1_000_000_000L) {
                    long due = (long) ((System.nanoTime() - t0) / 1e9 * rate);
                    if (due > produced) {
                        produce(jdbc, all, (int) (due - produced), "s" + (tick++) + "-");
                        produced = due;
                    }
                    Thread.sleep(20);
                }
                awaitDelivered(jdbc, produced, Duration.ofMinutes(5));
                double secs = (System.nanoTime() - t0) / 1e9;
                System.out.printf(
                        Locale.ROOT, "steady: %,d deliveries offered at %d/s over %.1f s%n", produced, rate, secs);
            }
            report(jdbc, "steady", "s%");
            windows(jdbc, "s%");
            System.out.println("  " + queue.summary());
        } finally {
            receiver.stop(0);
        }
    }

    private static void floor(URI url, int n, int concurrency) throws Exception {
        JdkWebhookSender sender = new JdkWebhookSender(Duration.ofSeconds(5), Clock.systemUTC());
        byte[] body = new byte[420];
        java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(concurrency);
        long t0 = System.nanoTime();
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                slots.acquire();
                ex.submit(() -> {
                    try {
                        sender.send(new dev.cadastro.core.calls.push.WebhookSender.Request(
                                url,
                                List.of(java.util.Map.entry("Authorization", "Bearer bench")),
                                body,
                                Duration.ofSeconds(5)));
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        double took = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "floor: %,d POSTs without the queue in %.2f s = %,.0f/s%n", n, took, n / took);
    }

    private static void reset(String jdbc) throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(jdbc);
                Statement s = c.createStatement()) {
            s.execute("TRUNCATE call_deliveries, call_push_destinations, calls, call_tokens, call_integrations"
                    + " RESTART IDENTITY CASCADE");
        }
    }

    private static void truncate(String jdbc) throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(jdbc);
                Statement s = c.createStatement()) {
            s.execute("TRUNCATE call_deliveries");
        }
    }

    private static Integration integration(String jdbc, String name) throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(jdbc);
                PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO call_integrations (name, created_at) VALUES (?, now()) RETURNING id")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Integration(rs.getLong(1), name);
            }
        }
    }

    /** Writes {@code n} ready calls and their outbox rows, spread over the integrations, in one transaction. */
    private static void produce(String jdbc, List<Integration> integrations, int n, String prefix) throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(jdbc)) {
            c.setAutoCommit(false);
            long[] ids = integrations.stream().mapToLong(Integration::id).toArray();
            try (PreparedStatement calls = c.prepareStatement("INSERT INTO calls (integration_id, id, occurrence_id,"
                            + " agent_id, agent_login, agent_name, queue, result_code, result_description,"
                            + " classified_at, started_at, duration_seconds, archived_at, recording_key, ingested_at,"
                            + " updated_at) SELECT (?::bigint[])[1 + g % ?], ? || g, ? || g, '417', 'maria.souza',"
                            + " 'Maria Souza', 'vendas', '12', 'Venda realizada', now(), now() - interval '5 minutes',"
                            + " 280, now(), 'calls/x/' || g || '.wav', now(), now() FROM generate_series(1, ?) g"
                            + " ON CONFLICT DO NOTHING");
                    PreparedStatement outbox = c.prepareStatement("INSERT INTO call_deliveries (integration_id,"
                            + " call_id, webhook_id, reason, state, next_attempt_at, created_at, ready_at)"
                            + " SELECT (?::bigint[])[1 + g % ?], ? || g, 'msg_' || ? || g, 'pronta', 'pendente',"
                            + " now(), now(), now() FROM generate_series(1, ?) g")) {
                java.sql.Array array = c.createArrayOf(
                        "bigint", java.util.Arrays.stream(ids).boxed().toArray());
                // The same n calls, spread over the integrations, then a pending delivery for each.
                for (PreparedStatement ps : List.of(calls, outbox)) {
                    ps.setArray(1, array);
                    ps.setInt(2, ids.length);
                    ps.setString(3, prefix);
                    ps.setString(4, prefix);
                    ps.setInt(5, n);
                    ps.executeUpdate();
                }
            }
            c.commit();
        }
    }

    private static void awaitDelivered(String jdbc, long n, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        try (Connection c = java.sql.DriverManager.getConnection(jdbc);
                PreparedStatement ps =
                        c.prepareStatement("SELECT count(*) FROM call_deliveries WHERE state = 'entregue'")) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) >= n) {
                        return;
                    }
                }
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("not all " + n + " delivered within " + within);
    }

    private static void report(String jdbc, String phase, String like) throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(jdbc);
                PreparedStatement ps = c.prepareStatement("SELECT count(*),"
                        + " percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), percentile_cont(0.9) WITHIN GROUP"
                        + " (ORDER BY ms), percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), max(ms),"
                        + " sum(CASE WHEN attempts <> 1 THEN 1 ELSE 0 END)"
                        + " FROM (SELECT extract(epoch FROM delivered_at - ready_at) * 1000 AS ms, attempts"
                        + " FROM call_deliveries WHERE state = 'entregue' AND call_id LIKE ?) t")) {
            ps.setString(1, like);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                System.out.printf(
                        Locale.ROOT,
                        "%s: %,d delivered; ready->delivered p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms;"
                                + " rows with more than one attempt: %d%n",
                        phase,
                        rs.getLong(1),
                        rs.getDouble(2),
                        rs.getDouble(3),
                        rs.getDouble(4),
                        rs.getDouble(5),
                        rs.getLong(6));
            }
        }
    }

    /** How many rows were delivered at attempt 1, and the seconds from {@code since} to the last of them. */
    private static double[] firstAttempts(String jdbc, Instant since) throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(jdbc);
                PreparedStatement ps = c.prepareStatement("SELECT count(*), extract(epoch FROM max(delivered_at) - ?)"
                        + " FROM call_deliveries WHERE state = 'entregue' AND attempts = 1")) {
            ps.setTimestamp(1, java.sql.Timestamp.from(since));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new double[] {rs.getLong(1), rs.getDouble(2)};
            }
        }
    }

    /** The slowest delivery of each 5-second window of ready_at: where a run stalled, if it did. */
    private static void windows(String jdbc, String like) throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(jdbc);
                PreparedStatement ps = c.prepareStatement("SELECT floor(extract(epoch FROM ready_at - min(ready_at)"
                        + " OVER ()) / 5) AS w, extract(epoch FROM delivered_at - ready_at) * 1000 AS ms"
                        + " FROM call_deliveries WHERE state = 'entregue' AND call_id LIKE ?")) {
            ps.setString(1, like);
            java.util.TreeMap<Integer, double[]> byWindow = new java.util.TreeMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    double[] w = byWindow.computeIfAbsent(rs.getInt(1), k -> new double[2]);
                    w[0]++;
                    w[1] = Math.max(w[1], rs.getDouble(2));
                }
            }
            StringBuilder line = new StringBuilder("  slowest per 5 s of ready_at (ms):");
            byWindow.forEach((w, v) -> line.append(String.format(Locale.ROOT, " %.0f", v[1])));
            System.out.println(line);
        }
    }
}
