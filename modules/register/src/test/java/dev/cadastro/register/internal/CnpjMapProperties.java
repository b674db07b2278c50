package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * The CNPJ map finds the document of every live key and no document for any other key, whatever the
 * segments, deletions and number of entries (it reads the keys it compares from the doc values); a
 * map of the earlier layout is refused as too old.
 */
class CnpjMapProperties {

    @Property(tries = 120)
    void findsEveryLiveKeyAndNothingElse(
            @ForAll @IntRange(min = 0, max = 3_000) int documents,
            @ForAll @IntRange(min = 1, max = 5) int segments,
            @ForAll @IntRange(min = 0, max = 40) int deletedPercent,
            @ForAll @IntRange(min = 0, max = 2) int keyShape,
            @ForAll long seed)
            throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        Set<Long> used = new HashSet<>();
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, fresh())) {
                for (int i = 0; i < documents; i++) {
                    long key;
                    do {
                        // Dense keys (1): neighbours differ by one, so a probe one off finds the wrong
                        // entry. Clustered keys (2): four tight bunches far apart, so a run spanning two
                        // of them puts the interpolated start of the scan far from the key, at either end.
                        key = switch (keyShape) {
                            case 1 -> 1_000 + random.nextInt(documents * 2 + 1);
                            case 2 -> (1L + random.nextInt(4)) * 1_000_000_000_000L + random.nextInt(documents * 3 + 1);
                            default -> random.nextLong(4_738_381_338_321_616_896L);
                        };
                    } while (!used.add(key));
                    Document doc = new Document();
                    doc.add(new NumericDocValuesField(Schema.CNPJ_KEY, key));
                    doc.add(new NumericDocValuesField(Schema.GEO, random.nextInt(30)));
                    w.addDocument(doc);
                    if (random.nextInt(Math.max(1, documents / segments + 1)) == 0) {
                        w.commit();
                    }
                }
                w.commit();
            }
            try (IndexWriter w = new IndexWriter(dir, fresh());
                    DirectoryReader reader = DirectoryReader.open(w)) {
                for (int d = 0; d < reader.maxDoc(); d++) {
                    if (random.nextInt(100) < deletedPercent) {
                        w.tryDeleteDocument(reader, d);
                    }
                }
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                TreeMap<Long, Integer> live = liveKeys(reader);
                assertEquals(live.size(), CnpjMap.write(reader, dir));
                CnpjMap.verify(dir);
                check(dir, reader, live, random);
            }
        }
    }

    private static void check(
            ByteBuffersDirectory dir, DirectoryReader reader, TreeMap<Long, Integer> live, SplittableRandom random)
            throws IOException {
        try (CnpjMap map = CnpjMap.open(dir, reader)) {
            for (var e : live.entrySet()) {
                long key = e.getKey();
                assertEquals(e.getValue(), map.document(key), "key " + key);
                // What a lookup does: every candidate checked against the document's own key.
                assertEquals(e.getValue(), map.find(key, doc -> keyOf(reader, doc) == key ? doc : null));
                for (long near : new long[] {key - 1, key + 1}) {
                    if (!live.containsKey(near)) {
                        assertEquals(-1, map.document(near), "absent key " + near);
                        assertNull(map.<Integer>find(near, doc -> keyOf(reader, doc) == near ? doc : null));
                    }
                }
            }
            for (int i = 0; i < 200; i++) {
                long k = random.nextLong(4_738_381_338_321_616_896L);
                assertEquals(live.getOrDefault(k, -1), map.document(k));
                assertEquals(live.get(k), map.find(k, doc -> keyOf(reader, doc) == k ? doc : null));
            }
            assertEquals(-1, map.document(-1));
            assertEquals(-1, map.document(Long.MAX_VALUE));
        }
    }

    @Property(tries = 30)
    void aMapOfAnotherSizeDoesNotOpen(@ForAll @IntRange(min = 1, max = 500) int documents) throws IOException {
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, fresh())) {
                for (int i = 0; i < documents; i++) {
                    Document doc = new Document();
                    doc.add(new NumericDocValuesField(Schema.CNPJ_KEY, i * 7L));
                    doc.add(new NumericDocValuesField(Schema.GEO, i % 3));
                    w.addDocument(doc);
                }
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                CnpjMap.write(reader, dir);
            }
            try (IndexWriter w = new IndexWriter(dir, fresh())) {
                Document doc = new Document();
                doc.add(new NumericDocValuesField(Schema.CNPJ_KEY, -5L));
                doc.add(new NumericDocValuesField(Schema.GEO, 0));
                w.addDocument(doc);
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IOException e = assertThrows(IOException.class, () -> CnpjMap.open(dir, reader));
                assertTrue(
                        e.getMessage().contains("the generation has " + (documents + 1) + " documents"),
                        e.getMessage());
            }
        }
    }

    /**
     * A version 2 map whose trailer moves a part's start (the file's checksum is not verified on open) is
     * refused when opened, rather than misreading ids as fingerprints and missing keys.
     */
    @Property(tries = 30)
    void aMapWhosePartsAreMovedDoesNotOpen(
            @ForAll @IntRange(min = 1, max = 2_000) int documents,
            @ForAll @IntRange(min = 0, max = 2) int field,
            @ForAll @IntRange(min = -64, max = 64) int shift)
            throws IOException {
        net.jqwik.api.Assume.that(shift != 0);
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, fresh())) {
                for (int i = 0; i < documents; i++) {
                    Document doc = new Document();
                    doc.add(new NumericDocValuesField(Schema.CNPJ_KEY, 1_000_000L + i * 37L));
                    doc.add(new NumericDocValuesField(Schema.GEO, i % 3));
                    w.addDocument(doc);
                }
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                CnpjMap.write(reader, dir);
                byte[] bytes;
                try (var in = dir.openInput(CnpjMap.NAME, IOContext.DEFAULT)) {
                    bytes = new byte[(int) in.length()];
                    in.readBytes(bytes, 0, bytes.length);
                }
                // The trailer: ids, fingerprints and samples starts (longs), bits (int), size (long); then the footer.
                var buffer = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                int trailer = bytes.length - CodecUtil.footerLength() - (4 * Long.BYTES + Integer.BYTES);
                int at = trailer + field * Long.BYTES;
                buffer.putLong(at, buffer.getLong(at) + shift);
                dir.deleteFile(CnpjMap.NAME);
                try (IndexOutput out = dir.createOutput(CnpjMap.NAME, IOContext.DEFAULT)) {
                    out.writeBytes(bytes, bytes.length);
                }
                IOException e = assertThrows(IOException.class, () -> CnpjMap.open(dir, reader));
                assertTrue(e.getMessage().contains("are not where"), e.getMessage());
            }
        }
    }

    /** A map of the first layout (12-byte entries: key, document; the count; Lucene's footer) is too old. */
    @Example
    void aMapOfTheFirstLayoutIsRefusedAsTooOld() throws IOException {
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, fresh())) {
                Document doc = new Document();
                doc.add(new NumericDocValuesField(Schema.CNPJ_KEY, 42L));
                doc.add(new NumericDocValuesField(Schema.GEO, 0));
                w.addDocument(doc);
                w.commit();
            }
            try (IndexOutput out = dir.createOutput(CnpjMap.NAME, IOContext.DEFAULT)) {
                CodecUtil.writeIndexHeader(out, CnpjMap.CODEC, 1, new byte[16], "");
                out.writeLong(42L);
                out.writeInt(0);
                out.writeLong(1);
                CodecUtil.writeFooter(out);
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexFormatTooOldException e =
                        assertThrows(IndexFormatTooOldException.class, () -> CnpjMap.open(dir, reader));
                assertEquals(1, e.getVersion());
            }
        }
    }

    private static TreeMap<Long, Integer> liveKeys(DirectoryReader reader) throws IOException {
        TreeMap<Long, Integer> live = new TreeMap<>();
        List<LeafReaderContext> leaves = reader.leaves();
        for (LeafReaderContext ctx : leaves) {
            NumericDocValues values = ctx.reader().getNumericDocValues(Schema.CNPJ_KEY);
            var liveDocs = ctx.reader().getLiveDocs();
            for (int d = 0; d < ctx.reader().maxDoc(); d++) {
                if (liveDocs != null && !liveDocs.get(d)) {
                    continue;
                }
                if (!values.advanceExact(d)) {
                    throw new AssertionError("no key for " + d);
                }
                live.put(values.longValue(), ctx.docBase + d);
            }
        }
        return live;
    }

    private static long keyOf(DirectoryReader reader, int doc) throws IOException {
        List<LeafReaderContext> leaves = reader.leaves();
        LeafReaderContext ctx = leaves.get(ReaderUtil.subIndex(doc, leaves));
        NumericDocValues values = ctx.reader().getNumericDocValues(Schema.CNPJ_KEY);
        if (!values.advanceExact(doc - ctx.docBase)) {
            throw new AssertionError("no key for " + doc);
        }
        return values.longValue();
    }

    private static IndexWriterConfig fresh() {
        IndexWriterConfig config = new IndexWriterConfig();
        Schema.configure(config);
        config.setMergePolicy(NoMergePolicy.INSTANCE);
        return config;
    }
}
