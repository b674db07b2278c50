package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.s3.testing.S3ProxyFixture;
import dev.cadastro.store.Database;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Two servers on one database and one bucket (s3proxy on loopback): each serves the other's exports
 * and recordings. Server A and server B are whole {@link CadastroServer}s with their own listeners,
 * their own object-store clients and their own mailing workers; only PostgreSQL and the bucket join them.
 */
class ObjectStoreFleetTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BUCKET = "fleet";

    @TempDir
    static Path dir;

    static S3ProxyFixture s3;
    static S3FileStore filesA;
    static S3FileStore filesB;
    static CadastroServer a;
    static CadastroServer b;
    static final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        ServerFixture f = ServerFixture.get();
        s3 = S3ProxyFixture.start(dir.resolve("s3"));
        s3.createBucket(BUCKET);
        // A database of its own on the fixture's PostgreSQL, shared by the two servers of this test.
        String server = f.server.store().embedded().orElseThrow().jdbcUrl();
        String name = "fleet_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        String url = server.replace("/postgres?", "/" + name + "?");
        S3Location location = S3Location.parse("--files", "s3://" + BUCKET + "/shared");
        filesA = S3FileStore.open(s3.connection(), location);
        filesB = S3FileStore.open(s3.connection(), location);
        a = start(f, url, filesA);
        b = start(f, url, filesB);
    }

    private static CadastroServer start(ServerFixture f, String url, FileStore files) {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        // The same index, so the same secrets folder beside it: the two servers share the call-records keys.
        EngineConfig config = EngineConfig.builder(
                        f.index,
                        Database.builder().url(url).durableCommits(false).build())
                .address(loopback)
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(10_000))
                .clock(Clock.systemUTC())
                .fileStore(files)
                .mailing(MailingOptions.defaults())
                .build();
        return CadastroServer.start(config, CallRecordsOptions.of(loopback, loopback));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {b, a, filesB, filesA, s3}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    void anExportRunByOneServerIsDownloadedThroughTheOtherByteForByte() throws Exception {
        Account account = a.store().accounts().create("fleet " + UUID.randomUUID(), new Plan("fleet", 100_000));
        a.store()
                .ledger()
                .topUp(account.id(), CreditKind.CREDITS, 10_000, IdempotencyKey.of("fleet:" + UUID.randomUUID()), "t");
        String key = new ApiKeyIssuer(a.store().accounts(), a.store().apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(account.id(), "fleet", EnumSet.of(Scope.MAILING_EXPORT, Scope.MAILING_READ))
                .secret();
        HttpResponse<String> created = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.port() + "/v1/mailing"))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"filtros\": {\"situacao_cadastral\": [\"02\"]}, \"quantidade\": 300,"
                                        + " \"formato\": \"csv\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, created.statusCode(), created.body());
        String id = JSON.readTree(created.body()).path("job_id").asText();
        JsonNode[] status = new JsonNode[1];
        Await.until(
                "the export " + id + " ends",
                () -> {
                    status[0] = json(get(a.port(), "/v1/mailing/" + id, key));
                    return !status[0].path("status").asText().equals("processando");
                },
                Duration.ofSeconds(60));
        assertEquals("concluido", status[0].path("status").asText(), status[0].toString());

        // The object in the bucket is the file; each server (one of them did not run the job) answers it whole.
        byte[] stored;
        try (S3Client s3Client = s3.connection().client()) {
            List<String> keys =
                    s3Client.listObjectsV2(r -> r.bucket(BUCKET).prefix("shared/mailing/" + id)).contents().stream()
                            .map(o -> o.key())
                            .toList();
            assertEquals(1, keys.size(), keys.toString());
            stored = s3Client.getObjectAsBytes(r -> r.bucket(BUCKET).key(keys.get(0)))
                    .asByteArray();
        }
        assertTrue(stored.length > 1_000, "a ZIP of 300 leads");
        for (CadastroServer server : List.of(a, b)) {
            HttpResponse<byte[]> download = client.send(
                    HttpRequest.newBuilder(
                                    URI.create("http://127.0.0.1:" + server.port() + "/v1/mailing/" + id + "/arquivo"))
                            .header("Authorization", "Bearer " + key)
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, download.statusCode(), new String(download.body(), StandardCharsets.UTF_8));
            assertEquals(
                    "application/zip",
                    download.headers().firstValue("Content-Type").orElse(""));
            assertArrayEquals(stored, download.body(), "the download through port " + server.port());
        }
    }

    @Test
    void aRecordingLinkMintedByOneServerIsAnsweredByTheOtherAndAudioRedirectsToThePresignedObject() throws Exception {
        CallRecordsService callsA = a.calls().orElseThrow();
        CallRecordsService callsB = b.calls().orElseThrow();
        CallTokens.Issued issued =
                a.store().callTokens().create("fleet-" + ProcessHandle.current().pid());
        long integration = issued.integration().id();
        CallRecord call = CallsStack.call(
                integration,
                "FLEET1",
                Clock.systemUTC().instant().minusSeconds(120),
                Clock.systemUTC().instant().minusSeconds(60),
                "vendas");
        byte[] wav = "RIFF-fleet-recording".getBytes(StandardCharsets.US_ASCII);
        // What the exchange is given to write recordings to: the engine's store, here the bucket.
        try (FileStore.Upload u = callsA.recordings().create(call.recordingKey())) {
            u.stream().write(wav);
            u.commit();
        }
        try (S3Client s3Client = s3.connection().client()) {
            assertArrayEquals(
                    wav,
                    s3Client.getObjectAsBytes(r -> r.bucket(BUCKET).key("shared/" + call.recordingKey()))
                            .asByteArray(),
                    "the recording is an object in the bucket");
        }
        a.store().calls().ingest(List.of(call));

        // url_gravacao minted by A, asked of B's recording host: a 302 to a fresh presigned GET.
        String permanent = callsA.links().permanent(call);
        assertTrue(permanent.startsWith(callsA.recordingsBaseUrl()), permanent);
        String onB = callsB.recordingsBaseUrl()
                + permanent.substring(callsA.recordingsBaseUrl().length());
        HttpResponse<String> viaB =
                client.send(HttpRequest.newBuilder(URI.create(onB)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(302, viaB.statusCode(), viaB.body());
        assertPresigned(viaB.headers().firstValue("Location").orElseThrow(), call, wav);
        HttpResponse<String> tampered = client.send(
                HttpRequest.newBuilder(URI.create(onB.replace("FLEET1", "FLEET2")))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, tampered.statusCode(), "the keyring's signature is still checked");

        // GET /v1/ligacoes/{id}/audio on either server: 302 to a presigned GET on the bucket, minted then.
        assertPresigned(audio(callsB, issued.token()), call, wav);
        assertPresigned(audio(callsA, issued.token()), call, wav);
    }

    private static String audio(CallRecordsService calls, String token) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + calls.port() + "/v1/ligacoes/FLEET1/audio"))
                        .header("Authorization", "Bearer " + token)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, r.statusCode(), r.body());
        assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(""));
        return r.headers().firstValue("Location").orElseThrow();
    }

    /** A presigned GET of the object, valid one hour, that a plain client without credentials fetches. */
    private static void assertPresigned(String location, CallRecord call, byte[] wav) throws Exception {
        String object = s3.endpoint() + "/" + BUCKET + "/shared/" + call.recordingKey() + "?";
        assertTrue(location.startsWith(object), location);
        assertTrue(location.contains("X-Amz-Expires=3600"), location);
        assertTrue(location.contains("X-Amz-Signature="), location);
        HttpResponse<byte[]> fetched = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(location)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, fetched.statusCode());
        assertArrayEquals(wav, fetched.body());
    }

    private static HttpResponse<String> get(int port, String path, String key) {
        try {
            return client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .header("Authorization", "Bearer " + key)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(r.body(), e);
        }
    }
}
