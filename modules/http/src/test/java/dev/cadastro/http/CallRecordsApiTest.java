package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.calls.CallCursors;
import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallRecords;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.RecordingLinks;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.callrecords.CallRecordsApi;
import dev.cadastro.http.callrecords.RecordingHost;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The call-records router and the recording host through real sockets, over test-scope stand-ins for
 * the store and the tokens (the PostgreSQL ones are exercised end to end in the server module).
 */
class CallRecordsApiTest {
    private static final Instant NOW = Instant.parse("2026-03-10T15:00:00Z");
    private static final String TOKEN = "t-mine";
    private static final byte[] WAV = new byte[1000];

    static {
        for (int i = 0; i < WAV.length; i++) {
            WAV[i] = (byte) (i * 7);
        }
    }

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(NOW);
    private final Calls store = new Calls();
    private TestHttp api;
    private TestHttp host;

    @BeforeEach
    void start() throws Exception {
        Keyring keys = new Keyring(List.of(new Keyring.Key("k1", new byte[32])), "k1");
        FileStore files = new LocalFolderFileStore(dir);
        try (FileStore.Upload u = files.create("calls/1/A.wav")) {
            u.stream().write(WAV);
            u.commit();
        }
        // The host's port is known only once it listens: give it a handler that reads the links late.
        RecordingLinks[] links = new RecordingLinks[1];
        host = new TestHttp(r -> new RecordingHost(links[0], files).handle(r), Service.CALL_RECORDS);
        links[0] =
                new RecordingLinks(keys, "http://127.0.0.1:" + host.server.port() + "/rec", clock, new SecureRandom());
        CallRecords records = new CallRecords(store, new CallCursors(keys), links[0], clock);
        api = new TestHttp(CallRecordsApi.router(new Tokens(), records), Service.CALL_RECORDS);
        store.add(call(1, "A", NOW.minusSeconds(60), NOW));
        store.add(call(1, "B", NOW.minusSeconds(30), NOW));
        store.add(call(1, "PENDING", NOW.minusSeconds(10), null));
        store.add(call(2, "THEIRS", NOW.minusSeconds(5), NOW));
    }

    @AfterEach
    void stop() {
        api.close();
        host.close();
    }

    static CallRecord call(long integration, String id, Instant at, Instant archived) {
        return new CallRecord(
                integration,
                id,
                id,
                "7",
                "ana.souza",
                "Ana Souza",
                "vendas",
                "V1",
                "Venda realizada",
                at,
                at.minusSeconds(200),
                150,
                archived,
                "calls/" + integration + "/" + id + ".wav");
    }

    private HttpResponse<String> get(String path) {
        return api.get(path, "Authorization", "Bearer " + TOKEN);
    }

    private static void assertError(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode body = TestHttp.json(r);
        assertEquals(code, body.path("erro").asText(), r.body());
        assertTrue(body.path("mensagem").isTextual());
        assertEquals(2, body.size());
    }

    @Test
    void listsReadyCallsNewestFirstWithTheSpecEnvelope() {
        HttpResponse<String> r = get("/v1/ligacoes?limite=1");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode body = TestHttp.json(r);
        assertEquals("B", body.at("/ligacoes/0/metadata/id").asText());
        assertEquals(
                "2026-03-10T11:59:30",
                body.at("/ligacoes/0/metadata/datahistorico").asText());
        assertEquals(1, body.at("/paginacao/limite").asInt());
        assertEquals(1, body.at("/paginacao/retornados").asInt());
        assertEquals(7, body.path("retencao_dias").asInt());
        String cursor = body.at("/paginacao/proximo_cursor").asText();
        JsonNode next = TestHttp.json(get("/v1/ligacoes?limite=1&cursor=" + cursor));
        assertEquals("A", next.at("/ligacoes/0/metadata/id").asText());
        assertTrue(next.at("/paginacao/proximo_cursor").isNull());
        assertFalse(r.headers().firstValue("X-RateLimit-Limit").isPresent());
    }

    @Test
    void readsDatesWithAndWithoutOffset() {
        // 11:59:30 in UTC-3 is B's time; A is 30 s earlier.
        assertEquals(
                1,
                TestHttp.json(get("/v1/ligacoes?desde=2026-03-10T11:59:30"))
                        .at("/paginacao/retornados")
                        .asInt());
        assertEquals(
                1,
                TestHttp.json(get("/v1/ligacoes?desde=2026-03-10T14:59:30Z"))
                        .at("/paginacao/retornados")
                        .asInt());
        assertEquals(
                2,
                TestHttp.json(get("/v1/ligacoes?desde=2026-03-10T11:59:00-03:00"))
                        .at("/paginacao/retornados")
                        .asInt());
        // An unencoded + arrives as a space.
        assertEquals(
                1,
                TestHttp.json(get("/v1/ligacoes?ate=2026-03-10T14:59:00+00:00"))
                        .at("/paginacao/retornados")
                        .asInt());
    }

