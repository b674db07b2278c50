package dev.cadastro.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.s3.testing.S3ProxyFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
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
