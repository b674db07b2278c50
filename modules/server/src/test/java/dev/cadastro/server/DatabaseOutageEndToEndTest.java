package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.http.callrecords.CallRecordsApi;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
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
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A database that stops, freezes or dies under a serving server, through real sockets and real signals
 * to the embedded PostgreSQL's processes: a paid request is answered 503 {@code SERVICO_INDISPONIVEL}
 * with {@code Retry-After} within 3 s and charges nothing, readiness says so, and service comes back
 * by itself when the database does (restarted by the server's supervisor after a {@code kill -9}).
 */
class DatabaseOutageEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The promise: a request that needs the database is answered within this long when it is gone. */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(3);

    private static Path index;
    private static List<String> cnpjs;

    private CadastroServer server;
    private OpenApiContract companyData;
    private Account account;
    private String key;
    private int next;

    @BeforeAll
    static void loadIndex() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "outage-");
        Path dump = dir.resolve("dump");
        index = dir.resolve("index");
        DumpGenerator.generate(
                dump, GeneratorOptions.builder(300).seed(5).threads(1).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, 300));
    }

    @BeforeEach
    void start() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "outage-db-");
        InetSocketAddress free = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        server = CadastroServer.start(
                EngineConfig.builder(
                                index,
                                Database.builder()
                                        .embedded(dir.resolve("db"))
                                        // A crash must not lose what was committed: the key and the charges.
                                        .durableCommits(true)
                                        .build())
                        .address(free)
                        .runtime(RuntimeOptions.defaults())
                        .requestsPerMinute(OptionalLong.of(10_000))
                        .clock(Clock.systemUTC())
                        .build(),
                CallRecordsOptions.of(free, free));
        account = server.store().accounts().create("outage", new Plan("outage", 100_000));
        server.store()
                .ledger()
                .topUp(account.id(), CreditKind.CREDITS, 1_000, IdempotencyKey.of("outage:top-up"), "test");
        key = new ApiKeyIssuer(
                        server.store().accounts(), server.store().apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(account.id(), "outage", EnumSet.of(Scope.EMPRESAS_READ))
                .secret();
        companyData = new OpenApiContract(get("/v1/openapi.json").body());
        if (cnpjs == null) {
            JsonNode page = json(get("/v1/empresas?ufs=SP&ufs=RJ&ufs=MG&limite=100"));
            List<String> found = new ArrayList<>();
            page.path("dados").forEach(e -> found.add(e.path("cnpj").asText()));
            assertTrue(found.size() >= 20, "the register has CNPJs to look up: " + page);
            cnpjs = found;
        }
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aFrozenDatabaseIsAnswered503WithinThreeSecondsAndChargesNothingThenServiceResumes() throws Exception {
        long before = balance();
        assertEquals(200, lookup().statusCode());
        before -= 1;
        List<Long> frozen = freezePostgres();
        try {
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = lookup();
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                assertUnavailable(r, took);
            }
            HttpResponse<String> ready = get("/health/ready");
            assertEquals(503, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains("banco_indisponivel"), ready.body());
            assertEquals(200, get("/health/live").statusCode(), "a frozen database is not a dead server");
        } finally {
            signal("CONT", frozen);
        }
        await(() -> served(lookup()), "service resumes");
        await(() -> get("/health/ready").statusCode() == 200, "ready again");
        // The answers that said 200 are the only charges: the refused ones wrote nothing.
        assertEquals(before - 1, balance(), "one charge per 200, none for the 503s");
    }

    /** {@code INT} is PostgreSQL's fast shutdown (a clean stop, what {@code pg_ctl stop} does); {@code KILL} a crash. */
    @ParameterizedTest
    @ValueSource(strings = {"INT", "KILL"})
    void aDatabaseStoppedOrKilledUnderTheServerIsRestartedAndNothingIsChargedMeanwhile(String how) throws Exception {
        long before = balance();
        EmbeddedDatabase embedded = server.store().embedded().orElseThrow();
        long postmaster = embedded.postmasterPid();
        assertTrue(ProcessHandle.of(postmaster).isPresent(), "the postmaster runs: " + postmaster);
        signal(how, List.of(postmaster));
        long t0 = System.nanoTime();
        HttpResponse<String> r = lookup();
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        // The supervisor may already have started it again; then the lookup is simply served.
        if (r.statusCode() != 200) {
            assertUnavailable(r, took);
        } else {
            before -= 1;
        }
        await(() -> embedded.restarts() >= 1, "the supervisor starts the database again");
        assertNotEquals(postmaster, embedded.postmasterPid(), "a new postmaster");
        await(() -> served(lookup()), "service resumes on the restarted database");
        assertEquals(200, get("/health/live").statusCode());
        assertEquals(before - 1, balance(), "one charge per 200");
    }

    @Test
    void aFrozenDatabaseIsAnswered503WithinThreeSecondsOnTheCallRecordsServiceToo() throws Exception {
        List<Long> frozen = freezePostgres();
        try {
            int port = server.calls().orElseThrow().port();
            long t0 = System.nanoTime();
            HttpResponse<String> r = CLIENT.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/ligacoes"))
                            .header("Authorization", "Bearer crt_" + "A".repeat(43))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(took.compareTo(ANSWER_WITHIN) < 0, "answered in " + took.toMillis() + " ms");
            assertEquals(
                    "servico_indisponivel", JSON.readTree(r.body()).get("erro").asText(), r.body());
            assertTrue(r.headers().firstValue("Retry-After").isPresent(), "Retry-After");
            new OpenApiContract(new String(CallRecordsApi.openApiDocument(), StandardCharsets.UTF_8))
                    .check("/v1/ligacoes", r);
        } finally {
            signal("CONT", frozen);
        }
    }

    private void assertUnavailable(HttpResponse<String> r, Duration took) throws IOException {
        assertEquals(503, r.statusCode(), r.body());
        companyData.check("/v1/empresas/{cnpj}", r);
        assertTrue(took.compareTo(ANSWER_WITHIN) < 0, "answered in " + took.toMillis() + " ms");
        JsonNode erro = JSON.readTree(r.body()).get("erro");
        assertEquals("SERVICO_INDISPONIVEL", erro.get("code").asText(), r.body());
        assertEquals("2", r.headers().firstValue("Retry-After").orElse(""), "Retry-After");
    }

    /** A lookup of a CNPJ this account has not looked up yet: 1 credit when answered. */
    private HttpResponse<String> lookup() throws Exception {
        return get("/v1/empresas/" + cnpjs.get(next++ % cnpjs.size()));
    }

    private HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .header("Authorization", "Bearer " + key)
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) throws IOException {
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private long balance() {
        return server.store().ledger().balance(account.id(), CreditKind.CREDITS).posted();
    }

    /** Stops the postmaster first, so it forks no backend between the listing and the signal, then the rest. */
    private List<Long> freezePostgres() throws Exception {
        signal("STOP", List.of(server.store().embedded().orElseThrow().postmasterPid()));
        List<Long> pids = postgresProcesses();
        signal("STOP", pids);
        return pids;
    }

    /** The postmaster and every process it started: the whole database, as one signal should reach it. */
    private List<Long> postgresProcesses() {
        long postmaster = server.store().embedded().orElseThrow().postmasterPid();
        List<Long> pids = new ArrayList<>();
        pids.add(postmaster);
        ProcessHandle.of(postmaster).orElseThrow().descendants().forEach(p -> pids.add(p.pid()));
        assertTrue(pids.size() > 1, "the postmaster has its background processes: " + pids);
        return pids;
    }

    private static void signal(String signal, List<Long> pids) throws Exception {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> command.add(Long.toString(p)));
        Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(kill.getInputStream().readAllBytes());
        assertEquals(0, kill.waitFor(), "kill -" + signal + " " + pids + ": " + out);
    }

    private String last = "";

    /** Whether the answer is a 200; remembers it for the failure message. */
    private boolean served(HttpResponse<String> r) {
        last = r.statusCode() + " " + r.body();
        return r.statusCode() == 200;
    }

    /** Polls the observable state every 100 ms until it holds, at most 30 s. */
    private void await(ThrowingCondition condition, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within 30 s; last answer " + last);
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }

    @FunctionalInterface
    private interface ThrowingCondition {
        boolean holds() throws Exception;
    }
}
