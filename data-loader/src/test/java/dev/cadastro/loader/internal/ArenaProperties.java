package dev.cadastro.loader.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Records written to the arena read back intact, never straddle a chunk, and leave no file behind. */
class ArenaProperties {
    @Property(tries = 200)
    void readsBackEveryRecordAcrossChunkBoundaries(
            @ForAll @Size(max = 200) List<@IntRange(min = 1, max = 1024) Integer> sizes) throws IOException {
        Path dir = Files.createTempDirectory("arena");
        try (Arena arena = new Arena(dir, "test", 12)) {
            try (Stream<Path> files = Files.list(dir)) {
                assertEquals(0, files.count(), "the scratch file is unlinked as soon as it is open");
            }
            List<Integer> addresses = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) {
                int size = sizes.get(i);
                int address = arena.reserve(size);
                ByteBuffer chunk = arena.chunk(address);
                int offset = arena.offset(address);
                assertTrue(offset + size <= chunk.capacity(), "a record never straddles two chunks");
                chunk.put(offset, pattern(i, size));
                addresses.add(address);
            }
            for (int i = 0; i < sizes.size(); i++) {
                int address = addresses.get(i);
                byte[] read = new byte[sizes.get(i)];
                arena.chunk(address).get(arena.offset(address), read);
                assertArrayEquals(pattern(i, sizes.get(i)), read, "record " + i);
            }
        } finally {
            Files.delete(dir);
        }
    }

    private static byte[] pattern(int record, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (record * 31 + i);
        }
        return b;
    }
}
