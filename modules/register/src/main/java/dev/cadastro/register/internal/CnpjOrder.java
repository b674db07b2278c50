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
 * segments, some 22,000), each read by a doc-values iterator of its own, with a binary heap of the runs'
 * next keys. Memory: the heap and one iterator per run; no array of all the keys. Two documents of the
 * same CNPJ come out one after the other.
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
        // A binary min-heap of runs by their current key.
        Run[] heap = new Run[runs.size()];
        int size = 0;
        for (Run r : runs) {
            if (r.advance()) {
                heap[size] = r;
                up(heap, size++);
            }
        }
        long visited = 0;
        while (size > 0) {
            Run top = heap[0];
            visitor.visit(top.key, top.docBase + top.doc);
            visited++;
            if (top.advance()) {
                down(heap, 0, size);
            } else {
                heap[0] = heap[--size];
                heap[size] = null;
                if (size > 0) {
                    down(heap, 0, size);
                }
            }
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

    private static void up(Run[] heap, int i) {
        Run r = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent].key <= r.key) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = r;
    }

    private static void down(Run[] heap, int i, int size) {
        Run r = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].key < heap[child].key) {
                child++;
            }
            if (r.key <= heap[child].key) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = r;
    }

    /** The documents [from, to) of one segment, whose keys increase; positioned on its current live one. */
    private static final class Run {
        final LeafReaderContext ctx;
        final int docBase;
        final int to;
        final Bits live;
        NumericDocValues keys;
        int doc;
        long key;

        Run(LeafReaderContext ctx, int from, int to) {
            this.ctx = ctx;
            this.docBase = ctx.docBase;
            this.doc = from - 1;
            this.to = to;
            this.live = ctx.reader().getLiveDocs();
        }

        /** Moves to the next live document of the run; false when the run is done. */
        boolean advance() throws IOException {
            if (keys == null) {
                keys = ctx.reader().getNumericDocValues(Schema.CNPJ_KEY);
            }
            for (doc++; doc < to; doc++) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                if (!keys.advanceExact(doc)) {
                    throw new CorruptIndexException(
                            "document " + doc + " has no " + Schema.CNPJ_KEY,
                            ctx.reader().toString());
                }
                long next = keys.longValue();
                if (next < key) {
                    // findRuns split at every decrease; anything else is a segment that changed under us.
                    throw new CorruptIndexException(
                            "CNPJ keys decrease inside a run at document " + doc,
                            ctx.reader().toString());
                }
                key = next;
                return true;
            }
            keys = null;
            return false;
        }
    }
}
