package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The walk in CNPJ order visits every live document once, in increasing key order with equal keys
 * adjacent, each with its own document id, whatever the segments, the places' runs and the deletions.
 */
class CnpjOrderProperties {

    @Property(tries = 200)
    void visitsEveryLiveDocumentOnceInKeyOrder(
            @ForAll @IntRange(min = 0, max = 600) int documents,
            @ForAll @IntRange(min = 1, max = 6) int segments,
            @ForAll @IntRange(min = 1, max = 40) int places,
            @ForAll @IntRange(min = 0, max = 50) int deletedPercent,
            @ForAll long seed)
            throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        List<Long> live = new ArrayList<>();
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, fresh())) {
                for (int i = 0; i < documents; i++) {
                    // A few repeated keys, as duplicate CNPJs before they are dropped.
                    long key = random.nextInt(10) == 0 && !live.isEmpty()
                            ? live.get(random.nextInt(live.size()))
                            : random.nextLong(4_738_381_338_321_616_896L);
                    Document doc = new Document();
                    doc.add(new NumericDocValuesField(Schema.CNPJ_KEY, key));
                    doc.add(new NumericDocValuesField(Schema.GEO, random.nextInt(places)));
                    doc.add(new NumericDocValuesField("n", i));
                    w.addDocument(doc);
                    live.add(key);
                    if (random.nextInt(Math.max(1, documents / segments + 1)) == 0) {
                        w.commit();
                    }
                }
                w.commit();
            }
            List<Long> deleted = new ArrayList<>();
            try (IndexWriter w = new IndexWriter(dir, fresh());
                    DirectoryReader reader = DirectoryReader.open(w)) {
                for (int d = 0; d < reader.maxDoc(); d++) {
                    if (random.nextInt(100) < deletedPercent) {
                        w.tryDeleteDocument(reader, d);
                        deleted.add(value(reader, d, Schema.CNPJ_KEY));
                    }
                }
                w.commit();
            }
            for (Long k : deleted) {
                live.remove(k);
            }
            live.sort(null);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                List<Long> walked = new ArrayList<>();
                boolean[] seen = new boolean[reader.maxDoc()];
                long visited = CnpjOrder.walk(reader, (key, doc) -> {
                    assertEquals(key, value(reader, doc, Schema.CNPJ_KEY), "the key is the document's own");
                    if (seen[doc]) {
                        throw new AssertionError("document " + doc + " visited twice");
                    }
                    seen[doc] = true;
                    walked.add(key);
                });
                assertEquals(live, walked);
                assertEquals(reader.numDocs(), visited);
            }
        }
    }

    private static IndexWriterConfig fresh() {
        IndexWriterConfig config = new IndexWriterConfig();
        Schema.configure(config);
        config.setMergePolicy(NoMergePolicy.INSTANCE);
        return config;
    }

    private static long value(DirectoryReader reader, int doc, String field) throws IOException {
        List<LeafReaderContext> leaves = reader.leaves();
        LeafReaderContext ctx = leaves.get(ReaderUtil.subIndex(doc, leaves));
        NumericDocValues values = ctx.reader().getNumericDocValues(field);
        if (!values.advanceExact(doc - ctx.docBase)) {
            throw new AssertionError("document " + doc + " has no " + field);
        }
        return values.longValue();
    }
}
