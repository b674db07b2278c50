package dev.cadastro.register.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.FixedBitSet;

/**
 * Per-term bitsets of dense filter terms (a status, a size, a flag value, a year), built from the
 * postings on first use and kept for the generation's lifetime within a heap budget. A conjunction of
 * cached terms is then a word-wise AND with popcount. First come, first cached: once the budget is
 * spent, further terms are read from their postings.
 */
final class BitsetCache {
    /** A term is dense, and worth a bitset, when at least 1 document in this many has it. */
    static final int DENSITY = 64;

    private final long budgetBytes;
    private final AtomicLong used = new AtomicLong();
    private final ConcurrentHashMap<Key, Cached> sets = new ConcurrentHashMap<>();

    /** A term of one segment; the query's strings are reused as they are (no key string built). */
    private record Key(int leafOrd, String field, String term) {}

    /** A cached term: its bitset and document frequency. */
    record Cached(FixedBitSet bits, int docFreq) {}

    BitsetCache(long budgetBytes) {
        this.budgetBytes = budgetBytes;
    }

    /** The term's bitset when it is cached already, without seeking the term; else null. */
    Cached cached(int leafOrd, String field, String term) {
        return sets.get(new Key(leafOrd, field, term));
    }

    /**
     * The bitset of the term the enum is positioned on, or null when the term is not dense or the budget
     * is spent.
     */
    FixedBitSet get(int leafOrd, LeafReader leaf, String field, String term, TermsEnum positioned) throws IOException {
        int maxDoc = leaf.maxDoc();
        int docFreq = positioned.docFreq();
        if ((long) docFreq * DENSITY < maxDoc) {
            return null;
        }
        Key key = new Key(leafOrd, field, term);
        Cached cached = sets.get(key);
        if (cached != null) {
            return cached.bits();
        }
        long bytes = (long) FixedBitSet.bits2words(maxDoc) * Long.BYTES;
        if (used.get() + bytes > budgetBytes) {
            return null;
        }
        try {
            Cached made = sets.computeIfAbsent(key, k -> {
                if (used.addAndGet(bytes) > budgetBytes) {
                    used.addAndGet(-bytes);
                    return null;
                }
                try {
                    FixedBitSet bits = new FixedBitSet(maxDoc);
                    PostingsEnum pe = positioned.postings(null, PostingsEnum.NONE);
                    bits.or(pe);
                    return new Cached(bits, docFreq);
                } catch (IOException e) {
                    used.addAndGet(-bytes);
                    throw new UncheckedIOException(e);
                }
            });
            return made == null ? null : made.bits();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * The terms cached, as {@code {field, term}} pairs whatever their segment: what a new generation
     * builds before it is swapped in ({@link GenerationReader#warmFrom}).
     */
    java.util.Set<java.util.List<String>> terms() {
        java.util.Set<java.util.List<String>> out = new java.util.LinkedHashSet<>();
        for (Key k : sets.keySet()) {
            out.add(java.util.List.of(k.field(), k.term()));
        }
        return out;
    }

    long usedBytes() {
        return used.get();
    }
}
