package dev.cadastro.loader.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * An append-only store of byte records outside the Java heap: chunks of a memory-mapped scratch file,
 * so the joined company data of a full dump (several GB) costs page cache, not heap. The file is
 * unlinked as soon as it is opened (on systems that allow it), so a killed loader leaves nothing
 * behind. Records are 8-byte aligned and never straddle two chunks; a record is addressed by its
 * position divided by 8 (an int addresses 16 GB). Position 0 is never used, so address 0 means
 * "absent". Appends and reads are single-threaded.
 */
public final class Arena implements Closeable {
    static final int CHUNK_BITS = 28;
    static final long CHUNK = 1L << CHUNK_BITS;
    private static final long MASK = CHUNK - 1;

    private final Path file;
    private final FileChannel channel;
    private final List<MappedByteBuffer> chunks = new ArrayList<>();
    private long next = 8;

    public Arena(Path dir, String name) {
        try {
            Files.createDirectories(dir);
            file = Files.createTempFile(dir, name + "-", ".arena");
            channel = FileChannel.open(
                    file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // Systems that cannot unlink an open file delete it on close instead.
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch file in " + dir, e);
        }
    }

    /** Reserves {@code size} bytes (at most one chunk) and returns the address of the record. */
    public int reserve(int size) {
        if (size > CHUNK) {
            throw new IllegalArgumentException("record of " + size + " bytes exceeds the chunk size " + CHUNK);
        }
        long at = next;
        if ((at & MASK) + size > CHUNK) {
            at = (at | MASK) + 1;
        }
        ensure(at + size);
        next = (at + size + 7) & ~7L;
        if ((at >>> 3) > 0xFFFF_FFFFL) {
            throw new IllegalStateException("the scratch arena exceeds 32 GB");
        }
        return (int) (at >>> 3);
    }

    private void ensure(long end) {
        int needed = (int) ((end - 1) >>> CHUNK_BITS) + 1;
        while (chunks.size() < needed) {
            try {
                chunks.add(channel.map(FileChannel.MapMode.READ_WRITE, chunks.size() * CHUNK, CHUNK));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot map scratch file " + file, e);
            }
        }
    }

    private static long position(int address) {
        return Integer.toUnsignedLong(address) << 3;
    }

    /** The buffer holding an address, positioned nowhere: use absolute accessors with {@link #offset}. */
    public ByteBuffer chunk(int address) {
        return chunks.get((int) (position(address) >>> CHUNK_BITS));
    }

    public static int offset(int address) {
        return (int) (position(address) & MASK);
    }

    /** Bytes reserved so far. */
    public long used() {
        return next;
    }

    @Override
    public void close() {
        chunks.clear();
        try {
            channel.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove scratch file " + file, e);
        }
    }
}
