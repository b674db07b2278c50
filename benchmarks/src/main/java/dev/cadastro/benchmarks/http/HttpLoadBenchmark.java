package dev.cadastro.benchmarks.http;

import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.http.Response;
import dev.cadastro.http.Router;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.server.AccessLogLines;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.DemoSetup;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.server.Observability;
import dev.cadastro.store.Database;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load test of the whole company-data path through a real socket: clients on virtual threads, each
 * with its own keep-alive connection ({@link RawHttpConnection} by default, or {@code --client jdk} for
 * one shared {@code java.net.http.HttpClient}), against {@link CadastroServer} (JDK HTTP server on virtual threads,
 * {@code CompanyDataApi}, {@code CompanyService}, {@code LuceneRegister}, the PostgreSQL store's
 * admission (key and rate limits in one statement) and ledger on an embedded PostgreSQL), with a fixed number of
 * connections for a fixed time per scenario:
 *
 * <ul>
 *   <li>{@code lookup}: {@code GET /v1/empresas/{cnpj}} with auth, rate limit and a ledger charge;
 *       CNPJs drawn at random from 20,000 indexed ones, keys spread over many accounts, so most
 *       lookups are first lookups of the day (charged 1) and some are repeats (charged 0);
 *   <li>{@code count}: {@code GET /v1/empresas?...&apenas_total=true} (auth, rate limit, count);
 *   <li>{@code page50}: {@code GET /v1/empresas?...&limite=50} (auth, rate limit, search, charge 50);
 *   <li>{@code enrich}: {@code GET /v1/enriquecimento/{cnpj}} ({@code EnrichmentService}): auth, rate
 *       limit, accreditation, the ledger's affordability check, the register's record and partners, the
 *       simulated bureau behind its guard (timeout on a virtual thread, bulkhead, circuit breaker, allowlist
 *       and validation of its answer) and the same-day charge of 5; the bureau answers at once, so what is
 *       measured is our own path. Not in the default list: {@code --scenarios enrich}.
 *   <li>{@code person}: {@code POST /v1/pessoas/consultar} ({@code PersonLookupService}): auth, rate
 *       limit, scope, the key's release, the contracted purpose, the CPF, the affordability check, the
 *       simulated person bureau behind its guard (it answers at once: an instant provider), the
 *       contracted-field cut, then the 15-credit charge and the audit row committed in one transaction.
 *       CPFs drawn from 20,000 the bureau has data on. Not in the default list.
 *   <li>{@code batch100}: {@code POST /v1/pessoas/lote} with 100 such CPFs: 100 bureau calls, then 100
 *       charges and 100 audit rows in one transaction. Not in the default list; read its latency at a
 *       few connections ({@code --connections 1}).
 * </ul>
 *
 * <p>A peer measured first in the same run, {@code floor}, is the same runtime, router and client
 * answering a 40-byte JSON constant with no authentication, no database and no index: the ceiling
 * the HTTP stack itself leaves on this machine, against which the three scenarios are read.
 *
 * <p>The contract's 120 requests per minute per key would cap one key at 2 per second, so the server runs
 * with a per-minute limit of 10 million (the limiter still counts every request in PostgreSQL) and the
 * clients spread over {@code --accounts} accounts, one key each. After the run, each account's ledger
 * balance must equal its top-up minus the {@code creditos_consumidos} its answers reported.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.http.HttpLoadBenchmark
 * [--home DIR] [--connections 64] [--seconds 30] [--warmup 10] [--accounts 64]
 * [--scenarios floor,lookup,count,page50] [--client raw|jdk] [--pool N] [--batch-workers N] [--observe
 * on|off] [--admission-batch true|false] [--admission-queues N]} ({@code --observe on}: metrics and the access
 * log on, as {@code serve --metrics-port} runs; {@code --pool}: the store's connection pool size, {@code
 * --batch-workers}: its group-commit workers, {@code --admission-batch}: admissions in shared commits, {@code
 * --admission-queues}: on how many queues (ADR 0031); by default the store's own defaults, as {@code
 * ./cadastro serve} runs). The first run
 * generates and loads a 200,000-establishment register under {@code benchmarks/data/http}.
 */
