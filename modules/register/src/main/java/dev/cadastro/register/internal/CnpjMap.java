package dev.cadastro.register.internal;

import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.LongValues;
import org.apache.lucene.util.packed.DirectReader;
import org.apache.lucene.util.packed.DirectWriter;

/**
 * The generation's CNPJs in order, each with its document: a lookup is one binary search over a
 * memory-mapped array instead of a terms-dictionary seek in every segment (docs/adr/0030-record-store.md).
 *
 * <p>{@code cnpj.map}, version 2 (docs/adr/0034-smaller-records-and-map.md): Lucene's index header; the
 * top-level document ids of the live documents in increasing CNPJ order, packed at the bits the largest
 * document id needs ({@link DirectWriter}, 28 bits at 70 M); a {@value #FINGERPRINT_BITS}-bit fingerprint of
 * each entry's CNPJ key ({@link Schema#cnpjKey}); every {@value #SAMPLE}th entry's key as a long; a trailer
 * (where each part starts, the bits per id, the number of entries); Lucene's checksum footer. The other
 * keys are not stored: a lookup finds the run of {@value #SAMPLE} entries by a binary search over the
 * sampled keys (held in the heap), scans the run's fingerprints outwards from where the key falls
 * between the run's two sampled keys, and lets the caller check an entry whose fingerprint matches
 * ({@link #find}: a lookup reads the entry's record and compares its CNPJ; {@link #document} compares the
 * {@code cnpjkey} doc value). A wrong match costs a second read for about 3% of the keys that are not in
 * the map (127 other entries of 4,096 fingerprints); for keys that are, less: the scan usually meets the
 * key's own entry within a few entries. A CNPJ's key is its first twelve characters in base 36; the two
 * check digits follow from them, so keys are unique per CNPJ and ordered as the CNPJs are.
 *
 * <p>Written by the builder from the committed, deduplicated index, in the same generation directory, so
 * it is published by the same rename or not at all.
 */
public final class CnpjMap implements Closeable {
    public static final String NAME = "cnpj.map";
    static final String CODEC = "CadastroCnpjMap";
    static final int VERSION = 2;
    /** Every this many entries, a key is stored and held in the heap (70 M documents: 4.4 MB). */
    static final int SAMPLE = 128;
    /** Bits of each entry's key fingerprint (a false match in a run for 127 / 4096 of lookups). */
    static final int FINGERPRINT_BITS = 12;

    private static final int TRAILER_BYTES = Long.BYTES * 4 + Integer.BYTES;

    private final IndexInput input;
    private final long size;
    private final long[] samples;
    /** The packed document ids and key fingerprints, and the reader whose doc values give the keys. */
    private final LongValues docs;

    private final LongValues fingerprints;

    private final DirectoryReader reader;

    private CnpjMap(
            IndexInput input,
            long size,
            long[] samples,
            LongValues docs,
            LongValues fingerprints,
            DirectoryReader reader) {
        this.input = input;
        this.size = size;
        this.samples = samples;
        this.docs = docs;
        this.fingerprints = fingerprints;
        this.reader = reader;
    }

