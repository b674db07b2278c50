package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.callrecords.CallRecordsApi;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.store.Database;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The server's wiring of push and call records together: the body a destination receives is the very
 * object {@code GET /v1/ligacoes/{id}} answers, and its {@code url_gravacao} is the permanent signed link
 * that plays the recording at the recording host, without a token.
 */
class PushBodyWiringTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void thePushedBodyIsTheOneCallAnswerAndItsRecordingLinkPlaysWithoutAToken() throws Exception {
        ServerFixture f = ServerFixture.get(); // its register index; this server has a database of its own
        Path dir = Files.createTempDirectory(Path.of("target"), "push-wiring-");
        InetSocketAddress free = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (LoopbackReceiver receiver = LoopbackReceiver.ok();
                CadastroServer server = CadastroServer.start(
                        EngineConfig.builder(
                                        f.index,
                                        Database.builder()
                                                .embedded(dir.resolve("db"))
                                                .durableCommits(false)
                                                .build())
                                .address(free)
                                .runtime(RuntimeOptions.defaults())
                                .requestsPerMinute(OptionalLong.empty())
                                .clock(Clock.systemUTC())
                                .push(PushOptions.defaults().withExemption(receiver.url("/hook")))
                                .build(),
                        CallRecordsOptions.of(free, free))) {
            CallTokens.Issued issued = server.store().callTokens().create("wiring");
            server.store()
                    .pushDestinations()
                    .set(
                            new PushDestination(
                                    issued.integration(), receiver.url("/hook"), "X-Api-Key", "k", false, null, true),
                            Instant.now());
            Instant now = Instant.now();
            String id = "WIRING-" + System.nanoTime();
            CallRecord call = CallsStack.call(
                    issued.integration().id(), id, now.minusSeconds(90), now.minusSeconds(30), "vendas");
            byte[] audio = "RIFF-wiring-audio".getBytes(StandardCharsets.US_ASCII);
            FileStore files = new LocalFolderFileStore(f.index.resolveSibling("files"));
            try (FileStore.Upload u = files.create(call.recordingKey())) {
                u.stream().write(audio);
                u.commit();
            }
            server.store().calls().ingest(List.of(call));

            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (receiver.received().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            List<LoopbackReceiver.Received> got = receiver.received();
            assertFalse(got.isEmpty(), "the ready call was pushed");
            JsonNode pushed = JSON.readTree(got.getFirst().body()).get("metadata");
            // The push as the call-records OpenAPI document's webhooks section describes it.
            JsonNode hook = JSON.readTree(CallRecordsApi.openApiDocument()).at("/webhooks/ligacao/post");
            for (JsonNode parameter : hook.get("parameters")) {
                String name = parameter.get("name").asText();
                String value = got.getFirst().header(name);
                if (parameter.get("required").asBoolean()) {
                    assertTrue(value != null, name + " is sent");
                }
                if (value != null) {
                    String pattern = parameter.at("/schema/pattern").asText();
                    assertTrue(value.matches(pattern), name + ": " + value + " !~ " + pattern);
                }
            }
            assertEquals("k", got.getFirst().header("X-Api-Key"), "the client's own header is sent");

            CallRecordsService calls = server.calls().orElseThrow();
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            HttpResponse<byte[]> one = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + calls.port() + "/v1/ligacoes/" + id))
                            .header("Authorization", "Bearer " + issued.token())
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, one.statusCode());
            assertEquals(JSON.readTree(one.body()).get("metadata"), pushed, "the same object as GET /v1/ligacoes/{id}");

            String link = pushed.get("url_gravacao").asText();
            assertTrue(link.startsWith(calls.recordingsBaseUrl() + "/"), link);
            HttpResponse<byte[]> played = client.send(
                    HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, played.statusCode(), "the permanent link plays without a token");
            assertArrayEquals(audio, played.body());
        }
    }
}
