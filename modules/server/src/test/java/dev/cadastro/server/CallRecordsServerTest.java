package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.RecordingLinks;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.files.LocalFolderFileStore;
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
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The wiring of {@link CadastroServer#start(EngineConfig, CallRecordsOptions)}: the call-records
 * API and the recording host on listeners of their own, over the server's store, files folder and
 * keyring, apart from the company-data listener.
 */
class CallRecordsServerTest {
    private final ServerFixture f = ServerFixture.get();
    private final CallRecordsService calls = f.server.calls().orElseThrow();

    @Test
    void servesTheCallRecordsApiAndItsRecordingsOnTheirOwnListeners() throws Exception {
        assertNotEquals(f.server.port(), calls.port());
        assertNotEquals(calls.port(), calls.recordingsAddress().getPort());
        // On loopback, the recording host goes by another name than the API, so that clients that drop
        // Authorization only on a host change (curl before 7.83) drop it on the redirect.
        String apiHost = CallRecordsService.hostFor(calls.address());
        String recordingsHost = URI.create(calls.recordingsBaseUrl()).getHost();
        assertNotEquals(apiHost, recordingsHost);
        assertTrue(Set.of("localhost", "127.0.0.1").contains(recordingsHost), recordingsHost);
        assertEquals(
                calls.recordingsAddress().getPort(),
                URI.create(calls.recordingsBaseUrl()).getPort());
        CallTokens.Issued issued = f.server
                .store()
                .callTokens()
                .create("server-wiring-" + ProcessHandle.current().pid());
        long integration = issued.integration().id();
        CallRecord call = CallsStack.call(
                integration,
                "WIRED",
                f.clock.instant().minusSeconds(60),
                f.clock.instant().minusSeconds(30),
                "vendas");
        FileStore files = new LocalFolderFileStore(f.index.resolveSibling("files"));
        try (FileStore.Upload u = files.create(call.recordingKey())) {
            u.stream().write("RIFF-wired".getBytes(StandardCharsets.US_ASCII));
            u.commit();
        }
        f.server.store().calls().ingest(List.of(call));

        String base = "http://127.0.0.1:" + calls.port();
        HttpClient client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        HttpResponse<String> list = client.send(
                HttpRequest.newBuilder(URI.create(base + "/v1/ligacoes"))
                        .header("Authorization", "Bearer " + issued.token())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, list.statusCode(), list.body());
        assertEquals(
                "WIRED", ServerFixture.json(list).at("/ligacoes/0/metadata/id").asText());
        HttpResponse<String> audio = client.send(
                HttpRequest.newBuilder(URI.create(base + "/v1/ligacoes/WIRED/audio"))
                        .header("Authorization", "Bearer " + issued.token())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, audio.statusCode());
        assertEquals("RIFF-wired", audio.body());
        assertTrue(audio.uri().toString().startsWith(calls.recordingsBaseUrl() + "/calls/" + integration + "/"));

        // The company-data listener does not serve the call-records routes, nor the reverse.
        assertEquals(
                404,
                f.get("/v1/ligacoes", "Authorization", "Bearer " + issued.token())
                        .statusCode());
        HttpResponse<String> openapi = client.send(
                HttpRequest.newBuilder(URI.create(base + "/v1/openapi.json")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(openapi.body().contains("Cadastro call-records service"));
    }

    @Test
    void urlsToIpv6ListenersBracketTheAddress() throws Exception {
        InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("::1"), 8082);
        String host = CallRecordsService.hostFor(v6);
        assertTrue(host.startsWith("[") && host.endsWith("]"), host);
        assertEquals(8082, URI.create("http://" + host + ":8082/x").getPort());
        assertEquals("localhost", CallRecordsService.hostFor(new InetSocketAddress(8082)));
    }

    @Test
    void signsLinksWithItsOwnKeyringNotTheSmsCodeKeys() {
        Path secrets = f.index.resolveSibling("secrets");
        Path callsFile = secrets.resolve("calls-keys.properties");
        assertTrue(Files.exists(callsFile), "the call-records keys are generated on first start");
        CallRecord call = CallsStack.call(
                1,
                "KEYRING",
                f.clock.instant().minusSeconds(60),
                f.clock.instant().minusSeconds(30),
                "vendas");
        String link = calls.links().permanent(call);
        String query = link.substring(link.indexOf('?') + 1);
        RecordingLinks callKeys =
                new RecordingLinks(CallsSecrets.KEYRING.load(callsFile), "http://x", f.clock, new SecureRandom());
        RecordingLinks smsKeys = new RecordingLinks(
                OtpSecrets.load(secrets.resolve("otp-keys.properties")), "http://x", f.clock, new SecureRandom());
        assertEquals(RecordingLinks.Verdict.VALID, callKeys.verify(call.recordingKey(), query));
        assertEquals(
                RecordingLinks.Verdict.INVALID,
                smsKeys.verify(call.recordingKey(), query),
                "dropping an SMS code key must not break a permanent recording link");
    }
}
