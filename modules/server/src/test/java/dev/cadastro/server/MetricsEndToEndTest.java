package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.http.AccessLog;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.providers.Fault;
import dev.cadastro.providers.FaultPlan;
import dev.cadastro.providers.ProviderPolicy;
import dev.cadastro.providers.SmsInbox;
import dev.cadastro.store.Database;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Metrics and the access log end to end, on a server of its own started with both (its own embedded
 * PostgreSQL, the call-records listeners, a bureau whose circuit opens after two failures): the
 * management listener's scrape is parsed, and moves with the requests made through real sockets; the
 * access log is captured with a {@code java.util.logging} handler on {@link AccessLog#LOGGER} (the
 * default backend of {@code System.Logger}); and after requests carrying CPFs, phones, API keys, call
 * tokens, OTP codes and CNPJs in paths, query strings, headers and bodies, neither the whole scrape nor
 * any access line contains any of them.
 */
class MetricsEndToEndTest {
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern CODE = Pattern.compile("e ([0-9]{4,8})\\.");
    private static final String DURATION = "cadastro_http_request_duration_seconds";

    private static final ConcurrentLinkedQueue<String> accessLines = new ConcurrentLinkedQueue<>();
    private static final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            accessLines.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private static final Logger ACCESS = Logger.getLogger(AccessLog.LOGGER);
    private static final FaultPlan bureauFaults = FaultPlan.none();

    private static CadastroServer server;
    private static Path home;
    private static ApiKeyIssuer issuer;
    private static SmsInbox inbox;
    private static String cnpj;

