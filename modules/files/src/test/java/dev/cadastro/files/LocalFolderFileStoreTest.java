package dev.cadastro.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.files.FileStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFolderFileStoreTest {
    @TempDir
    Path root;

    @Test
    void rangesAreClippedAtTheEndAndListsShowOnlyCommittedFiles() throws IOException {
        var store = new LocalFolderFileStore(root);
        byte[] bytes = "0123456789".getBytes(StandardCharsets.US_ASCII);
        try (var upload = store.create("register/gen-1/_0.cfs")) {
            upload.stream().write(bytes);
            upload.commit();
        }
        try (var pending = store.create("register/gen-1/_1.cfs")) {
            pending.stream().write(bytes);
            assertEquals(List.of(new FileStore.Entry("register/gen-1/_0.cfs", 10)), store.list("register/gen-1/"));
        }
        assertEquals(List.of(), store.list("register/gen-2/"));

        try (var part = store.open("register/gen-1/_0.cfs", 3, 4).orElseThrow()) {
            assertEquals(4, part.size());
            assertArrayEquals(Arrays.copyOfRange(bytes, 3, 7), part.stream().readAllBytes());
        }
        try (var tail = store.open("register/gen-1/_0.cfs", 8, 100).orElseThrow()) {
            assertEquals(2, tail.size());
            assertArrayEquals(Arrays.copyOfRange(bytes, 8, 10), tail.stream().readAllBytes());
        }
        try (var past = store.open("register/gen-1/_0.cfs", 50, 5).orElseThrow()) {
            assertEquals(0, past.size());
            assertEquals(-1, past.stream().read());
        }
        assertTrue(store.open("register/gen-1/missing", 0, 1).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> store.open("register/gen-1/_0.cfs", -1, 1));
        assertTrue(store.temporaryLink("register/gen-1/_0.cfs", Duration.ofHours(1))
                .isEmpty());
    }

    @Test
    void aListNamesOnlyTheKeysUnderItsPrefixWhateverLiesBesideThem() throws IOException {
        var store = new LocalFolderFileStore(root);
        for (String key : List.of(
                "mailing/1-1.zip",
                "mailing/2-1.zip",
                "mailing/old/3-1.zip",
                "mailings/4-1.zip",
                "mailing-5.zip",
                "register/gen-1/_0.cfs",
                "calls/rec/a.wav")) {
            try (var upload = store.create(key)) {
                upload.stream().write(key.getBytes(StandardCharsets.US_ASCII));
                upload.commit();
            }
        }
        assertEquals(
                List.of("mailing/1-1.zip", "mailing/2-1.zip", "mailing/old/3-1.zip"), keys(store.list("mailing/")));
        assertEquals(List.of("mailing/old/3-1.zip"), keys(store.list("mailing/o")));
        assertEquals(
                List.of(
                        "mailing-5.zip",
                        "mailing/1-1.zip",
                        "mailing/2-1.zip",
                        "mailing/old/3-1.zip",
                        "mailings/4-1.zip"),
                keys(store.list("mailing")));
        assertEquals(List.of(), keys(store.list("register/gen-2/")));
        assertEquals(List.of(), keys(store.list("../")), "nothing outside the root");
        assertEquals(List.of(), keys(store.list("mailing//")));
        assertEquals(7, store.list("").size());
        assertEquals(
                new FileStore.Entry("calls/rec/a.wav", 15), store.list("calls/").get(0));
    }

    private static List<String> keys(List<FileStore.Entry> entries) {
        return entries.stream().map(FileStore.Entry::key).toList();
    }

    @Test
    void removingOrphansWhileAnotherServerCommitsItsUploadsNeverFails() throws Exception {
        // Three servers share one folder: one starts (and sweeps orphans) while another commits uploads, each
        // a temporary renamed into place, some of them seen by the sweep's walk before the rename.
        LocalFolderFileStore store = new LocalFolderFileStore(root);
        LocalFolderFileStore other = new LocalFolderFileStore(root);
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<Thread> writers = new java.util.ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int id = w;
            writers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; running.get(); i++) {
                    try (FileStore.Upload u = other.create("calls/" + id + "/rec-" + (i % 50) + ".wav")) {
                        u.stream().write(new byte[] {1});
                        u.commit();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }));
        }
        try {
            for (int round = 0; round < 2_000; round++) {
                // Nothing is an hour old: the sweep only looks at each temporary's age, and must not fail on one
                // renamed away after the walk listed it.
                assertEquals(0, store.removeOrphans(java.time.Instant.now().minus(Duration.ofHours(1))));
            }
        } finally {
            running.set(false);
            for (Thread w : writers) {
                w.join();
            }
        }
    }
}