    @Test
    void readsIso8601BasicAndHourOnlyOffsets() {
        // B is 14:59:30Z; A 30 s earlier. A + encoded as %2B; a - as is.
        for (String desde : List.of(
                "2026-03-10T14:59:30%2B0000",
                "2026-03-10T14:59:30%2B00",
                "2026-03-10T11:59:30-0300",
                "2026-03-10T11:59:30-03",
                "2026-03-10T11:59:30-03:00",
                "2026-03-10T14:59:30Z")) {
            HttpResponse<String> r = get("/v1/ligacoes?desde=" + desde);
            assertEquals(200, r.statusCode(), desde + " -> " + r.body());
            assertEquals(1, TestHttp.json(r).at("/paginacao/retornados").asInt(), desde);
        }
        // Unencoded, the + of a basic offset arrives as a space.
        assertEquals(
                1,
                TestHttp.json(get("/v1/ligacoes?ate=2026-03-10T14:59:00+0000"))
                        .at("/paginacao/retornados")
                        .asInt());
        for (String bad : List.of("2026-03-10T11:59:30-3", "2026-03-10T11:59:30-030", "2026-03-10T11:59:30%2B25")) {
            assertError(get("/v1/ligacoes?desde=" + bad), 400, "parametro_invalido");
        }
    }

    @Test
    void refusesBadParametersNamingThem() {
        for (String q : List.of(
                "limite=0",
                "limite=201",
                "limite=abc",
                "desde=ontem",
                "ate=2026-13-01T00:00:00",
                "limit=5",
                "cursor=AAAA",
                "agente=a&agente=b",
                "desde=2026-03-10T12:00:00&ate=2026-03-10T11:00:00")) {
            HttpResponse<String> r = get("/v1/ligacoes?" + q);
            assertError(r, 400, "parametro_invalido");
            String name = q.substring(0, q.indexOf('='));
            assertTrue(TestHttp.json(r).path("mensagem").asText().contains(name), q + " -> " + r.body());
        }
    }

    @Test
    void refusesMissingInvalidAndNonBearerTokens() {
        assertError(api.get("/v1/ligacoes"), 401, "nao_autorizado");
        assertError(api.get("/v1/ligacoes", "Authorization", "Bearer nope"), 401, "nao_autorizado");
        assertError(api.get("/v1/ligacoes", "Authorization", "Basic " + TOKEN), 401, "nao_autorizado");
        assertError(api.get("/v1/ligacoes/A/audio", "X-API-Key", TOKEN), 401, "nao_autorizado");
        // The token is checked before any parameter.
        assertError(api.get("/v1/ligacoes?limite=0"), 401, "nao_autorizado");
    }

    @Test
    void oneCallIsItsMetadataAndOthersAreNotFound() {
        HttpResponse<String> r = get("/v1/ligacoes/A");
        assertEquals(200, r.statusCode());
        JsonNode body = TestHttp.json(r);
        assertEquals(1, body.size());
        assertEquals("A", body.at("/metadata/id").asText());
        assertTrue(body.at("/metadata/url_gravacao").asText().contains("/rec/calls/1/A.wav?k=k1&s="));
        assertError(get("/v1/ligacoes/THEIRS"), 404, "nao_encontrada");
        assertError(get("/v1/ligacoes/PENDING"), 404, "nao_encontrada");
        assertError(get("/v1/ligacoes/nope"), 404, "nao_encontrada");
        assertError(get("/v1/ligacoes/A/b/c"), 404, "rota_inexistente");
    }

    @Test
    void anUndecodableIdIsCheckedAfterTheTokenAndIsNotFoundNever422() {
        for (String id : List.of("%C3%28", "%00", "%FF", "%E2%82")) {
            for (String path : List.of("/v1/ligacoes/" + id, "/v1/ligacoes/" + id + "/audio")) {
                assertError(api.get(path), 401, "nao_autorizado");
                assertError(get(path), 404, "nao_encontrada");
            }
        }
    }

    @Test
    void audioRedirectsToANewSignedLinkWithoutCaching() {
        HttpResponse<String> r = get("/v1/ligacoes/A/audio");
        assertEquals(302, r.statusCode());
        assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
        String location = r.headers().firstValue("Location").orElseThrow();
        assertTrue(location.startsWith("http://127.0.0.1:" + host.server.port() + "/rec/calls/1/A.wav?k=k1&e="));
        assertFalse(location.equals(
                get("/v1/ligacoes/A/audio").headers().firstValue("Location").orElseThrow()));
        assertError(get("/v1/ligacoes/PENDING/audio"), 409, "indisponivel");
        assertError(get("/v1/ligacoes/THEIRS/audio"), 404, "nao_encontrada");
    }

