package dev.cadastro.register.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.util.Bits;

/**
 * The live documents of a generation in increasing CNPJ order, read from the {@link Schema#CNPJ_KEY} doc
 * values: what the CNPJ map and the builder's duplicate detection walk, with no term per CNPJ in the index
 * (docs/adr/0033-no-cnpj-term.md).
 *
 * <p>The index is sorted by (state and municipality, CNPJ key), so each segment is a series of runs of
 * increasing keys, one per municipality; the walk is a k-way merge of those runs (at 70 M on four
 * segments, some 22,000; 128,000 on 23), each reading its live documents' keys 64 at a time, with a
 * binary heap of the runs' next keys. Memory: the heap and each run's buffer of 64 keys and documents,
 * about 860 bytes a run (19 MB at 22,000 runs, 110 MB at 128,000); no array of all the keys. Two
 * documents of the same CNPJ come out one after the other.
 */
public final class CnpjOrder {
    /** Receives each live document once, in increasing key order (equal keys adjacent). */
    @FunctionalInterface
    public interface Visitor {
        /**
         * @param key the document's {@link Schema#cnpjKey}
         * @param doc its top-level document id in the walked reader
         */
        void visit(long key, int doc) throws IOException;
    }

    private CnpjOrder() {}

    /** Walks the live documents of {@code reader} in increasing key order; returns how many were visited. */
    public static long walk(IndexReader reader, Visitor visitor) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (LeafReaderContext ctx : reader.leaves()) {
            findRuns(ctx, runs);
        }
        // A binary min-heap of runs by their next key, the keys inline so a comparison reads no run.
        int[] heap = new int[runs.size()];
        long[] heapKeys = new long[runs.size()];
        int size = 0;
        for (int r = 0; r < runs.size(); r++) {
            Run run = runs.get(r);
            if (run.next()) {
                int i = size++;
                while (i > 0 && heapKeys[(i - 1) >>> 1] > run.key) {
                    heap[i] = heap[(i - 1) >>> 1];
                    heapKeys[i] = heapKeys[(i - 1) >>> 1];
                    i = (i - 1) >>> 1;
                }
                heap[i] = r;
                heapKeys[i] = run.key;
            }
        }
        long visited = 0;
        while (size > 0) {
            Run top = runs.get(heap[0]);
            visitor.visit(top.key, top.docBase + top.doc);
            visited++;
            int run = heap[0];
            long key;
            if (top.next()) {
                key = top.key;
            } else {
                size--;
                run = heap[size];
                key = heapKeys[size];
            }
            // Sift the replacement down from the root.
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && heapKeys[child + 1] < heapKeys[child]) {
                    child++;
                }
                if (key <= heapKeys[child]) {
                    break;
                }
                heap[i] = heap[child];
                heapKeys[i] = heapKeys[child];
                i = child;
            }
            heap[i] = run;
            heapKeys[i] = key;
        }
        return visited;
    }

    /** Splits a segment into its runs of increasing keys (deleted documents included; skipped when read). */
    private static void findRuns(LeafReaderContext ctx, List<Run> runs) throws IOException {
        LeafReader leaf = ctx.reader();
        int maxDoc = leaf.maxDoc();
        if (maxDoc == 0) {
            return;
        }
        NumericDocValues keys = leaf.getNumericDocValues(Schema.CNPJ_KEY);
        if (keys == null) {
            throw new CorruptIndexException("segment has no " + Schema.CNPJ_KEY + " doc values", leaf.toString());
        }
        int start = 0;
        long previous = Long.MIN_VALUE;
        for (int doc = 0; doc < maxDoc; doc++) {
            if (!keys.advanceExact(doc)) {
                throw new CorruptIndexException("document " + doc + " has no " + Schema.CNPJ_KEY, leaf.toString());
            }
            long key = keys.longValue();
            if (key < previous) {
                runs.add(new Run(ctx, start, doc));
                start = doc;
            }
            previous = key;
        }
        runs.add(new Run(ctx, start, maxDoc));
    }

    /**
     * The documents [from, to) of one segment, whose keys increase; its live documents read {@value
     * #BUFFER} at a time, so the tens of thousands of runs do not each touch the doc values per document.
     */
    private static final class Run {
        static final int BUFFER = 64;

        final LeafReaderContext ctx;
        final int docBase;
        final int to;
        final Bits live;
        /** Next document of the run not yet buffered. */
        int unread;

        long[] keys;
        int[] docs;
        int position;
        int buffered;
        /** The current document (segment's id) and its key, after {@link #next}. */
        int doc;

        long key;

        Run(LeafReaderContext ctx, int from, int to) {
            this.ctx = ctx;
            this.docBase = ctx.docBase;
            this.unread = from;
            this.to = to;
            this.live = ctx.reader().getLiveDocs();
        }

        /** Moves to the next live document of the run; false when the run is done. */
        boolean next() throws IOException {
            if (position == buffered && !fill()) {
                keys = null;
                docs = null;
                return false;
            }
            doc = docs[position];
            key = keys[position++];
            return true;
        }

        private boolean fill() throws IOException {
            if (unread >= to) {
                return false;
            }
            if (keys == null) {
                keys = new long[BUFFER];
                docs = new int[BUFFER];
            }
            NumericDocValues values = ctx.reader().getNumericDocValues(Schema.CNPJ_KEY);
            long last = buffered == 0 ? Long.MIN_VALUE : keys[buffered - 1];
            int n = 0;
            for (; unread < to && n < BUFFER; unread++) {
                if (live != null && !live.get(unread)) {
                    continue;
                }
                if (!values.advanceExact(unread)) {
                    throw new CorruptIndexException(
                            "document " + unread + " has no " + Schema.CNPJ_KEY,
                            ctx.reader().toString());
                }
                long k = values.longValue();
                if (k < last) {
                    // findRuns split at every decrease; anything else is a segment that changed under us.
                    throw new CorruptIndexException(
                            "CNPJ keys decrease inside a run at document " + unread,
                            ctx.reader().toString());
                }
                last = k;
                keys[n] = k;
                docs[n++] = unread;
            }
            position = 0;
            buffered = n;
            return n > 0;
        }
    }
}
