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
    /** 256 MB chunks. */
    static final int CHUNK_BITS = 28;

    private final int chunkBits;
    private final long chunk;
    private final long mask;

    private final Path file;
    private final FileChannel channel;
    private final List<MappedByteBuffer> chunks = new ArrayList<>();
    private long next = 8;

    public Arena(Path dir, String name) {
        this(dir, name, CHUNK_BITS);
    }

    /** An arena of {@code 2^chunkBits}-byte chunks (small ones let tests cross chunk boundaries). */
    Arena(Path dir, String name, int chunkBits) {
        this.chunkBits = chunkBits;
        this.chunk = 1L << chunkBits;
        this.mask = chunk - 1;
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
        if (size > chunk) {
            throw new IllegalArgumentException("record of " + size + " bytes exceeds the chunk size " + chunk);
        }
        long at = next;
        if ((at & mask) + size > chunk) {
            at = (at | mask) + 1;
        }
        ensure(at + size);
        next = (at + size + 7) & ~7L;
        if ((at >>> 3) > 0xFFFF_FFFFL) {
            throw new IllegalStateException("the scratch arena exceeds 32 GB");
        }
        return (int) (at >>> 3);
    }

    private void ensure(long end) {
        int needed = (int) ((end - 1) >>> chunkBits) + 1;
        while (chunks.size() < needed) {
            try {
                chunks.add(channel.map(FileChannel.MapMode.READ_WRITE, chunks.size() * chunk, chunk));
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
        return chunks.get((int) (position(address) >>> chunkBits));
    }

    /** The offset of an address within its {@link #chunk}. */
    public int offset(int address) {
        return (int) (position(address) & mask);
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
