package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@code Idempotency-Key} on {@code GET /v1/empresas} end to end, through a real socket: the key is
 * bound to the account and to the search it was first used for, so it can neither buy other records
 * nor other pages for free, nor fail with a 500; a replay answers the first page byte for byte even
 * after a new register generation; concurrent uses charge once. A server of its own over a register
 * this class republishes, sharing the fixture's PostgreSQL, on a clock of its own.
 */
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class IdempotencyEndToEndTest {
    /** The runtime of this run of the class: the JDK's, or Jetty through the servlet bridge. */
    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static ServerFixture f;
    private static final ManualClock clock = new ManualClock(ServerFixture.START);
    private static Path dir;
    private static LuceneRegister register;
    private static TestRuntime.Listener http;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) throws IOException {
        f = ServerFixture.on(runtime);
        dir = Files.createTempDirectory(Path.of("target"), "idem-");
        load(11);
        register = LuceneRegister.open(dir.resolve("index"));
        http = f.listen(CompanyDataRoutes.router(
                register, f.server.store(), f.server.store().admission(10_000, clock), clock, f.server.mailing()));
    }

    @org.junit.jupiter.params.AfterParameterizedClassInvocation
    static void stop() {
        http.close();
        register.close();
    }

    private static void load(long seed) {
        Path dump = dir.resolve("dump-" + seed);
        DumpGenerator.generate(
                dump, GeneratorOptions.builder(1_000).seed(seed).threads(2).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, dir.resolve("index"), DumpLoader.buildOptionsFor(load, 1_000));
    }

    private static HttpResponse<String> search(String query, String apiKey, String idempotencyKey) {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + http.port() + "/v1/empresas?" + query))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + apiKey);
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        return f.send(b.GET().build());
    }

    private static void assertRefusedAsAnotherRequest(HttpResponse<String> r) {
        assertEquals(422, r.statusCode(), r.body());
        JsonNode erro = json(r).path("erro");
        assertEquals("PARAMETRO_INVALIDO", erro.path("code").asText());
        assertEquals("campo=Idempotency-Key; regra=reused", erro.path("detalhe").asText());
        assertTrue(erro.path("mensagem").asText().contains("outra requisição"), r.body());
    }

    /** One request written byte for byte (header values as UTF-8), the whole answer read as text. */
    private static String rawGet(String target, String... headerLines) {
        try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(), http.port())) {
            socket.setSoTimeout(10_000);
            StringBuilder head = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n");
            for (String line : headerLines) {
                head.append(line).append("\r\n");
            }
            head.append("Connection: close\r\n\r\n");
            socket.getOutputStream().write(head.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aRetryAfterAChargedAttemptWhoseAnswerWasLostSaysWhatThePageCostAndChargesNothingMore() throws Exception {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        HttpResponse<String> first = search("ufs=RJ&limite=3", key, "lost-1");
        assertEquals(200, first.statusCode(), first.body());
        assertEquals(3, json(first).path("creditos_consumidos").asInt());
        // The first attempt's charge committed, then its server died before the answer was stored: the
        // key's row is left claimed by no one, with no answer.
        try (java.sql.Connection c = f.server.store().dataSource().getConnection();
                java.sql.PreparedStatement st = c.prepareStatement(
                        "UPDATE idempotency_requests SET answer = NULL, completed_at = NULL, locked_until = NULL"
                                + " WHERE account_id = ? AND client_key = 'lost-1'")) {
            st.setLong(1, account.id().value());
            assertEquals(1, st.executeUpdate());
        }
        HttpResponse<String> retry = search("ufs=RJ&limite=3", key, "lost-1");
        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals(3, json(retry).path("creditos_consumidos").asInt(), "the page cost 3, charged once");
        assertEquals(97, f.balance(account), "charged once");
        assertEquals("97", retry.headers().firstValue("X-Creditos-Saldo").orElseThrow());
    }

    @Test
    void theSameKeyOnAnotherSearchIs422AndChargesNothing() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        HttpResponse<String> first = search("ufs=RJ&limite=2", key, "abc-1");
        assertEquals(200, first.statusCode(), first.body());
        assertEquals(2, json(first).path("creditos_consumidos").asInt());
        assertEquals(98, f.balance(account));

        assertRefusedAsAnotherRequest(search("ufs=SP&limite=2", key, "abc-1"));
        assertRefusedAsAnotherRequest(search("ufs=RJ&limite=7", key, "abc-1"));
        assertRefusedAsAnotherRequest(search("ufs=RJ&limite=2&pagina=2", key, "abc-1"));
        assertRefusedAsAnotherRequest(search("ufs=RJ&limite=2&apenas_total=true", key, "abc-1"));
        assertEquals(98, f.balance(account), "refusals charge nothing");

        HttpResponse<String> replay = search("ufs=RJ&limite=2", key, "abc-1");
        assertEquals(200, replay.statusCode(), "the key still answers its own search after the refusals");
        assertEquals(first.body(), replay.body());
        assertEquals(98, f.balance(account));
    }

    @Test
    void aReplayAnswersTheFirstPageByteForByteMarkedReplayedAndChargesNothing() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        HttpResponse<String> first = search("ufs=SP&ufs=RJ&limite=5", key, "replay-1");
        assertEquals(200, first.statusCode(), first.body());
        assertFalse(first.headers().firstValue("Idempotent-Replayed").isPresent());
        // The same search with its values in another order is the same request.
        HttpResponse<String> replay = search("ufs=RJ&ufs=SP&limite=5", key, "replay-1");
        assertEquals(200, replay.statusCode(), replay.body());
        assertEquals(first.body(), replay.body());
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(
                first.headers().firstValue("X-Creditos-Saldo"), replay.headers().firstValue("X-Creditos-Saldo"));
        assertTrue(replay.headers().firstValue("X-RateLimit-Remaining").isPresent(), "the replay's own window");
        assertEquals(95, f.balance(account));
    }

    @Test
    void aReplayAfterANewGenerationAnswersTheSameRecords() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        HttpResponse<String> first = search("situacao_cadastral=02&limite=3", key, "generation-1");
        assertEquals(200, first.statusCode(), first.body());
        long generation = register.published().generation();
        load(12);
        assertTrue(register.refresh(), "the new generation is picked up");
        assertNotEquals(generation, register.published().generation());
        HttpResponse<String> fresh = search("situacao_cadastral=02&limite=3", key, null);
        assertNotEquals(
                json(first).path("dados").toString(),
                json(fresh).path("dados").toString(),
                "another generation, other records");
        HttpResponse<String> replay = search("situacao_cadastral=02&limite=3", key, "generation-1");
        assertEquals(first.body(), replay.body());
        assertEquals(100 - 3 - 3, f.balance(account), "the first search and the fresh one; the replay is free");
    }

    @Test
    void concurrentSearchesWithOneKeyChargeOnceAndAnswerAlike() throws Exception {
        Account account = f.account(1_000, 10_000);
        String key = f.key(account);
        int clients = 12;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            for (int i = 0; i < clients; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return search("ufs=SP&limite=50", key, "concurrent-1");
                }));
            }
            go.countDown();
            String body = null;
            for (Future<HttpResponse<String>> a : answers) {
                HttpResponse<String> r = a.get();
                assertEquals(200, r.statusCode(), r.body());
                if (body == null) {
                    body = r.body();
                }
                assertEquals(body, r.body());
            }
            assertEquals(
                    1_000
                            - json(answers.get(0).get())
                                    .path("paginacao")
                                    .path("retornados")
                                    .asInt(),
                    f.balance(account));
        }
    }

    @Test
    void aKeyIsScopedToItsAccount() {
        Account a = f.account(100, 10_000);
        Account b = f.account(100, 10_000);
        assertEquals(200, search("ufs=RJ&limite=2", f.key(a), "shared-key").statusCode());
        HttpResponse<String> other = search("ufs=SP&limite=3", f.key(b), "shared-key");
        assertEquals(200, other.statusCode(), other.body());
        assertFalse(other.headers().firstValue("Idempotent-Replayed").isPresent());
        assertEquals(97, f.balance(b));
    }

    @Test
    void aSearchRefusedFor402RunsAgainWithTheSameKeyOnceCreditsArrive() {
        Account account = f.account(1, 10_000);
        String key = f.key(account);
        HttpResponse<String> poor = search("ufs=SP&limite=5", key, "topup-1");
        assertEquals(402, poor.statusCode(), poor.body());
        f.server
                .store()
                .ledger()
                .topUp(account.id(), CreditKind.CREDITS, 10, IdempotencyKey.of("idem-e2e:" + account.id()), "e2e");
        HttpResponse<String> paid = search("ufs=SP&limite=5", key, "topup-1");
        assertEquals(200, paid.statusCode(), paid.body());
        assertEquals(5, json(paid).path("creditos_consumidos").asInt());
        assertEquals(6, f.balance(account));
    }

    @Test
    void aKeyCanBeUsedForAnotherSearchAfter24Hours() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        assertEquals(200, search("ufs=RJ&limite=2", key, "daily").statusCode());
        clock.advance(Duration.ofHours(24).minusSeconds(1));
        assertRefusedAsAnotherRequest(search("ufs=SP&limite=2", key, "daily"));
        clock.advance(Duration.ofSeconds(1));
        HttpResponse<String> later = search("ufs=SP&limite=2", key, "daily");
        assertEquals(200, later.statusCode(), later.body());
        assertEquals(96, f.balance(account), "a forgotten key is a new key: charged");
    }

    @Test
    void malformedKeysAre422NamingTheHeader() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        for (String bad : List.of("x".repeat(256), "two words")) {
            HttpResponse<String> r = search("ufs=RJ&limite=2", key, bad);
            assertEquals(422, r.statusCode(), bad + ": " + r.body());
            assertEquals(
                    "campo=Idempotency-Key; regra=format",
                    json(r).path("erro").path("detalhe").asText());
        }
        // Raw UTF-8 bytes in the header, as java.net.http would not send them.
        String raw = rawGet(
                "/v1/empresas?ufs=RJ&limite=2",
                "Authorization: Bearer " + key,
                "Idempotency-Key: acentua\u00e7\u00e3o");
        assertTrue(raw.startsWith("HTTP/1.1 422"), raw);
        assertTrue(raw.contains("campo=Idempotency-Key; regra=format"), raw);
        assertEquals(200, search("ufs=RJ&limite=2", key, "x".repeat(255)).statusCode(), "255 characters are allowed");
        assertEquals(98, f.balance(account));
    }
}
