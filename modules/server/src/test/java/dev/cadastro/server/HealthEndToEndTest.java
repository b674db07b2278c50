package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.store.Database;
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
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The health endpoints through real sockets on dedicated servers (each test its own embedded
 * PostgreSQL): live and ready on every listener without a key, outside the rate limit, ready 503 with
 * its reason when the database is down and during the drain of a stopping server while live stays 200.
 */
class HealthEndToEndTest {
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Path index;

    @BeforeAll
    static void loadIndex() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "health-");
        Path dump = dir.resolve("dump");
        index = dir.resolve("index");
        DumpGenerator.generate(
                dump, GeneratorOptions.builder(200).seed(3).threads(1).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, 200));
    }

    /** A server with a limit of one request a minute per key, the call-records listeners on free ports. */
    private static CadastroServer start(Duration drain) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "health-db-");
        InetSocketAddress free = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        return CadastroServer.start(
                EngineConfig.builder(
                                index,
                                Database.builder()
                                        .embedded(dir.resolve("db"))
                                        .durableCommits(false)
                                        .build())
                        .address(free)
                        .runtime(RuntimeOptions.builder().drain(drain).build())
                        .requestsPerMinute(OptionalLong.of(1))
                        .clock(Clock.systemUTC())
                        .build(),
                CallRecordsOptions.of(free, free));
    }

    private static HttpResponse<String> send(int port, String method, String path) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void liveAndReadyAnswerOkOnEveryListenerWithoutAKeyAndOutsideTheRateLimit() throws Exception {
        try (CadastroServer server = start(Duration.ZERO)) {
            CallRecordsService calls = server.calls().orElseThrow();
            for (int port : List.of(
                    server.port(), calls.port(), calls.recordingsAddress().getPort())) {
                // One request a minute per key: health is never counted, so twenty calls all answer.
                for (int i = 0; i < 10; i++) {
                    for (String path : List.of("/health/live", "/health/ready")) {
                        HttpResponse<String> r = send(port, "GET", path);
                        assertEquals(200, r.statusCode(), port + path + " " + r.body());
                        // The company-data listener names the served register's month (FreshnessEndToEndTest).
                        String month = server.register()
                                .published()
                                .referenceMonth()
                                .filter(m -> port == server.port())
                                .map(m -> ",\"dados_referencia\":\"" + m + "\"")
                                .orElse("");
                        assertEquals("{\"status\":\"ok\"" + (path.endsWith("ready") ? month : "") + "}", r.body());
                        assertTrue(r.headers()
                                .firstValue("Content-Type")
                                .orElse("")
                                .startsWith("application/json"));
                        assertTrue(r.headers().firstValue("X-RateLimit-Limit").isEmpty(), "not rate limited");
                    }
                }
                HttpResponse<String> head = send(port, "HEAD", "/health/ready");
                assertEquals(200, head.statusCode());
                assertEquals("", head.body());
                HttpResponse<String> post = send(port, "POST", "/health/ready");
                assertEquals(405, post.statusCode());
                assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
            }
            for (int port : List.of(server.port(), calls.port())) {
                String doc = send(port, "GET", "/v1/openapi.json").body();
                assertTrue(doc.contains("\"/health/live\"") && doc.contains("\"/health/ready\""), "documented");
            }
            // Other paths still go to the services: a key is needed there.
            assertEquals(
                    401,
                    send(server.port(), "GET", "/v1/empresas/00000000000191").statusCode());
        }
    }

    @Test
    void readyAnswers503WithItsReasonWhenTheDatabaseIsDownWhileLiveStays200() throws Exception {
        CadastroServer server = start(Duration.ZERO);
        try {
            server.store().embedded().orElseThrow().close();
            for (int port : List.of(server.port(), server.calls().orElseThrow().port())) {
                long t0 = System.nanoTime();
                HttpResponse<String> ready = send(port, "GET", "/health/ready");
                long millis = (System.nanoTime() - t0) / 1_000_000;
                assertEquals(503, ready.statusCode(), ready.body());
                assertEquals("{\"status\":\"indisponivel\",\"motivos\":[\"banco_indisponivel\"]}", ready.body());
                assertTrue(millis < 5_000, "a dead database answers 503 within the probe bound, not hang: " + millis);
                assertEquals(200, send(port, "GET", "/health/live").statusCode());
            }
        } finally {
            try {
                server.close();
            } catch (RuntimeException e) {
                // the database was stopped under it
            }
        }
    }

    @Test
    void aStoppingServerReportsNotReadyDuringTheDrainWhileStillServingLive() throws Exception {
        CadastroServer server = start(Duration.ofSeconds(3));
        int port = server.port();
        int callsPort = server.calls().orElseThrow().port();
        assertEquals(200, send(port, "GET", "/health/ready").statusCode());
        CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
        Await.until(
                "close() began the drain",
                () -> server.engine().readinessProblems().contains(CadastroServer.NOT_READY_STOPPING),
                Duration.ofSeconds(10));
        for (int p : List.of(port, callsPort)) {
            HttpResponse<String> ready = send(p, "GET", "/health/ready");
            assertEquals(503, ready.statusCode(), ready.body());
            assertEquals("{\"status\":\"indisponivel\",\"motivos\":[\"encerrando\"]}", ready.body());
            assertEquals(200, send(p, "GET", "/health/live").statusCode());
        }
        assertTrue(!closing.isDone(), "still draining");
        closing.get();
    }
}
