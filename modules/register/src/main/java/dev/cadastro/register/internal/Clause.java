package dev.cadastro.register.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * One filter of a query within one segment: the OR of its terms. Dense terms come as cached bitsets
 * (word-wise OR), sparse ones as postings; edge terms of a range (the partial year month, the capital
 * bucket that straddles a bound) as postings refined by the exact doc value. Iterators only move
 * forward: windows must be filled in increasing order.
 */
final class Clause {
    private final List<FixedBitSet> bitsets = new ArrayList<>();
    private final List<PostingsEnum> postings = new ArrayList<>();
    private final List<PostingsEnum> edges = new ArrayList<>();
    private final List<NumericDocValues> edgeValues = new ArrayList<>();
    private long edgeLow;
    private long edgeHigh;
    private long postingsDocs;
    private long edgeDocs;
    /** True when the terms of this clause never share a document (a single-valued field). */
    private final boolean disjoint;

    private long bitsetDocs;

    Clause(boolean disjoint) {
        this.disjoint = disjoint;
    }

    void addBitset(FixedBitSet bits, int docFreq) {
        bitsets.add(bits);
        bitsetDocs += docFreq;
    }

    void addPostings(PostingsEnum pe, int docFreq) {
        postings.add(pe);
        postingsDocs += docFreq;
    }

    void addEdge(PostingsEnum pe, NumericDocValues values, long low, long high, int docFreq) {
        edges.add(pe);
        edgeValues.add(values);
        edgeLow = low;
        edgeHigh = high;
        edgeDocs += docFreq;
    }

    /** Postings iterators this clause advances in every window. */
    int iterators() {
        return postings.size() + edges.size();
    }

    boolean isEmpty() {
        return bitsets.isEmpty() && postings.isEmpty() && edges.isEmpty();
    }

    /** A lone cached bitset: ANDed straight from the cache. */
    FixedBitSet soleBitset() {
        return bitsets.size() == 1 && postings.isEmpty() && edges.isEmpty() ? bitsets.get(0) : null;
    }

    /** Documents (counting repeats across terms) with any of the terms, in the whole segment. */
    long docFreq() {
        return bitsetDocs + postingsDocs + edgeDocs;
    }

    /** Upper bound of the documents matched in the segment: exact for a disjoint clause without edges. */
    boolean exactDocFreq() {
        return disjoint && edges.isEmpty();
    }

    /** Work to evaluate over {@code candidates} of {@code maxDoc} documents: words plus decoded postings. */
    long cost(long candidates, int maxDoc) {
        double share = maxDoc == 0 ? 0 : (double) candidates / maxDoc;
        return bitsets.size() * (candidates >>> 6) + (long) ((postingsDocs + 2 * edgeDocs) * share);
    }

    /** ORs the clause's documents of [from, to) into {@code window}, whose bit 0 is document {@code offset}. */
    void fill(FixedBitSet window, int offset, int from, int to) throws IOException {
        long[] w = window.getBits();
        int baseWord = offset >>> 6;
        int nWords = ((to - 1) >>> 6) - baseWord + 1;
        for (FixedBitSet b : bitsets) {
            long[] bits = b.getBits();
            for (int i = 0; i < nWords; i++) {
                w[i] |= bits[baseWord + i];
            }
        }
        for (PostingsEnum pe : postings) {
            if (pe.docID() < from) {
                pe.advance(from);
            }
            if (pe.docID() < to) {
                pe.intoBitSet(to, window, offset);
            }
        }
        for (int i = 0; i < edges.size(); i++) {
            PostingsEnum pe = edges.get(i);
            NumericDocValues dv = edgeValues.get(i);
            int doc = pe.docID() < from ? pe.advance(from) : pe.docID();
            for (; doc < to; doc = pe.nextDoc()) {
                if (dv.advanceExact(doc)) {
                    long v = dv.longValue();
                    if (v >= edgeLow && v <= edgeHigh) {
                        window.set(doc - offset);
                    }
                }
            }
        }
        if (postings.isEmpty() && edges.isEmpty()) {
            return;
        }
        assert DocIdSetIterator.NO_MORE_DOCS > to;
    }
}