    @Test
    void recordingHostServesTheWavWholeOrByRangeAndRefusesBadLinks() throws Exception {
        String location =
                get("/v1/ligacoes/A/audio").headers().firstValue("Location").orElseThrow();
        HttpResponse<byte[]> whole =
                bytes(HttpRequest.newBuilder(URI.create(location)).build());
        assertEquals(200, whole.statusCode());
        assertEquals("audio/wav", whole.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("bytes", whole.headers().firstValue("Accept-Ranges").orElseThrow());
        assertArrayEquals(WAV, whole.body());

        HttpResponse<byte[]> part = bytes(HttpRequest.newBuilder(URI.create(location))
                .header("Range", "bytes=10-19")
                .build());
        assertEquals(206, part.statusCode());
        assertEquals(
                "bytes 10-19/1000", part.headers().firstValue("Content-Range").orElseThrow());
        assertArrayEquals(Arrays.copyOfRange(WAV, 10, 20), part.body());
        HttpResponse<byte[]> tail = bytes(HttpRequest.newBuilder(URI.create(location))
                .header("Range", "bytes=-5")
                .build());
        assertArrayEquals(Arrays.copyOfRange(WAV, 995, 1000), tail.body());
        HttpResponse<byte[]> beyond = bytes(HttpRequest.newBuilder(URI.create(location))
                .header("Range", "bytes=1000-")
                .build());
        assertEquals(416, beyond.statusCode());
        assertEquals(
                "bytes */1000", beyond.headers().firstValue("Content-Range").orElseThrow());

        HttpResponse<byte[]> head = bytes(HttpRequest.newBuilder(URI.create(location))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build());
        assertEquals(200, head.statusCode());
        assertEquals("1000", head.headers().firstValue("Content-Length").orElseThrow());

        String tampered = location.replace("calls/1/A.wav", "calls/2/THEIRS.wav");
        assertEquals(
                403, bytes(HttpRequest.newBuilder(URI.create(tampered)).build()).statusCode());
        clock.advance(Duration.ofHours(1));
        assertEquals(
                403, bytes(HttpRequest.newBuilder(URI.create(location)).build()).statusCode());
        // The permanent link still works.
        String permanent = TestHttp.json(get("/v1/ligacoes/A"))
                .at("/metadata/url_gravacao")
                .asText();
        assertEquals(
                200,
                bytes(HttpRequest.newBuilder(URI.create(permanent)).build()).statusCode());
    }

    @Test
    void servesItsOpenApiDocumentWithoutAToken() {
        HttpResponse<String> r = api.get("/v1/openapi.json");
        assertEquals(200, r.statusCode());
        JsonNode doc = TestHttp.json(r);
        assertEquals("3.1.0", doc.path("openapi").asText());
        assertTrue(doc.at("/components/schemas/Erro/properties/erro/enum")
                .toString()
                .contains("parametro_invalido"));
    }

    private HttpResponse<byte[]> bytes(HttpRequest request) throws Exception {
        return host.client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Test-scope stand-in for the call store. */
    static final class Calls implements CallStore {
        private final Map<String, CallRecord> calls = new ConcurrentHashMap<>();

        void add(CallRecord c) {
            calls.put(c.integrationId() + "/" + c.id(), c);
        }

        @Override
        public IngestResult ingest(List<CallRecord> incoming) {
            incoming.forEach(this::add);
            return IngestResult.NOTHING;
        }

        @Override
        public List<CallRecord> page(
                long integrationId, CallFilter filter, Optional<CallPosition> after, Instant windowStart, int limit) {
            List<CallRecord> out = new ArrayList<>(calls.values().stream()
                    .filter(c -> c.integrationId() == integrationId && c.ready())
                    .filter(c -> !c.classifiedAt().isBefore(windowStart))
                    .filter(c -> filter.since()
                            .map(s -> !c.classifiedAt().isBefore(s))
                            .orElse(true))
                    .filter(c -> filter.until()
                            .map(u -> !c.classifiedAt().isAfter(u))
                            .orElse(true))
                    .filter(c -> after.map(a -> c.position().compareTo(a) > 0).orElse(true))
                    .sorted((a, b) -> a.position().compareTo(b.position()))
                    .toList());
            return out.subList(0, Math.min(limit, out.size()));
        }

        @Override
        public Optional<CallRecord> find(long integrationId, String id) {
            return Optional.ofNullable(calls.get(integrationId + "/" + id));
        }
    }

    /** Test-scope stand-in for the tokens: one integration, one token. */
    static final class Tokens implements CallTokens {
        @Override
        public Optional<Integration> authenticate(String token) {
            return TOKEN.equals(token) ? Optional.of(new Integration(1, "mine")) : Optional.empty();
        }

        @Override
        public Issued create(String integrationName) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Issued rotate(String integrationName) {
            throw new NoSuchElementException();
        }

        @Override
        public boolean revoke(long tokenId) {
            return false;
        }

        @Override
        public List<TokenInfo> list(Optional<String> integrationName) {
            return List.of();
        }

        @Override
        public Optional<Integration> integration(String name) {
            return Optional.empty();
        }
    }
}
