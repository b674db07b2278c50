package dev.cadastro.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.s3.testing.S3ProxyFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The file-store contract on a real S3 protocol server (s3proxy on a folder), through the SDK's client,
 * plus what only an object store does: multipart uploads and presigned links.
 */
class S3FileStoreContractTest extends FileStoreContract {
    static final int PART = 5 << 20;

    @TempDir
    static Path dir;

    static S3ProxyFixture s3;
    static S3FileStore store;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3ProxyFixture.start(dir.resolve("s3"));
        s3.createBucket("contract");
        store = S3FileStore.open(s3.connection(), S3Location.parse("--files", "s3://contract/files"), PART);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @Override
    FileStore store() {
        return store;
    }

    @Test
    void keepsItsFilesUnderThePrefix() throws IOException {
        write(store, "prefixed/one.bin", bytes(10, 20));
        try (S3Client client = s3.connection().client()) {
            assertEquals(
                    List.of("files/prefixed/one.bin"),
                    client.listObjectsV2(b -> b.bucket("contract").prefix("files/prefixed/")).contents().stream()
                            .map(o -> o.key())
                            .toList());
        }
    }

    @Test
    void aFileLargerThanAPartIsUploadedInPartsAndReadBackWhole() throws IOException {
        byte[] content = bytes(2 * PART + 12_345, 21);
        try (FileStore.Upload upload = store.create("multipart/big.bin")) {
            OutputStream out = upload.stream();
            for (int off = 0; off < content.length; off += 100_000) {
                out.write(content, off, Math.min(100_000, content.length - off));
            }
            assertEquals(
                    Optional.empty(), store.open("multipart/big.bin"), "not visible before CompleteMultipartUpload");
            assertEquals(content.length, upload.commit());
        }
        assertArrayEquals(content, read(store, "multipart/big.bin"));
        try (FileStore.Download d =
                store.open("multipart/big.bin", PART - 10, 20).orElseThrow()) {
            assertArrayEquals(
                    java.util.Arrays.copyOfRange(content, PART - 10, PART + 10),
                    d.stream().readAllBytes());
        }
    }

    /**
     * A full part is sent in the background: with the store not answering (a relay on the way that holds
     * every byte), the writer still hands a second part over and goes on; the commit waits for both, and
     * the object is whole.
     */
    /**
     * The parts the store lists for the upload; none while s3proxy's file backend answers 400 for a part
     * still being written (seen on a loaded machine), which the caller's wait reads as not there yet.
     */
    private static java.util.List<software.amazon.awssdk.services.s3.model.Part> partsOf(S3Client direct, String id) {
        try {
            return direct.listParts(b -> b.bucket("contract")
                            .key("files/multipart/overlapped.bin")
                            .uploadId(id))
                    .parts();
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            if (e.statusCode() == 400) {
                return java.util.List.of();
            }
            throw e;
        }
    }

    @Test
    void aFullPartIsSentWhileTheWriterFillsTheNext() throws Exception {
        byte[] content = bytes(2 * PART + 777, 23);
        try (HeldRelay relay = new HeldRelay(s3.connection().endpoint().orElseThrow());
                S3FileStore viaRelay = S3FileStore.open(
                        new S3Connection(
                                Optional.of(relay.uri()),
                                "us-east-1",
                                s3.connection().credentials()),
                        S3Location.parse("--files", "s3://contract/files"),
                        PART);
                S3Client direct = s3.connection().client();
                FileStore.Upload upload = viaRelay.create("multipart/overlapped.bin")) {
            OutputStream out = upload.stream();
            out.write(content, 0, PART + 1); // the first part is full: handed to the sender
            String id = awaitUploadOf(direct, "files/multipart/overlapped.bin");
            while (partsOf(direct, id).isEmpty()) {
                Thread.onSpinWait();
            }
            relay.hold();
            // The store answers nothing now: a writer that sent its part itself would wait here.
            assertTimeoutPreemptively(
                    Duration.ofSeconds(20), () -> out.write(content, PART + 1, PART), "the second part is handed over");
            assertEquals(
                    1,
                    direct.listParts(b -> b.bucket("contract")
                                    .key("files/multipart/overlapped.bin")
                                    .uploadId(id))
                            .parts()
                            .size(),
                    "the second part is not in the store yet");
            relay.release();
            out.write(content, 2 * PART + 1, content.length - 2 * PART - 1);
            assertEquals(content.length, upload.commit());
        }
        assertArrayEquals(content, read(store, "multipart/overlapped.bin"));
    }

    private static String awaitUploadOf(S3Client client, String key) {
        while (true) {
            Optional<String> id = client.listMultipartUploads(b -> b.bucket("contract")).uploads().stream()
                    .filter(u -> u.key().equals(key))
                    .map(u -> u.uploadId())
                    .findFirst();
            if (id.isPresent()) {
                return id.get();
            }
            Thread.onSpinWait();
        }
    }

    /** A TCP relay to the store that can hold the bytes clients send (their requests wait) until released. */
    private static final class HeldRelay implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final URI target;
        private final Object gate = new Object();
        private boolean held;
        private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();

