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
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * A window evaluated document by document from a sparse leading clause (its postings probed in the
 * other clauses' bitsets) counts and collects exactly what the word-wise evaluation does, and what an
 * independent check of every document says: with a multi-valued leader (a document under two of its
 * terms counts once) or a single-valued one (its terms' documents collected in order), deleted
 * documents, windows of any width and offset, one after another.
 */
class DocumentWiseEvaluationProperties {
    private static final String[] LEADER_TERMS = {"a", "b", "c", "d"};

    @Property(tries = 60)
    void documentWiseEqualsWordWiseAndTheDocuments(
            @ForAll @IntRange(min = 1, max = 6_000) int documents,
            @ForAll @IntRange(min = 1, max = 4_096) int width,
            @ForAll @IntRange(min = 0, max = 2) int flags,
            @ForAll long seed)
            throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        boolean[][] has = new boolean[documents][LEADER_TERMS.length + 2];
        int[] single = new int[documents];
        boolean multiValued = random.nextBoolean();
        boolean[] deleted = new boolean[documents];
        try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
                for (int d = 0; d < documents; d++) {
                    Document doc = new Document();
                    doc.add(new StringField("id", Integer.toString(d), Field.Store.NO));
                    for (int t = 0; t < LEADER_TERMS.length; t++) {
                        if (random.nextInt(20) == 0) {
                            has[d][t] = true;
                            doc.add(new StringField("m", LEADER_TERMS[t], Field.Store.NO));
                        }
                    }
                    single[d] = random.nextInt(5) == 0 ? random.nextInt(LEADER_TERMS.length) : -1;
                    if (single[d] >= 0) {
                        doc.add(new StringField("s", LEADER_TERMS[single[d]], Field.Store.NO));
                    }
                    for (int f = 0; f < 2; f++) {
                        has[d][LEADER_TERMS.length + f] = random.nextBoolean();
                        doc.add(new StringField("f" + f, has[d][LEADER_TERMS.length + f] ? "1" : "0", Field.Store.NO));
                    }
                    w.addDocument(doc);
                }
                w.forceMerge(1);
                for (int d = 0; d < documents; d++) {
                    if (d > 0 && random.nextInt(16) == 0) {
                        deleted[d] = true;
                        w.deleteDocuments(new Term("id", Integer.toString(d)));
                    }
                }
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                LeafReader leaf = reader.leaves().get(0).reader();
                boolean[] leaderTerms = new boolean[LEADER_TERMS.length];
                for (int t = 0; t < leaderTerms.length; t++) {
                    leaderTerms[t] = random.nextInt(3) != 0;
                }
                int from = random.nextInt(documents);
                int to = from + random.nextInt(documents - from + 1);
                QueryEngine.WindowEvaluator wordWise = new QueryEngine.WindowEvaluator(
                        plan(leaf, multiValued, leaderTerms, flags, from, to), width, Double.POSITIVE_INFINITY);
                QueryEngine.WindowEvaluator documentWise = new QueryEngine.WindowEvaluator(
                        plan(leaf, multiValued, leaderTerms, flags, from, to), width, 0);
                // Windows as the estimator cuts them: every width documents from the range's start.
                for (int lo = from; lo < to; ) {
                    int hi = Math.min(to, lo + width);
                    int expected = 0;
                    List<int[]> expectedDocs = new ArrayList<>();
                    for (int d = lo; d < hi; d++) {
                        if (matches(has[d], multiValued ? -2 : single[d], deleted[d], leaderTerms, flags)) {
                            expected++;
                            expectedDocs.add(new int[] {0, d});
                        }
                    }
                    int window = lo;
                    assertEquals(expected, wordWise.evaluate(lo, hi), () -> "word-wise count at " + window);
                    assertEquals(expected, documentWise.evaluate(lo, hi), () -> "document-wise count at " + window);
                    List<int[]> collected = new ArrayList<>();
                    documentWise.collect(lo, hi, 0, Integer.MAX_VALUE, collected);
                    assertEquals(docs(expectedDocs), docs(collected), () -> "documents collected at " + window);
                    lo = hi;
                }
            }
        }
    }

    /** @param single the document's term of the single-valued field, -1 for none, -2 to use the multi-valued one */
    private static boolean matches(boolean[] has, int single, boolean deleted, boolean[] leaderTerms, int flags) {
        if (deleted) {
            return false;
        }
        boolean any = false;
        for (int t = 0; t < leaderTerms.length; t++) {
            any |= leaderTerms[t] && (single == -2 ? has[t] : single == t);
        }
        for (int f = 0; f < flags; f++) {
            any &= has[LEADER_TERMS.length + f];
        }
        return any;
    }

    /**
     * A leader of the chosen terms' postings, of the multi-valued field or of the single-valued one (its
     * terms disjoint), then one lone bitset clause per flag.
     */
    private static QueryEngine.LeafPlan plan(
            LeafReader leaf, boolean multiValued, boolean[] leaderTerms, int flags, int from, int to)
            throws IOException {
        List<Clause> clauses = new ArrayList<>();
        String field = multiValued ? "m" : "s";
        Clause leader = new Clause(!multiValued);
        TermsEnum m = leaf.terms(field) == null ? null : leaf.terms(field).iterator();
        for (int t = 0; t < leaderTerms.length; t++) {
            if (leaderTerms[t] && m != null && m.seekExact(new BytesRef(LEADER_TERMS[t]))) {
                leader.addPostings(m.postings(null, PostingsEnum.NONE), m.docFreq());
            }
        }
        clauses.add(leader);
        for (int f = 0; f < flags; f++) {
            Clause flag = new Clause(true);
            FixedBitSet bits = new FixedBitSet(leaf.maxDoc());
            TermsEnum te = leaf.terms("f" + f).iterator();
            if (te.seekExact(new BytesRef("1"))) {
                bits.or(te.postings(null, PostingsEnum.NONE));
            }
            flag.addBitset(bits, bits.cardinality());
            clauses.add(flag);
        }
        return new QueryEngine.LeafPlan(0, leaf, new int[][] {{from, to}}, clauses);
    }

    private static List<Integer> docs(List<int[]> hits) {
        return hits.stream().map(h -> h[1]).toList();
    }
}
