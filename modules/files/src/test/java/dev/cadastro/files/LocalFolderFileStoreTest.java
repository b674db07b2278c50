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
}
