package dev.cadastro.register.internal;

import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.RandomAccessInput;

/**
 * The generation's CNPJs in order, each with its document: a lookup is one binary search over a
 * memory-mapped array instead of a terms-dictionary seek in every segment (docs/adr/0030-record-store.md).
 *
 * <p>{@code cnpj.map}: Lucene's index header, then one entry per live document in increasing CNPJ order,
 * 12 bytes each (the CNPJ's key, {@link Schema#cnpjKey}, as a long; the top-level document id as an
 * int), the number of entries as a long, and Lucene's checksum footer. A CNPJ's key is its first twelve
 * characters in base 36; the two check digits follow from them, so keys are unique per CNPJ and ordered
 * as the CNPJs are. Written by the builder from the committed, deduplicated index, in the same
 * generation directory, so it is published by the same rename or not at all.
 */
public final class CnpjMap implements Closeable {
    public static final String NAME = "cnpj.map";
    static final String CODEC = "CadastroCnpjMap";
    static final int VERSION = 1;
    static final int ENTRY_BYTES = 12;
    /** Every this many entries, a key is held in the heap (70 M documents: 2.2 MB). */
    static final int SAMPLE = 256;

    private final IndexInput input;
    private final RandomAccessInput entries;
    private final long size;
    private final long[] samples;

    private CnpjMap(IndexInput input, RandomAccessInput entries, long size, long[] samples) {
        this.input = input;
        this.entries = entries;
        this.size = size;
        this.samples = samples;
    }

    /**
     * Writes the map of a committed generation's live documents, walked in CNPJ order from their keys'
     * doc values ({@link CnpjOrder}); returns the number of entries. Two live documents of one CNPJ fail it.
     */
    public static long write(DirectoryReader reader, Directory dir) throws IOException {
        long n;
        try (IndexOutput out = dir.createOutput(NAME, IOContext.DEFAULT)) {
            CodecUtil.writeIndexHeader(out, CODEC, VERSION, new byte[16], "");
            long[] previous = {-1};
            n = CnpjOrder.walk(reader, (key, doc) -> {
                if (key == previous[0]) {
                    throw new IOException("CNPJ key " + key + " has two live documents; duplicates were not dropped");
                }
                if (key < previous[0]) {
                    throw new IOException("CNPJ keys out of order at " + key + " after " + previous[0]);
                }
                previous[0] = key;
                out.writeLong(key);
                out.writeInt(doc);
            });
            out.writeLong(n);
            CodecUtil.writeFooter(out);
        }
        dir.sync(java.util.List.of(NAME));
        return n;
    }

    /** Verifies the whole file's checksum (after writing, before publishing). */
    public static void verify(Directory dir) throws IOException {
        try (ChecksumIndexInput in = dir.openChecksumInput(NAME)) {
            CodecUtil.checkIndexHeader(in, CODEC, VERSION, VERSION, new byte[16], "");
            in.seek(in.length() - CodecUtil.footerLength());
            CodecUtil.checkFooter(in);
        }
    }

    /**
     * Opens the map of a generation, or returns null when it has none (published before the map).
     *
     * @param documents the generation's live documents: the map must hold one entry each
     */
    public static CnpjMap openIfPresent(Directory dir, long documents) throws IOException {
        if (Arrays.asList(dir.listAll()).indexOf(NAME) < 0) {
            return null;
        }
        IndexInput in = dir.openInput(NAME, IOContext.DEFAULT);
        try {
            CodecUtil.checkIndexHeader(in, CODEC, VERSION, VERSION, new byte[16], "");
            long header = CodecUtil.indexHeaderLength(CODEC, "");
            CodecUtil.retrieveChecksum(in);
            long end = in.length() - CodecUtil.footerLength();
            in.seek(end - Long.BYTES);
            long size = in.readLong();
            if (size != documents || header + size * ENTRY_BYTES + Long.BYTES != end) {
                throw new IOException(NAME + " holds " + size + " CNPJs in " + in.length()
                        + " bytes; the generation has " + documents + " documents");
            }
            RandomAccessInput entries = in.randomAccessSlice(header, size * ENTRY_BYTES);
            long[] samples = new long[(int) ((size + SAMPLE - 1) / SAMPLE)];
            for (int i = 0; i < samples.length; i++) {
                samples[i] = entries.readLong((long) i * SAMPLE * ENTRY_BYTES);
            }
            return new CnpjMap(in, entries, size, samples);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** The top-level document of the CNPJ with this key, or -1 when the generation has none. */
    public int document(long key) throws IOException {
        int s = Arrays.binarySearch(samples, key);
        if (s >= 0) {
            return entries.readInt((long) s * SAMPLE * ENTRY_BYTES + Long.BYTES);
        }
        int block = -s - 2;
        if (block < 0) {
            return -1;
        }
        long lo = (long) block * SAMPLE + 1;
        long hi = Math.min(size, (long) (block + 1) * SAMPLE) - 1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            long k = entries.readLong(mid * ENTRY_BYTES);
            if (k < key) {
                lo = mid + 1;
            } else if (k > key) {
                hi = mid - 1;
            } else {
                return entries.readInt(mid * ENTRY_BYTES + Long.BYTES);
            }
        }
        return -1;
    }

    /** Heap held: the sampled keys. */
    public long bytes() {
        return (long) samples.length * Long.BYTES;
    }

    @Override
    public void close() throws IOException {
        input.close();
    }
}