        HeldRelay(URI target) throws IOException {
            this.target = target;
            Thread.ofPlatform().daemon().start(this::accept);
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + server.getLocalPort());
        }

        void hold() {
            synchronized (gate) {
                held = true;
            }
        }

        void release() {
            synchronized (gate) {
                held = false;
                gate.notifyAll();
            }
        }

        private void accept() {
            try {
                while (true) {
                    Socket client = server.accept();
                    Socket upstream = new Socket(target.getHost(), target.getPort());
                    sockets.add(client);
                    sockets.add(upstream);
                    Thread.ofPlatform().daemon().start(() -> pump(client, upstream, true));
                    Thread.ofPlatform().daemon().start(() -> pump(upstream, client, false));
                }
            } catch (IOException closed) {
                // the relay is closed
            }
        }

        private void pump(Socket from, Socket to, boolean request) {
            byte[] buffer = new byte[64 << 10];
            try {
                for (int n; (n = from.getInputStream().read(buffer)) > 0; ) {
                    if (request) {
                        synchronized (gate) {
                            while (held) {
                                gate.wait();
                            }
                        }
                    }
                    to.getOutputStream().write(buffer, 0, n);
                }
            } catch (IOException | InterruptedException ended) {
                // a side closed
            }
        }

        @Override
        public void close() throws IOException {
            release();
            server.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    void anInterruptedMultipartUploadLeavesNoObjectAndNoPendingUpload() throws IOException {
        try (FileStore.Upload upload = store.create("multipart/interrupted.bin")) {
            OutputStream out = upload.stream();
            out.write(bytes(2 * PART + 1, 22));
            try (S3Client client = s3.connection().client()) {
                assertTrue(
                        client.listMultipartUploads(b -> b.bucket("contract")).uploads().stream()
                                .anyMatch(u -> u.key().equals("files/multipart/interrupted.bin")),
                        "two parts were sent before the close");
            }
        }
        assertEquals(Optional.empty(), store.open("multipart/interrupted.bin"));
        assertEquals(List.of(), store.list("multipart/interrupted"));
        try (S3Client client = s3.connection().client()) {
            assertEquals(
                    List.of(),
                    client.listMultipartUploads(b -> b.bucket("contract")).uploads().stream()
                            .filter(u -> u.key().equals("files/multipart/interrupted.bin"))
                            .toList());
            assertEquals(
                    List.of(),
                    client.listObjectsV2(b -> b.bucket("contract")).contents().stream()
                            .map(o -> o.key())
                            .filter(k -> k.contains("interrupted"))
                            .toList(),
                    "no part left as an object");
        }
    }

    @Test
    void aTemporaryLinkIsAPresignedGetThatAPlainClientFetches() throws Exception {
        byte[] content = bytes(4_321, 23);
        write(store, "links/rec.wav", content);
        URI link = store.temporaryLink("links/rec.wav", Duration.ofHours(1)).orElseThrow();
        assertTrue(link.getQuery().contains("X-Amz-Expires=3600"), link.toString());
        // A plain GET, no SDK and no credentials: the signature is in the query.
        HttpURLConnection get = (HttpURLConnection) link.toURL().openConnection();
        assertEquals(200, get.getResponseCode());
        try (var in = get.getInputStream()) {
            assertArrayEquals(content, in.readAllBytes());
        }
        assertThrows(IllegalArgumentException.class, () -> store.temporaryLink("links/rec.wav", Duration.ofDays(8)));
    }

    @Test
    void aStoreThatDoesNotAnswerIsUnavailableNotAnInternalError() throws Exception {
        S3Connection down = new S3Connection(
                Optional.of(URI.create("http://127.0.0.1:9")),
                "us-east-1",
                s3.connection().credentials());
        IllegalStateException atStart = assertThrows(
                IllegalStateException.class,
                () -> S3FileStore.open(down, S3Location.parse("--files", "s3://contract")));
        assertTrue(
                atStart.getMessage().contains("s3://contract could not be reached at http://127.0.0.1:9"),
                atStart.getMessage());
        try (S3FileStore gone =
                S3FileStore.open(s3.connection(), S3Location.parse("--files", "s3://no-such-bucket-here"))) {
            throw new AssertionError("opened a missing bucket: " + gone);
        } catch (IllegalStateException e) {
            assertTrue(e.getMessage().contains("s3://no-such-bucket-here could not be reached"), e.getMessage());
        }
        ObjectStoreUnavailableException e;
        try (S3Client client = s3.connection().client()) {
            client.createBucket(b -> b.bucket("vanishing"));
            S3FileStore vanishing = S3FileStore.open(s3.connection(), S3Location.parse("--files", "s3://vanishing"));
            client.deleteBucket(b -> b.bucket("vanishing"));
            e = assertThrows(ObjectStoreUnavailableException.class, () -> vanishing.list("x/"));
            vanishing.close();
        }
        assertEquals(ErrorCode.SERVICO_INDISPONIVEL, e.code());
    }
}
