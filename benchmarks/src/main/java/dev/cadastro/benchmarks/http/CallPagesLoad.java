package dev.cadastro.benchmarks.http;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.CallRecordsOptions;
import dev.cadastro.server.DemoSetup;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load test of {@code GET /v1/ligacoes} pages through a real socket: {@code --connections} clients
 * (virtual threads, each with its own keep-alive {@link RawHttpConnection}) against the call-records
 * listener of {@link CadastroServer}: the bearer token's lookup ({@code PgCallTokens.authenticate}), the
 * cursor's HMAC check ({@code CallCursors}), the keyset page on the {@code calls_list} index ({@code
 * PgCallStore.page}, 51 rows for a page of 50), a permanent signed link per call ({@code
 * RecordingLinks}) and the JSON ({@code CallJson}), on an embedded PostgreSQL.
 *
 * <p>{@code --calls} ready calls (200,000 by default) are ingested first into one integration, in the
 * last 7 days, with many sharing a second. Scenarios, each for {@code --seconds} after a warm-up:
 *
 * <ul>
 *   <li>{@code first}: the first page of 50, over and over;
 *   <li>{@code deep}: a page of 50 from a cursor drawn among those of the last tenth of the walk (the
 *       10,000th page of 2 million calls is such a page): the keyset must make it cost what the first
 *       costs;
 *   <li>{@code walk}: each client follows {@code proximo_cursor} to the end, then starts again.
 * </ul>
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.http.CallPagesLoad
 * [--home DIR] [--connections 64] [--seconds 20] [--warmup 5] [--calls 200000]
 * [--scenarios first,deep,walk]}. The register index of {@link HttpLoadBenchmark}'s home is reused
 * (the server needs one); the calls are added to its database on every run, under a new integration.
 */
public final class CallPagesLoad {
    private static final Pattern CURSOR = Pattern.compile("\"proximo_cursor\":\"([A-Za-z0-9_-]+)\"");

    private record Outcome(String scenario, long requests, long errors, double perSecond, long[] sorted) {}

    public static void main(String[] args) throws Exception {
        LoadRun load =
                LoadRun.parse(args, Path.of("benchmarks", "data", "http"), 20, 5, List.of("--calls", "--scenarios"));
        int calls = load.integer("--calls", 200_000);
        List<String> scenarios =
                List.of(load.text("--scenarios", "first,deep,walk").split(","));
        PrintStream out = System.out;
        DemoSetup data = new DemoSetup(load.home());
        data.ensureIndex(DemoSetup.DEFAULT_ESTABLISHMENTS, out);
        Clock clock = Clock.systemUTC();
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (CadastroServer server = CadastroServer.start(
                EngineConfig.builder(data.index(), Database.embedded(data.database()))
                        .address(loopback)
                        .runtime(RuntimeOptions.defaults())
                        .requestsPerMinute(OptionalLong.empty())
                        .clock(clock)
                        .build(),
                CallRecordsOptions.of(loopback, loopback))) {
            CallTokens.Issued issued = server.store()
                    .callTokens()
                    .create("bench-" + UUID.randomUUID().toString().substring(0, 8));
            long t0 = System.nanoTime();
            seed(server, issued.integration().id(), calls, clock.instant());
            out.printf("ingested %,d ready calls in %.1f s%n", calls, (System.nanoTime() - t0) / 1e9);
            int port = server.calls().orElseThrow().port();
            String auth = "Bearer " + issued.token();
            List<String> deep = deepCursors(port, auth);
            out.printf(
                    "call pages: %d connections, %d s per scenario after %d s warm-up, %d CPUs, JDK %s; %d deep cursors%n",
                    load.connections(),
                    load.seconds(),
                    load.warmup(),
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version(),
                    deep.size());
            List<Outcome> outcomes = new ArrayList<>();
            for (String scenario : scenarios) {
                run(port, auth, scenario, deep, load.connections(), load.warmup());
                outcomes.add(run(port, auth, scenario, deep, load.connections(), load.seconds()));
            }
            out.println();
            out.println("| scenario | requests | errors | pages/s | p50 ms | p90 ms | p99 ms | max ms |");
            out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
            for (Outcome o : outcomes) {
                out.printf(
                        "| %s | %d | %d | %.0f | %.2f | %.2f | %.2f | %.1f |%n",
                        o.scenario(),
                        o.requests(),
                        o.errors(),
                        o.perSecond(),
                        Latencies.percentile(o.sorted(), 0.50) / 1000.0,
                        Latencies.percentile(o.sorted(), 0.90) / 1000.0,
                        Latencies.percentile(o.sorted(), 0.99) / 1000.0,
                        o.sorted().length == 0 ? 0 : o.sorted()[o.sorted().length - 1] / 1000.0);
            }
        }
    }

