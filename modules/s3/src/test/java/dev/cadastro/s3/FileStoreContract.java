package dev.cadastro.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.files.FileStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What every {@link FileStore} adapter does, run against each one by a subclass: the local folder and
 * the object store must be interchangeable under the services that use them.
 */
abstract class FileStoreContract {

    /** The store under test, empty of the keys these tests use. */
    abstract FileStore store();

    static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    static long write(FileStore store, String key, byte[] content) throws IOException {
        try (FileStore.Upload upload = store.create(key)) {
            try (OutputStream out = upload.stream()) {
                out.write(content);
            }
            return upload.commit();
        }
    }

    static byte[] read(FileStore store, String key) throws IOException {
        try (FileStore.Download d = store.open(key).orElseThrow()) {
            byte[] all = d.stream().readAllBytes();
            assertEquals(d.size(), all.length, "the size the download announced");
            return all;
        }
    }

    @Test
    void writesAFileAndReadsItBack() throws IOException {
        byte[] content = bytes(100_000, 1);
        assertEquals(content.length, write(store(), "contract/a/one.bin", content));
        assertArrayEquals(content, read(store(), "contract/a/one.bin"));
    }

    @Test
    void writesAnEmptyFile() throws IOException {
        assertEquals(0, write(store(), "contract/empty.bin", new byte[0]));
        assertArrayEquals(new byte[0], read(store(), "contract/empty.bin"));
    }

    @Test
    void readsARangeClippedAtTheEnd() throws IOException {
        byte[] content = bytes(10_000, 2);
        write(store(), "contract/range.bin", content);
        try (FileStore.Download d =
                store().open("contract/range.bin", 1_000, 500).orElseThrow()) {
            assertEquals(500, d.size());
            assertArrayEquals(
                    java.util.Arrays.copyOfRange(content, 1_000, 1_500),
                    d.stream().readAllBytes());
        }
        try (FileStore.Download d =
                store().open("contract/range.bin", 9_990, 500).orElseThrow()) {
            assertEquals(10, d.size());
            assertArrayEquals(
                    java.util.Arrays.copyOfRange(content, 9_990, 10_000),
                    d.stream().readAllBytes());
        }
        try (FileStore.Download d =
                store().open("contract/range.bin", 20_000, 10).orElseThrow()) {
            assertEquals(0, d.size());
            assertEquals(-1, d.stream().read());
        }
        try (FileStore.Download d = store().open("contract/range.bin", 5, 0).orElseThrow()) {
            assertEquals(0, d.size());
        }
        assertThrows(IllegalArgumentException.class, () -> store().open("contract/range.bin", -1, 5));
    }

    @Test
    void closingADownloadEarlyIsFine() throws IOException {
        write(store(), "contract/early.bin", bytes(300_000, 3));
        try (FileStore.Download d = store().open("contract/early.bin").orElseThrow();
                InputStream in = d.stream()) {
            assertEquals(300_000, d.size());
            assertEquals(1_000, in.readNBytes(1_000).length);
        }
        assertEquals(300_000, read(store(), "contract/early.bin").length);
    }

    @Test
    void listsCommittedFilesByPrefixInKeyOrder() throws IOException {
        write(store(), "contract/list/b.bin", bytes(3, 4));
        write(store(), "contract/list/a.bin", bytes(5, 5));
        write(store(), "contract/list/sub/c.bin", bytes(7, 6));
        write(store(), "contract/listed-not.bin", bytes(1, 7));
        try (FileStore.Upload pending = store().create("contract/list/pending.bin")) {
            pending.stream().write(bytes(10, 8));
            assertEquals(
                    List.of(
                            new FileStore.Entry("contract/list/a.bin", 5),
                            new FileStore.Entry("contract/list/b.bin", 3),
                            new FileStore.Entry("contract/list/sub/c.bin", 7)),
                    store().list("contract/list/"));
        }
        assertEquals(List.of(), store().list("contract/nothing-here/"));
    }

    @Test
    void deletesAFileAndSaysWhetherThereWasOne() throws IOException {
        write(store(), "contract/delete.bin", bytes(10, 9));
        assertTrue(store().delete("contract/delete.bin"));
        assertEquals(Optional.empty(), store().open("contract/delete.bin"));
        assertFalse(store().delete("contract/delete.bin"));
    }

    @Test
    void aMissingFileIsEmptyNotAnError() throws IOException {
        assertEquals(Optional.empty(), store().open("contract/missing.bin"));
        assertEquals(Optional.empty(), store().open("contract/missing.bin", 10, 10));
        assertEquals(Optional.empty(), store().open("contract/missing.bin", 0, 0));
    }

    @Test
    void aCommitReplacesTheEarlierFile() throws IOException {
        write(store(), "contract/replace.bin", bytes(1_000, 10));
        byte[] second = bytes(10, 11);
        write(store(), "contract/replace.bin", second);
        assertArrayEquals(second, read(store(), "contract/replace.bin"));
    }

    @Test
    void anUploadClosedWithoutCommitLeavesNothingAndKeepsTheEarlierFile() throws IOException {
        byte[] first = bytes(100, 12);
        write(store(), "contract/abort.bin", first);
        try (FileStore.Upload upload = store().create("contract/abort.bin")) {
            upload.stream().write(bytes(50_000, 13));
        }
        assertArrayEquals(first, read(store(), "contract/abort.bin"));
        try (FileStore.Upload upload = store().create("contract/never.bin")) {
            upload.stream().write(bytes(50_000, 14));
        }
        assertEquals(Optional.empty(), store().open("contract/never.bin"));
    }

    @Test
    void theWriterMayCloseTheStreamBeforeTheCommit() throws IOException {
        byte[] content = bytes(1_234, 15);
        try (FileStore.Upload upload = store().create("contract/closed.bin")) {
            OutputStream out = upload.stream();
            out.write(content);
            out.close();
            assertEquals(content.length, upload.commit());
        }
        assertArrayEquals(content, read(store(), "contract/closed.bin"));
    }

    @Test
    void refusesKeysThatAreNotRelativeSegments() {
        for (String key : List.of("/abs.bin", "a/../b.bin", "a//b.bin", ".hidden", "a b.bin")) {
            assertThrows(IllegalArgumentException.class, () -> store().create(key), key);
        }
    }
}
