package dev.cadastro.server;

import dev.cadastro.core.calls.CallCursors;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallRecords;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.RecordingLinks;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Headers;
import dev.cadastro.http.callrecords.CallRecordsApi;
import dev.cadastro.http.callrecords.RecordingHost;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The call-records read side over the real PostgreSQL store of {@link ServerFixture}, on listeners of
 * its own: its clock (the 7-day window and the one-hour links are stepped exactly), its keyring, its
 * recording files, and a recording host that keeps the header fields of every request it receives, so a
 * test can check what a client sent AT that host. The API's answers may pass through a rewrite (a later
 * server version adding a field).
 */
final class CallsStack implements AutoCloseable {
    private static final AtomicInteger NAMES = new AtomicInteger();

    final ServerFixture f = ServerFixture.get();
    final Store store = f.server.store();
    final ManualClock clock;
    final FileStore files;
    final Keyring keys;
    final RecordingLinks links;
    final CallRecords records;
    final TestRuntime.Listener host;
    final TestRuntime.Listener api;
    final ConcurrentLinkedQueue<Headers> hostSaw = new ConcurrentLinkedQueue<>();
    final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final HttpClient following = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();

    CallsStack(Instant now) {
        this(now, TestRuntime.SERVER);
    }

    CallsStack(Instant now, TestRuntime runtime) {
        this(now, runtime, UnaryOperator.identity());
    }

    /** The API and the recording host listen on {@code runtime}. */
    CallsStack(Instant now, TestRuntime runtime, UnaryOperator<byte[]> rewriteJson) {
        try {
            clock = new ManualClock(now);
            files = new LocalFolderFileStore(Files.createTempDirectory(Path.of("target"), "calls-"));
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            keys = new Keyring(List.of(new Keyring.Key("c1", secret)), "c1");
            Handler[] recordingHost = new Handler[1];
            host = runtime.listen(
                    r -> {
                        hostSaw.add(r.headers());
                        return recordingHost[0].handle(r);
                    },
                    Service.CALL_RECORDS);
            links = new RecordingLinks(
                    keys, "http://127.0.0.1:" + host.port() + "/gravacoes", clock, new SecureRandom());
            recordingHost[0] = new RecordingHost(links, files);
            records = new CallRecords(store.calls(), new CallCursors(keys), links, clock);
            Handler router = CallRecordsApi.router(store.callTokens(), records);
            api = runtime.listen(
                    r -> {
                        var response = router.handle(r);
                        return response.status() == 200 && response.streamed() == null
                                ? new dev.cadastro.http.Response(
                                        200, response.headers(), rewriteJson.apply(response.body()))
                                : response;
                    },
                    Service.CALL_RECORDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new integration with a first token. */
    CallTokens.Issued integration() {
        return store.callTokens()
                .create("e2e-" + NAMES.incrementAndGet() + "-"
                        + ProcessHandle.current().pid());
    }

    /** A call of this integration; archived when {@code archivedAt} is not null (its WAV is then written). */
    static CallRecord call(long integration, String id, Instant classifiedAt, Instant archivedAt, String queue) {
        return new CallRecord(
                integration,
                id,
                id,
                "F" + (id.hashCode() & 0xff),
                "agente." + queue,
                "Agente " + queue,
                queue,
                queue.equals("receptiva") ? null : "R1",
                "Venda realizada",
                classifiedAt,
                classifiedAt.minusSeconds(95),
                60,
                archivedAt,
                "calls/" + integration + "/" + id + ".wav");
    }

    /** Writes the recordings of the archived calls, then ingests the calls in one transaction. */
    void ingest(List<CallRecord> calls) {
        for (CallRecord c : calls) {
            if (c.ready()) {
                try (FileStore.Upload u = files.create(c.recordingKey())) {
                    u.stream().write(("RIFF" + c.id()).getBytes(StandardCharsets.US_ASCII));
                    u.commit();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        store.calls().ingest(calls);
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + api.port() + pathAndQuery);
    }

    HttpResponse<String> get(String pathAndQuery, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(client, b.GET().build());
    }

    HttpResponse<String> send(HttpClient with, HttpRequest request) {
        try {
            return with.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        api.close();
        host.close();
    }
}