    /**
     * Writes the map of a committed generation's live documents, walked in CNPJ order from their keys'
     * doc values ({@link CnpjOrder}); returns the number of entries. Two live documents of one CNPJ fail it.
     */
    public static long write(DirectoryReader reader, Directory dir) throws IOException {
        long live = reader.numDocs();
        int bits = DirectWriter.unsignedBitsRequired(Math.max(1, reader.maxDoc() - 1));
        long n;
        try (IndexOutput out = dir.createOutput(NAME, IOContext.DEFAULT)) {
            CodecUtil.writeIndexHeader(out, CODEC, VERSION, new byte[16], "");
            long idsStart = out.getFilePointer();
            DirectWriter ids = DirectWriter.getInstance(out, live, bits);
            long[] samples = new long[(int) ((live + SAMPLE - 1) / SAMPLE)];
            // 2 bytes a document while writing (140 MB at 70 M), then packed at 12 bits after the ids.
            short[] prints = new short[Math.toIntExact(live)];
            long[] previous = {-1};
            long[] count = {0};
            n = CnpjOrder.walk(reader, (key, doc) -> {
                if (key == previous[0]) {
                    throw new IOException("CNPJ key " + key + " has two live documents; duplicates were not dropped");
                }
                if (key < previous[0]) {
                    throw new IOException("CNPJ keys out of order at " + key + " after " + previous[0]);
                }
                if (count[0] >= live) {
                    throw new IOException("the CNPJ walk gave more than the " + live + " live documents");
                }
                previous[0] = key;
                if (count[0] % SAMPLE == 0) {
                    samples[(int) (count[0] / SAMPLE)] = key;
                }
                ids.add(doc);
                prints[(int) count[0]] = (short) fingerprint(key);
                count[0]++;
            });
            if (n != live) {
                throw new IOException("the CNPJ walk gave " + n + " documents for " + live + " live ones");
            }
            ids.finish();
            long printsStart = out.getFilePointer();
            DirectWriter printWriter = DirectWriter.getInstance(out, live, FINGERPRINT_BITS);
            for (short p : prints) {
                printWriter.add(p & 0xFFFF);
            }
            printWriter.finish();
            long samplesStart = out.getFilePointer();
            for (long key : samples) {
                out.writeLong(key);
            }
            out.writeLong(idsStart);
            out.writeLong(printsStart);
            out.writeLong(samplesStart);
            out.writeInt(bits);
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
     * Opens the map of a generation.
     *
     * @param reader the generation's reader: the map must hold one entry for each of its live documents, and
     *     reads the keys it compares from its doc values (the map must not outlive it)
     * @throws org.apache.lucene.index.IndexFormatTooOldException when the map is of an earlier format
     */
    public static CnpjMap open(Directory dir, DirectoryReader reader) throws IOException {
        long documents = reader.numDocs();
        IndexInput in = dir.openInput(NAME, IOContext.DEFAULT);
        try {
            CodecUtil.checkIndexHeader(in, CODEC, VERSION, VERSION, new byte[16], "");
            long header = CodecUtil.indexHeaderLength(CODEC, "");
            CodecUtil.retrieveChecksum(in);
            long end = in.length() - CodecUtil.footerLength();
            if (end - header < TRAILER_BYTES) {
                throw new IOException(NAME + " is too short (" + in.length() + " bytes)");
            }
            in.seek(end - TRAILER_BYTES);
            long idsStart = in.readLong();
            long printsStart = in.readLong();
            long samplesStart = in.readLong();
            int bits = in.readInt();
            long size = in.readLong();
            long sampled = (size + SAMPLE - 1) / SAMPLE;
            if (size != documents) {
                throw new IOException(
                        NAME + " holds " + size + " CNPJs; the generation has " + documents + " documents");
            }
            int expectedBits = DirectWriter.unsignedBitsRequired(Math.max(1, reader.maxDoc() - 1));
            if (bits != expectedBits) {
                throw new IOException(NAME + " packs document ids at " + bits + " bits; the generation's "
                        + reader.maxDoc() + " documents need " + expectedBits);
            }
            // Every part at exactly its place: the file's checksum is not verified on open, so a wrong trailer
            // would otherwise misread ids as fingerprints and miss keys without an error.
            if (idsStart != header
                    || printsStart != idsStart + DirectWriter.bytesRequired(size, bits)
                    || samplesStart != printsStart + DirectWriter.bytesRequired(size, FINGERPRINT_BITS)
                    || samplesStart + sampled * Long.BYTES + TRAILER_BYTES != end) {
                throw new IOException(NAME + "'s parts are not where " + size + " entries put them (ids at "
                        + idsStart + ", fingerprints at " + printsStart + ", samples at " + samplesStart + ", "
                        + in.length() + " bytes in all)");
            }
            LongValues ids = DirectReader.getInstance(in.randomAccessSlice(idsStart, printsStart - idsStart), bits);
            LongValues prints = DirectReader.getInstance(
                    in.randomAccessSlice(printsStart, samplesStart - printsStart), FINGERPRINT_BITS);
            long[] samples = new long[(int) sampled];
            in.seek(samplesStart);
            for (int i = 0; i < samples.length; i++) {
                samples[i] = in.readLong();
            }
            return new CnpjMap(in, size, samples, ids, prints, reader);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** What {@link #find} does with a candidate document: the answer, or null when it is not the key's. */
    @FunctionalInterface
    public interface Candidate<T> {
        T test(int doc) throws IOException;
    }

    /**
     * A non-null answer of {@code candidate} for the documents that may hold the key, or null: the
     * entries of the key's run whose fingerprint matches, in no set order (the scan starts at the key's
     * interpolated place; a wrong match for about 3% of absent keys, fewer for present ones), with no
     * doc-values read, so {@code candidate} must answer only for the key's own document (a lookup reads
     * the record and compares its CNPJ).
     */
    public <T> T find(long key, Candidate<T> candidate) throws IOException {
        int s = Arrays.binarySearch(samples, key);
        if (s >= 0) {
            return candidate.test(doc((long) s * SAMPLE));
        }
        int block = -s - 2;
        if (block < 0) {
            return null;
        }
        long lo = (long) block * SAMPLE + 1;
        long hi = Math.min(size, (long) (block + 1) * SAMPLE) - 1;
        // The run's entries are in key order: start where the key falls between the run's two sampled
        // keys and scan outwards, so a present key is usually met in a few entries instead of half a run.
        long print = fingerprint(key);
        long guess = lo;
        if (block + 1 < samples.length) {
            double share = (double) (key - samples[block]) / (double) (samples[block + 1] - samples[block]);
            guess = Math.clamp((long) block * SAMPLE + Math.round(share * SAMPLE), lo, hi);
        }
        for (long up = guess, down = guess - 1; up <= hi || down >= lo; up++, down--) {
            if (up <= hi && fingerprints.get(up) == print) {
                T answer = candidate.test(doc(up));
                if (answer != null) {
                    return answer;
                }
            }
            if (down >= lo && fingerprints.get(down) == print) {
                T answer = candidate.test(doc(down));
                if (answer != null) {
                    return answer;
                }
            }
        }
        return null;
    }

    /**
     * The top-level document of the CNPJ with this key, or -1 when the generation has none: {@link #find}
     * with a candidate checked against its {@code cnpjkey} doc value.
     */
    public int document(long key) throws IOException {
        Integer doc = find(key, d -> keyOf(d) == key ? d : null);
        return doc == null ? -1 : doc;
    }

    /** The top {@value #FINGERPRINT_BITS} bits of a mix of the key (MurmurHash3's 64-bit finalizer). */
    static long fingerprint(long key) {
        return Mix.fmix64(key) >>> (64 - FINGERPRINT_BITS);
    }

    private int doc(long entry) {
        return (int) docs.get(entry);
    }

    /** A document's key, from its {@code cnpjkey} doc value. */
    private long keyOf(int doc) throws IOException {
        List<LeafReaderContext> leaves = reader.leaves();
        LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        NumericDocValues keys = leaf.reader().getNumericDocValues(Schema.CNPJ_KEY);
        if (keys == null || !keys.advanceExact(doc - leaf.docBase)) {
            throw new IOException("document " + doc + " of " + NAME + " has no CNPJ key");
        }
        return keys.longValue();
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