    /** Ready calls spread over the last 6 days, ten sharing each second, in batches of 1,000. */
    private static void seed(CadastroServer server, long integration, int count, Instant now) {
        SplittableRandom random = new SplittableRandom(7);
        Instant start = now.minus(Duration.ofDays(6));
        long span = Duration.ofDays(6).toSeconds();
        List<CallRecord> batch = new ArrayList<>(1_000);
        for (int i = 0; i < count; i++) {
            Instant at =
                    start.plusSeconds(span * (i / 10) / Math.max(1, count / 10)).plusNanos(random.nextInt(3) * 1_000L);
            String id = "B" + Integer.toString(i, 36);
            String queue = "fila" + (i % 7);
            batch.add(new CallRecord(
                    integration,
                    id,
                    id,
                    Integer.toString(1000 + i % 40),
                    "agente" + (i % 40),
                    "Agente " + (i % 40),
                    queue,
                    queue.equals("fila0") ? null : "R" + (i % 5),
                    "Resultado " + (i % 5),
                    at,
                    at.minusSeconds(200),
                    180,
                    at.plusSeconds(60),
                    "calls/" + integration + "/" + id + ".wav"));
            if (batch.size() == 1_000) {
                server.store().calls().ingest(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            server.store().calls().ingest(batch);
        }
    }

    /** Walks the whole list once and keeps the cursors of its last tenth. */
    private static List<String> deepCursors(int port, String auth) throws IOException {
        List<String> all = new ArrayList<>();
        RawHttpConnection c = new RawHttpConnection(port);
        String cursor = null;
        do {
            RawHttpConnection.Answer a =
                    c.get("/v1/ligacoes?limite=50" + (cursor == null ? "" : "&cursor=" + cursor), auth);
            if (a.status() != 200) {
                throw new IllegalStateException("walk answered " + a.status() + ": " + a.body());
            }
            Matcher m = CURSOR.matcher(a.body());
            cursor = m.find() ? m.group(1) : null;
            if (cursor != null) {
                all.add(cursor);
            }
        } while (cursor != null);
        c.close();
        return all.subList(all.size() - Math.max(1, all.size() / 10), all.size());
    }

    private static Outcome run(int port, String auth, String scenario, List<String> deep, int connections, int seconds)
            throws InterruptedException {
        ClosedLoop.Result r =
                ClosedLoop.run(connections, seconds, id -> new PageClient(port, auth, scenario, deep, id));
        long[] all = r.sorted();
        int total = all.length;
        Outcome o = new Outcome(scenario, total, r.errors(), total / (double) seconds, all);
        System.out.printf(
                "%-6s %8d requests %6.0f pages/s p50 %.2f ms p99 %.2f ms errors %d %s%n",
                scenario,
                total,
                o.perSecond(),
                Latencies.percentile(all, 0.50) / 1000.0,
                Latencies.percentile(all, 0.99) / 1000.0,
                o.errors(),
                r.statuses());
        return o;
    }

    /** One client of a scenario: the first page, a deep page, or the walk along proximo_cursor. */
    private static final class PageClient implements ClosedLoop.Client {
        private final String auth;
        private final String scenario;
        private final List<String> deep;
        private final SplittableRandom random;
        private final RawHttpConnection raw;
        private String cursor;
        private String path;
        private String body;

        PageClient(int port, String auth, String scenario, List<String> deep, int id) {
            this.auth = auth;
            this.scenario = scenario;
            this.deep = deep;
            this.random = new SplittableRandom(31L * id + 1);
            this.raw = new RawHttpConnection(port);
        }

        @Override
        public void next() {
            path = switch (scenario) {
                case "first" -> "/v1/ligacoes?limite=50";
                case "deep" -> "/v1/ligacoes?limite=50&cursor=" + deep.get(random.nextInt(deep.size()));
                case "walk" -> "/v1/ligacoes?limite=50" + (cursor == null ? "" : "&cursor=" + cursor);
                default -> throw new IllegalArgumentException("scenario " + scenario);
            };
        }

        @Override
        public int send() throws IOException {
            body = "";
            RawHttpConnection.Answer a = raw.get(path, auth);
            body = a.body();
            return a.status();
        }

        @Override
        public boolean failed(int status) {
            if (status != 200) {
                return true;
            }
            if (scenario.equals("walk")) {
                Matcher m = CURSOR.matcher(body);
                cursor = m.find() ? m.group(1) : null;
            }
            return false;
        }

        @Override
        public void close() {
            raw.close();
        }
    }
}