public final class HttpLoadBenchmark {
    private static final Pattern CREDITS = Pattern.compile("\"creditos_consumidos\":(\\d+)");
    /** The same field for the raw client, which finds it in the body's bytes from the end. */
    private static final byte[] CREDITS_KEY = "\"creditos_consumidos\":".getBytes(StandardCharsets.US_ASCII);

    private static final String[] UFS = {"SP", "RJ", "MG", "BA", "RS", "PR", "PE", "CE", "SC", "GO"};
    private static final String[] SITUACOES = {"02", "08", "04"};

    private record Options(
            Path home,
            int connections,
            int seconds,
            int warmup,
            int accounts,
            List<String> scenarios,
            boolean raw,
            int pool,
            int batchWorkers,
            boolean observe,
            Optional<Boolean> admissionBatch,
            int admissionQueues) {}

    private record Outcome(
            String scenario,
            long requests,
            long errors,
            double perSecond,
            long p50,
            long p90,
            long p99,
            long max,
            Map<Integer, Long> statuses) {}

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        PrintStream out = System.out;
        DemoSetup data = new DemoSetup(o.home());
        data.ensureIndex(DemoSetup.DEFAULT_ESTABLISHMENTS, out);
        Clock clock = Clock.systemUTC();
        Database.Builder db = Database.builder().embedded(data.database());
        if (o.pool() > 0) {
            db.poolSize(o.pool());
        }
        if (o.batchWorkers() >= 0) {
            db.groupCommitWorkers(o.batchWorkers());
        }
        o.admissionBatch().ifPresent(db::admissionGroupCommit);
        if (o.admissionQueues() > 0) {
            db.admissionQueues(o.admissionQueues());
        }
        Database database = db.build();
        RuntimeOptions runtime = RuntimeOptions.defaults(); // as ./cadastro serve runs
        Observability observability = Observability.off();
        if (o.observe()) {
            // As serve --metrics-port runs: metrics on a loopback management listener, scraped every 5 s
            // below, and the access log's lines written and flushed one by one (to a file here, where
            // serve writes standard output).
            Path log = o.home().resolve("access.log");
            AccessLogLines.to(java.nio.file.Files.newOutputStream(log));
            observability = observability
                    .withMetrics(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .withAccessLog(true);
            out.println("observe: metrics on a loopback port, scraped every 5 s; access log in " + log);
        }
        try (CadastroServer server = CadastroServer.start(
                EngineConfig.builder(data.index(), database)
                        .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                        .runtime(runtime)
                        .requestsPerMinute(OptionalLong.of(10_000_000))
                        .clock(clock)
                        .build(),
                null,
                observability)) {
            Thread scraper = server.metricsAddress()
                    .map(m -> Thread.ofVirtual().name("scraper").start(() -> scrapeEvery5s(m.getPort())))
                    .orElse(null);
            List<LoadClient> clients = clients(server, clock, o.accounts());
            List<String> cnpjs = cnpjs(server);
            if (o.scenarios().contains("person") || o.scenarios().contains("batch100")) {
                PERSON_CPFS.addAll(personCpfs());
            }
            int port = server.port();
            JettyRuntime floorServer = JettyRuntime.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    Router.builder(Service.COMPANY_DATA)
                            .get("/v1/floor", r -> Response.json(200, FLOOR_BODY))
                            .build(),
                    Service.COMPANY_DATA,
                    runtime);
            int floorPort = floorServer.port();
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .executor(Executors.newVirtualThreadPerTaskExecutor())
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            out.printf(
                    "HTTP load: pool %d, %d group-commit worker(s), admission batch %s on %d queue(s), %s client, %d connections, %d s per scenario after %d s warm-up, %d accounts, %d CPUs,"
                            + " JDK %s%n",
                    database.poolSize(),
                    database.groupCommitWorkers(),
                    database.admissionGroupCommit(),
                    database.admissionQueues(),
                    o.raw() ? "raw-socket" : "java.net.http",
                    o.connections(),
                    o.seconds(),
                    o.warmup(),
                    clients.size(),
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version());
            Map<LoadClient, LongAdder> charged = LoadClient.counters(clients);
            List<Outcome> outcomes = new ArrayList<>();
            for (String scenario : o.scenarios()) {
                int target = scenario.equals("floor") ? floorPort : port;
                HttpClient client = o.raw() ? null : http;
                run(client, target, scenario, clients, cnpjs, charged, o.connections(), o.warmup(), false);
                outcomes.add(
                        run(client, target, scenario, clients, cnpjs, charged, o.connections(), o.seconds(), true));
            }
            floorServer.close();
            out.println();
            out.println("| scenario | requests | errors | req/s | p50 ms | p90 ms | p99 ms | max ms | statuses |");
            out.println("|---|---:|---:|---:|---:|---:|---:|---:|---|");
            for (Outcome r : outcomes) {
                out.printf(
                        "| %s | %d | %d | %.0f | %.2f | %.2f | %.2f | %.1f | %s |%n",
                        r.scenario(),
                        r.requests(),
                        r.errors(),
                        r.perSecond(),
                        r.p50() / 1000.0,
                        r.p90() / 1000.0,
                        r.p99() / 1000.0,
                        r.max() / 1000.0,
                        r.statuses());
            }
            LedgerCrossCheck check = LedgerCrossCheck.of(
                    server.store().ledger(), CreditKind.CREDITS, INITIAL_CREDITS, clients, charged, out);
            out.printf(
                    "ledger: %d accounts, %d credits charged as the answers reported, %d mismatches%n",
                    clients.size(), check.charged(), check.mismatches());
            // Fails the run when an account differs, the server closed first (try-with-resources).
            check.failOnMismatch("balances differ from what their answers reported");
            if (scraper != null) {
                scraper.interrupt();
                out.printf("observe: %d scrapes, the last %d bytes%n", SCRAPES.sum(), LAST_SCRAPE_BYTES.get());
            }
        }
    }

    private static final LongAdder SCRAPES = new LongAdder();
    private static final AtomicLong LAST_SCRAPE_BYTES = new AtomicLong();

    /** What a Prometheus server does: GET /metrics every few seconds. */
    private static void scrapeEvery5s(int port) {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .build();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(5_000);
                HttpResponse<byte[]> r = client.send(get, HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() == 200) {
                    SCRAPES.increment();
                    LAST_SCRAPE_BYTES.set(r.body().length);
                }
            } catch (InterruptedException e) {
                return;
            } catch (java.io.IOException e) {
                // The server is stopping.
            }
        }
    }

    private static final long INITIAL_CREDITS = 1_000_000_000L;
    private static final byte[] FLOOR_BODY =
            "{\"creditos_consumidos\":0,\"floor\":\"constant\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private static Outcome run(
            HttpClient http,
            int port,
            String scenario,
            List<LoadClient> clients,
            List<String> cnpjs,
            Map<LoadClient, LongAdder> charged,
            int connections,
            int seconds,
            boolean measure)
            throws InterruptedException {
        AtomicLong seedSource = new AtomicLong(42);
        // The person answers give their total first (a batch's items carry their own); the others last.
        boolean totalFirst = scenario.equals("person") || scenario.equals("batch100");
        Scenario s = new Scenario(http, port, scenario, clients, cnpjs, charged, totalFirst);
        ClosedLoop.Result result = ClosedLoop.run(
                connections,
                seconds,
                id -> new ApiClient(s, new SplittableRandom(seedSource.incrementAndGet() * 7919 + id)));
        long[] all = result.sorted();
        int total = all.length;
        Map<Integer, Long> statusCounts = new java.util.TreeMap<>();
        result.statuses().forEach((k, v) -> statusCounts.put(k, v.sum()));
        Outcome outcome = new Outcome(
                scenario + (measure ? "" : " (warm-up)"),
                total,
                result.errors(),
                total / (double) seconds,
                Latencies.percentile(all, 0.50),
                Latencies.percentile(all, 0.90),
                Latencies.percentile(all, 0.99),
                all.length == 0 ? 0 : all[all.length - 1],
                statusCounts);
        System.out.printf(
                "%-18s %8d requests %6.0f req/s p50 %.2f ms p99 %.2f ms errors %d %s%n",
                outcome.scenario(),
                outcome.requests(),
                outcome.perSecond(),
                outcome.p50() / 1000.0,
                outcome.p99() / 1000.0,
                outcome.errors(),
                outcome.statuses());
        return outcome;
    }

    /**
     * What every client of one scenario's run shares.
     *
     * @param http the JDK client, or null for raw connections
     * @param totalFirst whether the answers give their creditos_consumidos total first
     */
    private record Scenario(
            HttpClient http,
            int port,
            String name,
            List<LoadClient> clients,
            List<String> cnpjs,
            Map<LoadClient, LongAdder> charged,
            boolean totalFirst) {}

    /** A request chosen: whose key it sends, its path, its JSON body (null: a GET). */
    private record Request(LoadClient client, String path, String json) {}

    /** One client: a random account's key, a random request of the scenario, raw or through the JDK client. */
    private static final class ApiClient implements ClosedLoop.Client {
        private final Scenario s;
        private final SplittableRandom random;
        private final RawHttpConnection raw;
        private Request next;
        private long credits;

        ApiClient(Scenario s, SplittableRandom random) {
            this.s = s;
            this.random = random;
            this.raw = s.http() == null ? new RawHttpConnection(s.port()) : null;
        }

        @Override
        public void next() {
            next = new Request(
                    s.clients().get(random.nextInt(s.clients().size())),
                    path(s.name(), random, s.cnpjs()),
                    body(s.name(), random));
        }

        @Override
        public int send() throws java.io.IOException, InterruptedException {
            credits = -1;
            String path = next.path();
            String json = next.json();
            String auth = "Bearer " + next.client().key();
            if (raw != null) {
                RawHttpConnection.Answer a = json == null ? raw.get(path, auth) : raw.post(path, auth, json);
                credits = s.totalFirst() ? a.numberAfterFirst(CREDITS_KEY) : a.numberAfterLast(CREDITS_KEY);
                return a.status();
            }
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                    .header("Authorization", auth)
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .method(
                            json == null ? "GET" : "POST",
                            json == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(json))
                    .build();
            HttpResponse<String> r = s.http().send(request, HttpResponse.BodyHandlers.ofString());
            Matcher m = CREDITS.matcher(r.body());
            credits = m.find() ? Long.parseLong(m.group(1)) : -1;
            return r.statusCode();
        }

        @Override
        public boolean failed(int status) {
            if (status != 200 || credits < 0) {
                return true;
            }
            s.charged().get(next.client()).add(credits);
            return false;
        }

        @Override
        public void close() {
            if (raw != null) {
                raw.close();
            }
        }
    }

    private static String path(String scenario, SplittableRandom random, List<String> cnpjs) {
        return switch (scenario) {
            case "floor" -> "/v1/floor";
            case "lookup" -> "/v1/empresas/" + cnpjs.get(random.nextInt(cnpjs.size()));
            case "count" -> "/v1/empresas?" + filters(random) + "&apenas_total=true";
            case "page50" -> "/v1/empresas?" + filters(random) + "&limite=50&pagina=" + (1 + random.nextInt(3));
            case "enrich" -> "/v1/enriquecimento/" + cnpjs.get(random.nextInt(cnpjs.size()));
            case "person" -> "/v1/pessoas/consultar";
            case "batch100" -> "/v1/pessoas/lote";
            default -> throw new IllegalArgumentException(scenario);
        };
    }

    /** CPFs the simulated person bureau has data on under KYC_CADASTRO. */
    private static final List<String> PERSON_CPFS = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static List<String> personCpfs() {
        List<String> cpfs = new ArrayList<>();
        SplittableRandom r = new SplittableRandom(11);
        while (cpfs.size() < 20_000) {
            dev.cadastro.core.document.Cpf cpf = dev.cadastro.core.document.Cpf.withCheckDigits(
                    String.format("%09d", 100_000_000 + r.nextInt(800_000_000)));
            if (!dev.cadastro.providers.SimulatedPersonBureau.hasNothingOn(
                    cpf, dev.cadastro.core.account.Purpose.KYC_CADASTRO)) {
                cpfs.add(cpf.digits());
            }
        }
        return cpfs;
    }

    /** The JSON body of a POST scenario; null for a GET. */
    private static String body(String scenario, SplittableRandom random) {
        return switch (scenario) {
            case "person" ->
                "{\"cpf\":\"" + PERSON_CPFS.get(random.nextInt(PERSON_CPFS.size()))
                        + "\",\"finalidade\":\"KYC_CADASTRO\",\"justificativa\":\"Abertura de conta do cliente\"}";
            case "batch100" -> {
                StringBuilder b = new StringBuilder("{\"finalidade\":\"KYC_CADASTRO\",\"cpfs\":[");
                for (int i = 0; i < 100; i++) {
                    b.append(i == 0 ? "\"" : ",\"")
                            .append(PERSON_CPFS.get(random.nextInt(PERSON_CPFS.size())))
                            .append('"');
                }
                yield b.append("]}").toString();
            }
            default -> null;
        };
    }

    /** One to three filters: states, a status, a year range of opening dates. */
    private static String filters(SplittableRandom random) {
        StringBuilder q = new StringBuilder("ufs=").append(UFS[random.nextInt(UFS.length)]);
        if (random.nextBoolean()) {
            q.append("&ufs=").append(UFS[random.nextInt(UFS.length)]);
        }
        if (random.nextBoolean()) {
            q.append("&situacao_cadastral=").append(SITUACOES[random.nextInt(SITUACOES.length)]);
        }
        if (random.nextInt(3) == 0) {
            int year = 1990 + random.nextInt(30);
            q.append("&abertura_de=").append(LocalDate.of(year, 1, 1));
        }
        return q.toString();
    }

    /** The run's clients, each on an approved account that contracted KYC_CADASTRO, its key released for person lookup. */
    private static List<LoadClient> clients(CadastroServer server, Clock clock, int accounts) {
        List<LoadClient> clients = LoadClient.create(
                server.store(),
                clock,
                accounts,
                "bench",
                CreditKind.CREDITS,
                INITIAL_CREDITS,
                EnumSet.of(Scope.EMPRESAS_READ, Scope.ENRIQUECIMENTO_READ, Scope.PESSOAS_READ));
        for (LoadClient c : clients) {
            server.store().accounts().setAccreditation(c.account().id(), AccreditationStatus.APPROVED);
            server.store()
                    .accounts()
                    .contractPurpose(
                            c.account().id(),
                            dev.cadastro.core.account.Purpose.KYC_CADASTRO,
                            DemoSetup.DEMO_PURPOSES.get(dev.cadastro.core.account.Purpose.KYC_CADASTRO));
            server.store().apiKeys().setPersonLookupReleased(c.issued().key().prefix(), true);
        }
        return clients;
    }

    private static List<String> cnpjs(CadastroServer server) {
        List<String> cnpjs = new ArrayList<>();
        for (String uf : UFS) {
            for (int page = 1; page <= 10 && cnpjs.size() < 20_000; page++) {
                for (Empresa e : server.register()
                        .search(RegisterQuery.builder()
                                .ufs(uf)
                                .limite(200)
                                .pagina(page)
                                .build())
                        .dados()) {
                    cnpjs.add(e.cnpj());
                }
            }
        }
        return cnpjs;
    }

    private static Options parse(String[] args) {
        LoadRun load = LoadRun.parse(
                args,
                Path.of("benchmarks", "data", "http"),
                30,
                10,
                List.of(
                        "--accounts",
                        "--scenarios",
                        "--client",
                        "--pool",
                        "--batch-workers",
                        "--observe",
                        "--admission-batch",
                        "--admission-queues"));
        String client = load.text("--client", "raw");
        if (!client.equals("raw") && !client.equals("jdk")) {
            throw new IllegalArgumentException("--client " + client + ": raw or jdk");
        }
        // Metrics and the access log, as ./cadastro serve --metrics-port runs.
        String observe = load.text("--observe", "off");
        if (!observe.equals("on") && !observe.equals("off")) {
            throw new IllegalArgumentException("--observe " + observe + ": on or off");
        }
        // The store's pool, group-commit workers and admission batching: by default its own, as
        // ./cadastro serve runs.
        return new Options(
                load.home(),
                load.connections(),
                load.seconds(),
                load.warmup(),
                load.integer("--accounts", 64),
                List.of(load.text("--scenarios", "floor,lookup,count,page50").split(",")),
                client.equals("raw"),
                load.integer("--pool", 0),
                load.integer("--batch-workers", -1),
                observe.equals("on"),
                load.given().containsKey("--admission-batch")
                        ? Optional.of(load.bool("--admission-batch", false))
                        : Optional.empty(),
                load.integer("--admission-queues", 0));
    }
}
