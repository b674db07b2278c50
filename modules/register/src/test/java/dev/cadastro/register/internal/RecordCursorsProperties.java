package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * Lookups in any document order, some overlapping (borrowers that have not given their cursor back),
 * read every document's own record through the reused cursors: a cursor is never lent to two borrowers
 * at once, a cursor given back serves the next document at or after its position, the pool never holds
 * more than {@link RecordCursors#KEEP} idle cursors, and threads sharing the pool each read their own
 * records. Sparse stores (documents without a record) are included: their cursors refuse to move back,
 * so a cursor lent past its document would fail the read.
 */
class RecordCursorsProperties {

    @Property(tries = 60)
    void everyReadFindsItsOwnRecordInAnyOrder(
            @ForAll @IntRange(min = 1, max = 2_000) int documents,
            @ForAll @IntRange(min = 1, max = 8) int overlap,
            @ForAll boolean sparse,
            @ForAll long seed)
            throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            List<Integer> withRecord = index(dir, documents, sparse, random);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                RecordCursors cursors = new RecordCursors(reader.leaves().get(0).reader());
                List<BinaryDocValues> lent = new ArrayList<>();
                Set<BinaryDocValues> out = Collections.newSetFromMap(new IdentityHashMap<>());
                for (int step = 0; step < 600; step++) {
                    int doc = withRecord.get(random.nextInt(withRecord.size()));
                    BinaryDocValues cursor = cursors.take(doc);
                    assertTrue(out.add(cursor), "a cursor lent twice");
                    assertTrue(cursor.docID() <= doc, "lent a cursor past the document");
                    assertTrue(cursor.advanceExact(doc));
                    assertEquals(record(doc), BytesRef.deepCopyOf(cursor.binaryValue()));
                    lent.add(cursor);
                    // Give back in any order, keeping up to `overlap` lent at once.
                    while (lent.size() >= overlap || (!lent.isEmpty() && random.nextBoolean())) {
                        BinaryDocValues back = lent.remove(random.nextInt(lent.size()));
                        out.remove(back);
                        int at = back.docID();
                        boolean room = cursors.idle() < RecordCursors.KEEP;
                        cursors.give(back);
                        if (room) {
                            // Kept: it (or one at its very position) serves its position.
                            BinaryDocValues again = cursors.take(at);
                            assertEquals(at, again.docID(), "opened a new cursor where an idle one served");
                            cursors.give(again);
                        }
                    }
                    assertTrue(cursors.idle() <= RecordCursors.KEEP);
                }
            }
        }
    }

    @Example
    void aCursorGivenBackIsTheOneLentNext() throws IOException {
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            index(dir, 100, false, new SplittableRandom(1));
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                RecordCursors cursors = new RecordCursors(reader.leaves().get(0).reader());
                BinaryDocValues first = cursors.take(40);
                assertTrue(first.advanceExact(40));
                cursors.give(first);
                assertSame(first, cursors.take(41), "the idle cursor at 40 serves 41");
                BinaryDocValues other = cursors.take(10);
                assertNotSame(first, other);
                assertEquals(-1, other.docID(), "nothing idle at or before 10: a new cursor");
            }
        }
    }

    @Example
    void threadsSharingThePoolReadTheirOwnRecords() throws Exception {
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            List<Integer> withRecord = index(dir, 5_000, true, new SplittableRandom(7));
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                RecordCursors cursors = new RecordCursors(reader.leaves().get(0).reader());
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    SplittableRandom random = new SplittableRandom(100 + t);
                    threads.add(Thread.ofPlatform().start(() -> {
                        try {
                            for (int i = 0; i < 20_000; i++) {
                                int doc = withRecord.get(random.nextInt(withRecord.size()));
                                BinaryDocValues cursor = cursors.take(doc);
                                if (!cursor.advanceExact(doc)
                                        || !record(doc).equals(BytesRef.deepCopyOf(cursor.binaryValue()))) {
                                    throw new AssertionError("document " + doc + " read another record");
                                }
                                cursors.give(cursor);
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
                assertTrue(failures.isEmpty(), () -> "failures: " + failures);
                assertFalse(cursors.idle() > RecordCursors.KEEP);
            }
        }
    }

    /** One segment of {@code documents}; when sparse, about a third have no record. Returns those that have one. */
    private static List<Integer> index(ByteBuffersDirectory dir, int documents, boolean sparse, SplittableRandom random)
            throws IOException {
        List<Integer> withRecord = new ArrayList<>();
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
            for (int i = 0; i < documents; i++) {
                Document doc = new Document();
                doc.add(new StringField("id", Integer.toString(i), StringField.Store.NO));
                if (!sparse || random.nextInt(3) != 0 || i == 0) {
                    doc.add(new BinaryDocValuesField(Schema.RECORD, record(i)));
                    withRecord.add(i);
                }
                w.addDocument(doc);
            }
            w.forceMerge(1);
        }
        return withRecord;
    }

    private static BytesRef record(int doc) {
        return new BytesRef(("record of " + doc).getBytes(StandardCharsets.UTF_8));
    }
}
