package dev.cadastro.benchmarks.exports;

import dev.cadastro.benchmarks.MailingAccount;
import dev.cadastro.benchmarks.RunTimes;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.server.MailingOptions;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mailing exports end to end, as a client sees them: the time from {@code POST /v1/mailing} to the
 * poll that finds the job {@code concluido}, for 50,000 leads in CSV and in XLSX, through the real
 * server ({@link CadastroServer}: JDK HTTP runtime, the register index given, an embedded PostgreSQL,
 * the export workers, the local file store). Measured in the same run: the XLSX writer's floor
 * (fastexcel alone writing 50,000 rows of 30 text cells, {@link ExportWriterBenchmark#fastexcelFloor}),
 * four concurrent exports against one, and the heap in use above the idle server's during an export.
 *
 * <pre>
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.exports.MailingExportRun \
 *     --index /work/bench/index10m --work /tmp/mailing-bench [--leads 50000] [--runs 10] [--warmup 5]
 * </pre>
 */
public final class MailingExportRun {
    private static final Pattern JOB_ID = Pattern.compile("\"job_id\":\"([0-9a-f]+)\"");
    private static final Pattern STATUS = Pattern.compile("\"status\":\"([a-z]+)\"");

    private MailingExportRun() {}

    public static void main(String[] args) throws Exception {
        Path index = null;
        Path work = null;
        int leads = 50_000;
        int runs = 10;
        int warmup = 5;
        for (int i = 0; i < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--index" -> index = Path.of(value);
                case "--work" -> work = Path.of(value);
                case "--leads" -> leads = Integer.parseInt(value);
                case "--runs" -> runs = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (index == null || work == null) {
            throw new IllegalArgumentException("usage: --index DIR --work DIR [--leads N] [--runs N] [--warmup N]");
        }
        PrintStream out = System.out;
        Files.createDirectories(work);
        Clock clock = Clock.systemUTC();
        EngineConfig config = EngineConfig.builder(index, Database.embedded(work.resolve("db")))
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(1_000_000))
                .clock(clock)
                .files(work.resolve("files"))
                .mailing(MailingOptions.defaults().withWorkers(4))
                .build();
        try (CadastroServer server = CadastroServer.start(config)) {
            out.printf(
                    "register: %,d establishments (%s); JVM %s, -Xmx %d MB, %d cores%n",
                    server.register().published().documents(),
                    index,
                    Runtime.version(),
                    Runtime.getRuntime().maxMemory() >> 20,
                    Runtime.getRuntime().availableProcessors());
            String key = MailingAccount.create(server.store(), clock).key().secret();
            Client client = new Client(server.port(), key);
            String[] bodies = {
                "{\"filtros\": {\"situacao_cadastral\": [\"02\"]}, \"quantidade\": " + leads + ", \"formato\": \"%s\"}",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": " + leads + ", \"formato\": \"%s\"}",
                "{\"filtros\": {\"ufs\": [\"MG\", \"RJ\"], \"com_email\": true}, \"quantidade\": " + leads
                        + ", \"formato\": \"%s\"}"
            };
            String[] pool = ExportWriterBenchmark.floorPool();
            for (int i = 0; i < warmup; i++) {
                ExportWriterBenchmark.fastexcelFloor(pool);
                for (String format : List.of("csv", "xlsx")) {
                    client.export(bodies[i % bodies.length].formatted(format));
                }
            }
            long[] floor = new long[runs];
            for (int i = 0; i < runs; i++) {
                long t0 = System.nanoTime();
                ExportWriterBenchmark.fastexcelFloor(pool);
                floor[i] = System.nanoTime() - t0;
            }
            RunTimes.report(out, "floor: fastexcel alone, " + leads + " rows x 30 text cells", floor);
            long[] single = null;
            for (String format : List.of("csv", "xlsx")) {
                long[] times = new long[runs];
                for (int i = 0; i < runs; i++) {
                    times[i] = client.export(bodies[i % bodies.length].formatted(format));
                }
                RunTimes.report(out, format + ": POST to concluido, " + leads + " leads", times);
                if (format.equals("csv")) {
                    single = times;
                }
                long[] four = new long[Math.max(3, runs / 3)];
                for (int i = 0; i < four.length; i++) {
                    four[i] = client.concurrently(4, bodies[i % bodies.length].formatted(format));
                }
                RunTimes.report(out, format + ": 4 concurrent exports, POST to the last concluido", four);
                out.printf(
                        "  ratio 4 concurrent / one (medians): %.2f%n",
                        (double) RunTimes.median(four) / RunTimes.median(format.equals("csv") ? single : times));
            }
            heap(out, client, bodies[0].formatted("xlsx"));
            heap(out, client, bodies[0].formatted("csv"));
        }
    }

    /** Heap in use above the idle server's, sampled every millisecond during one export (garbage included). */
    private static void heap(PrintStream out, Client client, String body) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        Thread.sleep(200);
        long idle = memory.getHeapMemoryUsage().getUsed();
        AtomicLong peak = new AtomicLong(idle);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (running.get()) {
                peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long t = client.export(body);
        running.set(false);
        sampler.join();
        System.gc();
        Thread.sleep(200);
        long after = memory.getHeapMemoryUsage().getUsed();
        out.printf(
                "heap during one export (%s, %.0f ms): idle after GC %d MB, peak in use %d MB (+%d MB, garbage"
                        + " included), after GC %d MB%n",
                body.contains("xlsx") ? "xlsx" : "csv",
                t / 1e6,
                idle >> 20,
                peak.get() >> 20,
                (peak.get() - idle) >> 20,
                after >> 20);
    }

    /** A client of the three mailing endpoints through java.net.http, polling every millisecond. */
    private static final class Client {
        private final HttpClient http = HttpClient.newHttpClient();
        private final String base;
        private final String key;

        Client(int port, String key) {
            this.base = "http://127.0.0.1:" + port;
            this.key = key;
        }

        /** Nanoseconds from the POST to the poll that finds the job concluido. */
        long export(String body) throws Exception {
            long t0 = System.nanoTime();
            String id = post(body);
            await(id);
            return System.nanoTime() - t0;
        }

        long concurrently(int n, String body) throws Exception {
            try (ExecutorService pool = Executors.newFixedThreadPool(n)) {
                long t0 = System.nanoTime();
                List<Future<?>> all = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    all.add(pool.submit(() -> {
                        await(post(body));
                        return null;
                    }));
                }
                for (Future<?> f : all) {
                    f.get();
                }
                return System.nanoTime() - t0;
            }
        }

        private String post(String body) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/v1/mailing"))
                            .header("Authorization", "Bearer " + key)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher m = JOB_ID.matcher(r.body());
            if (r.statusCode() != 200 || !m.find()) {
                throw new IllegalStateException("POST /v1/mailing answered " + r.statusCode() + " " + r.body());
            }
            return m.group(1);
        }

        private void await(String id) throws IOException, InterruptedException {
            HttpRequest poll = HttpRequest.newBuilder(URI.create(base + "/v1/mailing/" + id))
                    .header("Authorization", "Bearer " + key)
                    .timeout(Duration.ofSeconds(30))
                    .build();
            while (true) {
                HttpResponse<String> r = http.send(poll, HttpResponse.BodyHandlers.ofString());
                Matcher m = STATUS.matcher(r.body());
                if (!m.find()) {
                    throw new IllegalStateException(
                            "GET /v1/mailing/" + id + " answered " + r.statusCode() + " " + r.body());
                }
                switch (m.group(1)) {
                    case "concluido" -> {
                        return;
                    }
                    case "processando" -> Thread.sleep(1);
                    default -> throw new IllegalStateException("job " + id + " ended " + r.body());
                }
            }
        }
    }
}