    @BeforeAll
    static void start() throws Exception {
        ACCESS.setLevel(Level.INFO);
        ACCESS.setUseParentHandlers(false);
        ACCESS.addHandler(capture);
        Path dir = Files.createTempDirectory(Path.of("target"), "metrics-");
        home = dir;
        Path index = dir.resolve("index");
        DumpGenerator.generate(
                dir.resolve("dump"),
                GeneratorOptions.builder(300).seed(11).threads(1).build());
        LoadOptions load = LoadOptions.builder(dir.resolve("dump")).build();
        DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, 300));
        InetSocketAddress free = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        SmsOptions sms = SmsOptions.under(dir).withReceiptDelay(Duration.ofMillis(50));
        ProviderPolicy tripping = ProviderPolicy.defaults().toBuilder()
                .timeout(Duration.ofSeconds(2))
                .slidingWindowSize(2)
                .minimumCalls(2)
                .failureRateThreshold(100)
                .waitInOpenState(Duration.ofHours(1))
                .permittedCallsInHalfOpen(1)
                .build();
        server = CadastroServer.start(
                EngineConfig.builder(
                                index,
                                Database.builder()
                                        .embedded(dir.resolve("db"))
                                        .durableCommits(false)
                                        .build())
                        .address(free)
                        .runtime(RuntimeOptions.defaults())
                        .requestsPerMinute(OptionalLong.of(10_000))
                        .clock(Clock.systemUTC())
                        .providers(ProviderOptions.simulated()
                                .withFaults(bureauFaults, FaultPlan.none())
                                .withPolicy(tripping))
                        .sms(sms)
                        .build(),
                CallRecordsOptions.of(free, free),
                Observability.off().withMetrics(free).withAccessLog(true));
        issuer = new ApiKeyIssuer(
                server.store().accounts(), server.store().apiKeys(), Clock.systemUTC(), new SecureRandom());
        inbox = SmsInbox.at(sms.inbox());
        List<Empresa> page = server.register()
                .search(RegisterQuery.builder()
                        .situacaoCadastral("02")
                        .limite(5)
                        .build())
                .dados();
        cnpj = page.get(0).cnpj();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        ACCESS.removeHandler(capture);
        ACCESS.setUseParentHandlers(true);
        ACCESS.setLevel(null);
    }

    // ---- helpers ----

    private static Account account(long credits, long dailyLimit) {
        Account a = server.store().accounts().create("metrics " + UUID.randomUUID(), new Plan("e2e", dailyLimit));
        server.store().accounts().setAccreditation(a.id(), AccreditationStatus.APPROVED);
        for (Purpose p : Purpose.values()) {
            server.store().accounts().contractPurpose(a.id(), p, Set.of("nome", "telefones"));
        }
        for (CreditKind kind : CreditKind.values()) {
            server.store()
                    .ledger()
                    .topUp(a.id(), kind, credits, IdempotencyKey.of("metrics:" + UUID.randomUUID()), "e2e");
        }
        return server.store().accounts().find(a.id()).orElseThrow();
    }

    private static String key(Account a, Scope first, Scope... more) {
        var issued = issuer.issue(a.id(), "metrics", EnumSet.of(first, more));
        server.store().apiKeys().setPersonLookupReleased(issued.key().prefix(), true);
        return issued.secret();
    }

    private static HttpResponse<String> send(int port, String method, String target, String body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + target))
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> get(String target, String... headers) throws Exception {
        return send(server.port(), "GET", target, null, headers);
    }

    private static HttpResponse<String> post(String target, String body, String... headers) throws Exception {
        return send(server.port(), "POST", target, body, headers);
    }

    private static String bearer(String key) {
        return "Bearer " + key;
    }

    private static String scrapeText() throws Exception {
        InetSocketAddress m = server.metricsAddress().orElseThrow();
        HttpResponse<String> r = send(m.getPort(), "GET", "/metrics", null);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers() + "");
        return r.body();
    }

    /** Every sample of the scrape, keyed by its name and its labels in name order. */
    private static Map<String, Double> scrape() throws Exception {
        Map<String, Double> samples = new TreeMap<>();
        for (String line : scrapeText().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertTrue(m.matches(), "not a sample line of the text format: " + line);
            samples.put(key(m.group(1), labels(m.group(3))), Double.parseDouble(m.group(4)));
        }
        return samples;
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new TreeMap<>();
        if (text != null) {
            Matcher l = LABEL.matcher(text);
            while (l.find()) {
                labels.put(l.group(1), l.group(2));
            }
        }
        return labels;
    }

    private static String key(String name, Map<String, String> labels) {
        return name + new TreeMap<>(labels);
    }

    private static String key(String name, String... labelPairs) {
        Map<String, String> labels = new TreeMap<>();
        for (int i = 0; i < labelPairs.length; i += 2) {
            labels.put(labelPairs[i], labelPairs[i + 1]);
        }
        return key(name, labels);
    }

    private static double value(Map<String, Double> samples, String name, String... labelPairs) {
        return samples.getOrDefault(key(name, labelPairs), 0.0);
    }

    private static String[] lookupLabels(String status) {
        return new String[] {
            "service", "company-data", "method", "GET", "route", "/v1/empresas/{cnpj}", "status", status
        };
    }

    // ---- tests ----

    @Test
    void requestCountsAndLatencyHistogramsMoveWithRequestsPerRouteTemplateAndStatus() throws Exception {
        Account a = account(100, 1_000_000);
        String key = key(a, Scope.EMPRESAS_READ);
        Map<String, Double> before = scrape();
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    200,
                    get("/v1/empresas/" + cnpj, "Authorization", bearer(key)).statusCode());
        }
        assertEquals(401, get("/v1/empresas/" + cnpj).statusCode());
        assertEquals(404, get("/nada/aqui").statusCode());
        Map<String, Double> after = scrape();

        assertEquals(
                3,
                value(after, DURATION + "_count", lookupLabels("200"))
                        - value(before, DURATION + "_count", lookupLabels("200")));
        assertEquals(
                1,
                value(after, DURATION + "_count", lookupLabels("401"))
                        - value(before, DURATION + "_count", lookupLabels("401")));
        assertEquals(
                1,
                value(
                                after,
                                DURATION + "_count",
                                "service",
                                "company-data",
                                "method",
                                "GET",
                                "route",
                                "sem_rota",
                                "status",
                                "404")
                        - value(
                                before,
                                DURATION + "_count",
                                "service",
                                "company-data",
                                "method",
                                "GET",
                                "route",
                                "sem_rota",
                                "status",
                                "404"));
        // The histogram: cumulative buckets ending in +Inf equal to the count, and a positive sum.
        String[] ok = lookupLabels("200");
        String[] inf = java.util.Arrays.copyOf(ok, ok.length + 2);
        inf[ok.length] = "le";
        inf[ok.length + 1] = "+Inf";
        assertEquals(value(after, DURATION + "_count", ok), value(after, DURATION + "_bucket", inf));
        assertTrue(value(after, DURATION + "_sum", ok) > 0, "latency summed");
        long buckets = after.keySet().stream()
                .filter(k -> k.startsWith(DURATION + "_bucket{") && k.contains("route=/v1/empresas/{cnpj}"))
                .filter(k -> k.contains("status=200"))
                .count();
        assertTrue(buckets > 10, "one series per bucket bound: " + buckets);
        // The register and the queues are read when scraped.
        assertEquals(
                server.register().published().documents(), value(after, "cadastro_register_documents"), "documents");
        assertTrue(after.containsKey(key("cadastro_queue_depth", "queue", "mailing")), after.keySet() + "");
        assertTrue(after.containsKey(key("cadastro_queue_depth", "queue", "push")));
        assertTrue(after.containsKey(key("cadastro_queue_oldest_age_seconds", "queue", "person_jobs")));
    }

    @Test
    void theCallIngestLagIsTheTimeSinceTheLeastRecentCheckpoint() throws Exception {
        String source = "metrics-" + java.util.UUID.randomUUID();
        java.time.Instant anHourAgo = java.time.Instant.now().minus(java.time.Duration.ofHours(1));
        server.store()
                .ingestCheckpoints()
                .claim(source, "metrics-test", java.time.Instant.now(), java.time.Duration.ofSeconds(1), anHourAgo);
        // The gauges are read at most once a second: scrape until a read after the claim shows it.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        double lag;
        do {
            Thread.sleep(100);
            lag = value(scrape(), "cadastro_queue_oldest_age_seconds", "queue", "call_ingest");
        } while (lag < 3_600 && System.nanoTime() < deadline);
        assertTrue(lag >= 3_600, "a checkpoint an hour old is an hour of lag: " + lag);
        assertTrue(value(scrape(), "cadastro_queue_depth", "queue", "call_ingest") >= 1, "the source counted");
    }

    @Test
    void creditsPerOperationAndLedgerEntriesMoveAfterAPaidCall() throws Exception {
        Account a = account(100, 1_000_000);
        String key = key(a, Scope.EMPRESAS_READ);
        Map<String, Double> before = scrape();
        assertEquals(200, get("/v1/empresas/" + cnpj, "X-API-Key", key).statusCode());
        // The same CNPJ again today is free: no credit, no entry.
        assertEquals(200, get("/v1/empresas/" + cnpj, "X-API-Key", key).statusCode());
        HttpResponse<String> search = get("/v1/empresas?situacao_cadastral=02&limite=2", "X-API-Key", key);
        assertEquals(200, search.statusCode(), search.body());
        long searchCredits =
                ServerFixture.json(search).get("creditos_consumidos").asLong();
        assertTrue(searchCredits > 0, search.body());
        Map<String, Double> after = scrape();
        String credits = "cadastro_credits_charged_total";
        assertEquals(
                1,
                value(after, credits, "operation", "lookup", "kind", "CREDITS")
                        - value(before, credits, "operation", "lookup", "kind", "CREDITS"));
        assertEquals(
                searchCredits,
                value(after, credits, "operation", "search", "kind", "CREDITS")
                        - value(before, credits, "operation", "search", "kind", "CREDITS"));
        assertEquals(
                2,
                value(after, "cadastro_ledger_entries_total", "type", "CHARGE")
                        - value(before, "cadastro_ledger_entries_total", "type", "CHARGE"));
    }

    @Test
    void personLookupsAndAnSmsSendMoveCreditsAndLedgerEntries() throws Exception {
        Account a = account(1_000, 1_000_000);
        String key = key(a, Scope.PESSOAS_READ, Scope.SMS_OTP);
        Cpf cpf = PersonStack.withData(3);
        Map<String, Double> before = scrape();
        long personCredits = 0;
        for (String justification : List.of("cadastro de cliente novo", "revisao cadastral anual")) {
            HttpResponse<String> r = post(
                    "/v1/pessoas/consultar",
                    PersonStack.body("cpf", cpf.digits(), "KYC_CADASTRO", justification),
                    "Authorization",
                    bearer(key));
            assertEquals(200, r.statusCode(), r.body());
            personCredits += ServerFixture.json(r).get("creditos_consumidos").asLong();
        }
        assertTrue(personCredits > 0, "the lookups were charged");
        HttpResponse<String> sent =
                post("/v1/sms/otp", "{\"telefone\": \"11987654321\", \"digitos\": 6}", "Authorization", bearer(key));
        assertEquals(200, sent.statusCode(), sent.body());
        Map<String, Double> after = scrape();
        String credits = "cadastro_credits_charged_total";
        String entries = "cadastro_ledger_entries_total";
        long charges = personCredits / CostRules.PERSON_LOOKUP;
        assertEquals(
                personCredits,
                value(after, credits, "operation", "person", "kind", "CREDITS")
                        - value(before, credits, "operation", "person", "kind", "CREDITS"));
        assertEquals(charges, value(after, entries, "type", "CHARGE") - value(before, entries, "type", "CHARGE"));
        assertEquals(
                1,
                value(after, credits, "operation", "sms", "kind", "SMS_CREDITS")
                        - value(before, credits, "operation", "sms", "kind", "SMS_CREDITS"));
        assertEquals(1, value(after, entries, "type", "HOLD_POST") - value(before, entries, "type", "HOLD_POST"));
    }

    @Test
    void requestsTheRuntimeRefusesBeforeTheHandlerAreCountedAndLogged() throws Exception {
        Map<String, Double> before = scrape();
        HttpResponse<String> tooLong = get("/v1/empresas/" + "1".repeat(20_000));
        assertEquals(414, tooLong.statusCode(), tooLong.body());
        String id = tooLong.headers().firstValue("X-Request-Id").orElseThrow();
        Map<String, Double> after = scrape();
        String[] labels = {"service", "company-data", "method", "GET", "route", "sem_rota", "status", "414"};
        assertEquals(1, value(after, DURATION + "_count", labels) - value(before, DURATION + "_count", labels));
        assertTrue(
                accessLines.stream()
                        .anyMatch(
                                l -> l.contains("route=sem_rota status=414 ") && l.contains(" request_id=" + id + " ")),
                accessLines.toString());
    }

    @Test
    void aRateLimitRefusalIsCountedAndLogged() throws Exception {
        Account a = account(100, 1);
        String key = key(a, Scope.EMPRESAS_READ);
        Map<String, Double> before = scrape();
        assertEquals(
                200,
                get("/v1/empresas?situacao_cadastral=02&apenas_total=true", "X-API-Key", key)
                        .statusCode());
        HttpResponse<String> refused = get("/v1/empresas?situacao_cadastral=02&apenas_total=true", "X-API-Key", key);
        assertEquals(429, refused.statusCode(), refused.body());
        Map<String, Double> after = scrape();
        String refusals = "cadastro_rate_limit_refusals_total";
        assertEquals(
                1,
                value(after, refusals, "service", "company-data", "limit", "LIMITE_DIARIO")
                        - value(before, refusals, "service", "company-data", "limit", "LIMITE_DIARIO"));
        String id = refused.headers().firstValue("X-Request-Id").orElseThrow();
        String line = accessLines.stream()
                .filter(l -> l.contains("request_id=" + id + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no access line of " + id + " in " + accessLines));
        assertTrue(line.contains(" status=429 ") && line.endsWith(" refused_by=LIMITE_DIARIO"), line);
    }

    @Test
    void aProviderCircuitStateAndItsFailedCallsAreVisible() throws Exception {
        Account a = account(100, 1_000_000);
        String key = key(a, Scope.ENRIQUECIMENTO_READ);
        Map<String, Double> before = scrape();
        assertEquals(1, value(before, "cadastro_provider_circuit_state", "provider", "bureau", "state", "closed"));
        bureauFaults.always(new Fault.Down());
        try {
            for (int i = 0; i < 2; i++) {
                assertEquals(
                        503, get("/v1/enriquecimento/" + cnpj, "X-API-Key", key).statusCode());
            }
            // The circuit is open now: this one does not reach the bureau.
            assertEquals(
                    503, get("/v1/enriquecimento/" + cnpj, "X-API-Key", key).statusCode());
        } finally {
            bureauFaults.clear();
        }
        Map<String, Double> after = scrape();
        assertEquals(1, value(after, "cadastro_provider_circuit_state", "provider", "bureau", "state", "open"));
        assertEquals(0, value(after, "cadastro_provider_circuit_state", "provider", "bureau", "state", "closed"));
        assertEquals(
                2,
                value(after, "cadastro_provider_calls_total", "provider", "bureau", "outcome", "error")
                        - value(before, "cadastro_provider_calls_total", "provider", "bureau", "outcome", "error"));
        assertEquals(
                1,
                value(after, "cadastro_provider_calls_total", "provider", "bureau", "outcome", "circuit_open")
                        - value(
                                before,
                                "cadastro_provider_calls_total",
                                "provider",
                                "bureau",
                                "outcome",
                                "circuit_open"));
        // The other providers are there too, closed.
        assertEquals(1, value(after, "cadastro_provider_circuit_state", "provider", "sms", "state", "closed"));
    }

    @Test
    void anAccessLineHasTheRouteTemplateStatusDurationRequestIdAndAccountOnly() throws Exception {
        Account a = account(100, 1_000_000);
        String key = key(a, Scope.EMPRESAS_READ);
        HttpResponse<String> r = get("/v1/empresas/" + cnpj, "Authorization", bearer(key));
        String id = r.headers().firstValue("X-Request-Id").orElseThrow();
        String line = accessLines.stream()
                .filter(l -> l.contains("request_id=" + id + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no access line of " + id + " in " + accessLines));
        assertTrue(
                line.matches("service=company-data method=GET route=/v1/empresas/\\{cnpj} status=200"
                        + " duration_ms=[0-9]+\\.[0-9]{3} request_id=" + Pattern.quote(id) + " account="
                        + a.id().value()),
                line);
    }

    @Test
    void noCpfPhoneKeyTokenCodeOrCnpjReachesTheScrapeOrTheAccessLog() throws Exception {
        Account a = account(1_000, 1_000_000);
        String key = key(
                a,
                Scope.EMPRESAS_READ,
                Scope.ENRIQUECIMENTO_READ,
                Scope.CREDITO_READ,
                Scope.PESSOAS_READ,
                Scope.SMS_OTP);
        Cpf cpf = PersonStack.withData(3);
        String phone = "11987654321";
        String masked = cnpj.substring(0, 2) + "." + cnpj.substring(2, 5) + "." + cnpj.substring(5, 8) + "/"
                + cnpj.substring(8, 12) + "-" + cnpj.substring(12);
        String callToken = server.store().callTokens().create("metricas").token();
        String wrongKey = "cad_" + "x".repeat(40);
        List<String> secrets = new ArrayList<>(
                List.of(cnpj, masked, cpf.digits(), cpf.formatted(), phone, key, callToken, wrongKey, "99988877766"));
        // CNPJs in paths (encoded mask, unencoded mask) and query strings.
        get("/v1/empresas/" + cnpj, "X-API-Key", key);
        get("/v1/empresas/" + URLEncoder.encode(masked, StandardCharsets.UTF_8), "X-API-Key", key);
        get("/v1/empresas/" + masked, "X-API-Key", key);
        get("/v1/empresas?cnpj=" + cnpj + "&cpf=" + cpf.digits() + "&telefone=" + phone, "X-API-Key", key);
        get("/v1/enriquecimento/" + cnpj, "X-API-Key", key);
        // A CPF in a body, a path and a query; a phone in a body.
        post("/v1/credito/consultar", "{\"documento\": \"" + cpf.digits() + "\"}", "X-API-Key", key);
        post(
                "/v1/pessoas/consultar",
                PersonStack.body("cpf", cpf.digits(), "KYC_CADASTRO", "cadastro de cliente novo"),
                "Authorization",
                bearer(key));
        post(
                "/v1/pessoas/consultar?cpf=" + cpf.formatted(),
                PersonStack.body("telefone", "99988877766", "KYC_CADASTRO", "cadastro de cliente novo"),
                "Authorization",
                bearer(key));
        get("/v1/pessoas/" + cpf.digits(), "Authorization", bearer(key));
        // A code sent to a phone, then checked, right and in a query string.
        HttpResponse<String> sent =
                post("/v1/sms/otp", "{\"telefone\": \"" + phone + "\", \"digitos\": 8}", "Authorization", bearer(key));
        assertEquals(200, sent.statusCode(), sent.body());
        String envio = ServerFixture.json(sent).get("envio_id").asText();
        String code = null;
        for (SmsInbox.Message m : inbox.read(Phone.of(phone), 10)) {
            if (m.reference().equals(envio)) {
                Matcher matcher = CODE.matcher(m.text());
                assertTrue(matcher.find(), m.text());
                code = matcher.group(1);
            }
        }
        assertTrue(code != null, "the code reached the inbox");
        secrets.add(code);
        post(
                "/v1/sms/otp/verificar?codigo=" + code,
                "{\"envio_id\": \"" + envio + "\", \"codigo\": \"" + code + "\"}",
                "Authorization",
                bearer(key));
        // A wrong key, and a key and a token sent to the other service.
        get("/v1/empresas/" + cnpj, "Authorization", bearer(wrongKey));
        CallRecordsService calls = server.calls().orElseThrow();
        send(calls.port(), "GET", "/v1/ligacoes?limite=1&telefone=" + phone, null, "Authorization", bearer(callToken));
        send(calls.port(), "GET", "/v1/ligacoes/" + cpf.digits(), null, "Authorization", bearer(key));
        send(calls.recordingsAddress().getPort(), "GET", "/gravacoes/" + cnpj + "?t=" + callToken, null);

        String scrape = scrapeText();
        List<String> lines = List.copyOf(accessLines);
        // The run was seen: every route above is in the scrape and in the log, so the grep below means something.
        for (String route : List.of(
                "/v1/empresas/{cnpj}",
                "/v1/empresas/{cnpj}/{ordem}",
                "/v1/pessoas/consultar",
                "/v1/sms/otp/verificar",
                "/v1/ligacoes",
                CadastroEngine.RECORDING_ROUTE)) {
            assertTrue(scrape.contains("route=\"" + route + "\""), route + " in the scrape");
            assertTrue(lines.stream().anyMatch(l -> l.contains(" route=" + route + " ")), route + " in the log");
        }
        for (String secret : secrets) {
            assertFalse(scrape.contains(secret), "the scrape contains " + secret);
            for (String line : lines) {
                assertFalse(line.contains(secret), "an access line contains " + secret + ": " + line);
            }
        }
    }

    @Test
    void aMetricsPortInUseStopsTheStartBeforeTheApiListensSoNothingIsDrained() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (java.net.ServerSocket busy = new java.net.ServerSocket(0, 50, loopback)) {
            long started = System.nanoTime();
            assertThrows(
                    java.io.UncheckedIOException.class,
                    () -> CadastroServer.start(
                            EngineConfig.builder(
                                            home.resolve("index"),
                                            Database.builder()
                                                    .embedded(home.resolve("db-busy-metrics"))
                                                    .durableCommits(false)
                                                    .build())
                                    .address(new InetSocketAddress(loopback, 0))
                                    .runtime( // A drain far longer than any start: a server that had started
                                            // listening would sit through it while closing.
                                            RuntimeOptions.builder()
                                                    .drain(Duration.ofSeconds(60))
                                                    .build())
                                    .requestsPerMinute(OptionalLong.empty())
                                    .clock(Clock.systemUTC())
                                    .build(),
                            null,
                            Observability.off().withMetrics((InetSocketAddress) busy.getLocalSocketAddress())));
            long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
            assertTrue(seconds < 45, "the failed start took " + seconds + " s: it drained a listener it had opened");
        }
    }
}
