package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.store.Database;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;

/**
 * docs/embedding.md's servlet host run for real: an engine opened without any JDK listener (its own
 * database on the fixture's PostgreSQL, the fixture's register), {@link JettyHost} mounting both
 * services and the recordings on one Jetty port under context paths, then requests through a real
 * socket: health, a paid search and a lookup with an encoded slash, a call's audio redirect followed
 * to a byte range of the recording, and readiness dropping when the engine begins to stop; once
 * closed, the engine leaves none of its idempotency lease threads behind.
 */
class EmbeddingOnJettyTest {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theEngineServesBothServicesAndTheRecordingsFromAJettyHost() throws Exception {
        ServerFixture f = ServerFixture.get();
        String database = "embed_" + UUID.randomUUID().toString().replace("-", "");
        String admin = f.server.store().embedded().orElseThrow().jdbcUrl();
        try (Connection c = DriverManager.getConnection(admin);
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + database);
        }
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path dir = Files.createTempDirectory(Path.of("target"), "embed-");
        EngineConfig config = EngineConfig.builder(
                        f.index, Database.url(admin.replace("/postgres?", "/" + database + "?")))
                .address(new InetSocketAddress(0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.empty())
                .clock(Clock.systemUTC())
                .files(dir.resolve("files"))
                .mailing(MailingOptions.defaults())
                .sms(SmsOptions.under(dir))
                .build();
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (CadastroEngine engine = CadastroEngine.open(
                config, CadastroEngine.CallRecordsSetup.at("http://127.0.0.1:" + port + "/gravacoes"))) {
            Server jetty = JettyHost.start(engine, port);
            try {
                String base = "http://127.0.0.1:" + port;
                assertEquals(200, get(base + "/dados/health/ready").statusCode());
                assertEquals(200, get(base + "/ligacoes/health/live").statusCode());

                Account account = engine.store().accounts().create("embedded", new Plan("e2e", 1000));
                engine.store()
                        .ledger()
                        .topUp(account.id(), CreditKind.CREDITS, 100, IdempotencyKey.of("embed:1"), "e2e");
                String key = new ApiKeyIssuer(
                                engine.store().accounts(),
                                engine.store().apiKeys(),
                                Clock.systemUTC(),
                                new SecureRandom())
                        .issue(account.id(), "e2e", EnumSet.of(Scope.EMPRESAS_READ))
                        .secret();
                // Under a key: the request's lease is renewed on the engine's threads.
                HttpResponse<String> search = get(
                        base + "/dados/v1/empresas?situacao_cadastral=02&limite=2",
                        "X-API-Key",
                        key,
                        "Idempotency-Key",
                        "embedded-search");
                assertEquals(200, search.statusCode(), search.body());
                String cnpj = ServerFixture.json(search).at("/dados/0/cnpj").asText();
                assertEquals(
                        98,
                        engine.store()
                                .ledger()
                                .balance(account.id(), CreditKind.CREDITS)
                                .posted(),
                        "a page of two charges two credits");
                String masked = cnpj.substring(0, 2) + "." + cnpj.substring(2, 5) + "." + cnpj.substring(5, 8) + "%2F"
                        + cnpj.substring(8, 12) + "-" + cnpj.substring(12);
                HttpResponse<String> lookup = get(base + "/dados/v1/empresas/" + masked, "X-API-Key", key);
                assertEquals(200, lookup.statusCode(), lookup.body());
                assertTrue(lookup.body().contains("\"" + cnpj + "\""), lookup.body());
                HttpResponse<String> refused = get(base + "/dados/v1/empresas/" + masked);
                assertEquals(401, refused.statusCode());
                assertEquals(
                        "SEM_CHAVE",
                        ServerFixture.json(refused).at("/erro/code").asText(),
                        refused.body());

                CallTokens.Issued token = engine.store().callTokens().create("embedded-" + UUID.randomUUID());
                Instant at = Instant.now().minusSeconds(600);
                CallRecord call = CallsStack.call(token.integration().id(), "EMB", at, at.plusSeconds(60), "vendas");
                try (FileStore.Upload upload =
                        engine.callRecords().orElseThrow().files().create(call.recordingKey())) {
                    upload.stream().write("RIFFembedded".getBytes(StandardCharsets.US_ASCII));
                    upload.commit();
                }
                engine.store().calls().ingest(List.of(call));
                HttpResponse<String> audio =
                        get(base + "/ligacoes/v1/ligacoes/EMB/audio", "Authorization", "Bearer " + token.token());
                assertEquals(302, audio.statusCode(), audio.body());
                String location = audio.headers().firstValue("Location").orElseThrow();
                assertTrue(location.startsWith(base + "/gravacoes/"), location);
                HttpResponse<String> range = get(location, "Range", "bytes=0-3");
                assertEquals(206, range.statusCode(), range.body());
                assertEquals("RIFF", range.body());
                assertEquals(
                        "bytes 0-3/12",
                        range.headers().firstValue("Content-Range").orElseThrow());

                engine.beginStopping();
                HttpResponse<String> stopping = get(base + "/dados/health/ready");
                assertEquals(503, stopping.statusCode());
                assertTrue(stopping.body().contains(CadastroEngine.NOT_READY_STOPPING), stopping.body());
            } finally {
                jetty.stop();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> left = leaseThreadsBut(before);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            left = leaseThreadsBut(before);
        }
        assertEquals(List.of(), left, "idempotency lease threads the closed engine left running");
    }

    private static List<String> leaseThreadsBut(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && t.getName().startsWith("idempotency-lease"))
                .map(Thread::getName)
                .toList();
    }

    private HttpResponse<String> get(String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
