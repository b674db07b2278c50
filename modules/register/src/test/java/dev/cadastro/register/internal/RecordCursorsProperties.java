package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * Lookups in any document order, some overlapping (borrowers that have not given their cursor back),
 * read every document's own record through the reused cursors, and the pool never holds more than
 * {@link RecordCursors#KEEP} idle cursors.
 */
class RecordCursorsProperties {

    @Property(tries = 60)
    void everyReadFindsItsOwnRecordInAnyOrder(
            @ForAll @IntRange(min = 1, max = 2_000) int documents,
            @ForAll @IntRange(min = 1, max = 8) int overlap,
            @ForAll long seed)
            throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
                for (int i = 0; i < documents; i++) {
                    Document doc = new Document();
                    doc.add(new BinaryDocValuesField(Schema.RECORD, record(i)));
                    w.addDocument(doc);
                }
                w.forceMerge(1);
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                LeafReader leaf = reader.leaves().get(0).reader();
                RecordCursors cursors = new RecordCursors(leaf);
                List<BinaryDocValues> lent = new ArrayList<>();
                for (int step = 0; step < 600; step++) {
                    int doc = random.nextInt(documents);
                    BinaryDocValues cursor = cursors.take(doc);
                    assertTrue(cursor.docID() <= doc, "lent a cursor past the document");
                    assertTrue(cursor.advanceExact(doc));
                    assertEquals(record(doc), BytesRef.deepCopyOf(cursor.binaryValue()));
                    lent.add(cursor);
                    // Give back in any order, keeping up to `overlap` lent at once.
                    while (lent.size() >= overlap || (!lent.isEmpty() && random.nextBoolean())) {
                        cursors.give(lent.remove(random.nextInt(lent.size())));
                    }
                    assertTrue(cursors.idle() <= RecordCursors.KEEP);
                }
            }
        }
    }

    private static BytesRef record(int doc) {
        return new BytesRef(("record of " + doc).getBytes(StandardCharsets.UTF_8));
    }
}
