package dev.cadastro.register.internal;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.Partner;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.PublishedIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * One opened, published generation: its reader, lookup tables, the doc-id range of every (state,
 * municipality) in every segment, the bitset cache, its partner index and its CNPJ map. Only the current
 * format of each part is read: a generation written before fails to open with an {@link
 * OutdatedFormatException} (the index is rebuilt by a load). Reference-counted: the register holds one
 * reference while the generation is current, each query one while it runs; the last release closes the
 * reader.
 */
public final class GenerationReader {
    private final PublishedIndex meta;
    private final Directory directory;
    private final DirectoryReader reader;
    private final Lookups lookups;
    private final RecordCodec codec;
    private final LeafGeo[] geo;
    private final Map<Integer, List<Long>> geoKeysByMunicipio = new HashMap<>();
    private final Municipalities municipalities;
    final BitsetCache cache;
    /** Precomputed counts, or null when opened without them. */
    private final Rollup rollup;

    private final PartnerIndex partners;
    private final CnpjMap cnpjs;
    /** The changes against the previous generation ({@code changes.bin}), or null. */
    private final ChangeSet changes;
    /**
     * Precomputed counts of the changes ({@value Rollup#CHANGES_FILE}), or null: opened without
     * precomputed counts, no changes, or a generation built before they existed.
     */
    private final Rollup changeRollup;
    /** Each segment's first document, for {@link org.apache.lucene.index.ReaderUtil#subIndex(int, int[])}. */
    private final int[] docBases;
    /** Each segment's lookup cursors. */
    private final RecordCursors[] cursors;

    private final AtomicInteger refs = new AtomicInteger(1);
    private final Runnable onClose;

    private GenerationReader(
            PublishedIndex meta,
            Directory directory,
            DirectoryReader reader,
            Lookups lookups,
            Rollup rollup,
            PartnerIndex partners,
            CnpjMap cnpjs,
            long cacheBytes,
            Runnable onClose)
            throws IOException {
        this.meta = meta;
        this.cnpjs = cnpjs;
        this.rollup = rollup;
        this.partners = partners;
        this.directory = directory;
        this.reader = reader;
        this.lookups = lookups;
        this.codec = new RecordCodec(lookups);
        this.geo = checkLayout(reader);
        List<LeafReaderContext> leaves = reader.leaves();
        this.docBases = new int[leaves.size()];
        this.cursors = new RecordCursors[leaves.size()];
        for (int i = 0; i < leaves.size(); i++) {
            docBases[i] = leaves.get(i).docBase;
            cursors[i] = new RecordCursors(leaves.get(i).reader());
        }
        Set<Long> seen = new HashSet<>();
        for (LeafGeo g : geo) {
            for (long k : g.keys) {
                if (seen.add(k)) {
                    geoKeysByMunicipio
                            .computeIfAbsent((int) (k % 10_000), m -> new ArrayList<>())
                            .add(k);
                }
            }
        }
        this.municipalities = new Municipalities(lookups, geoKeysByMunicipio::containsKey);
        this.cache = new BitsetCache(cacheBytes);
        this.onClose = onClose;
        this.changes = ChangeSet.read(directory, reader);
        this.changeRollup = rollup == null ? null : Rollup.readChanges(directory, changes);
    }

    /** Opens a published generation directory, with its precomputed counts. */
    public static GenerationReader open(Path dir, long cacheBytes, Runnable onClose) throws IOException {
        return open(dir, cacheBytes, true, onClose);
    }

    /**
     * Opens a published generation directory.
     *
     * @param withRollup read its precomputed counts (false: every count goes through the engine)
     * @throws OutdatedFormatException when a part of it is in a format written before the current one
     */
    public static GenerationReader open(Path dir, long cacheBytes, boolean withRollup, Runnable onClose)
            throws IOException {
        PublishedIndex meta = Generations.readMeta(dir);
        requireParts(dir);
        Lookups lookups = LookupsFile.read(dir.resolve(LookupsFile.NAME));
        Directory directory = FSDirectory.open(dir);
        DirectoryReader reader = null;
        PartnerIndex partners = null;
        CnpjMap cnpjs = null;
        try {
            reader = current(dir, "its Lucene segments", () -> DirectoryReader.open(directory));
            if (reader.numDocs() != meta.documents()) {
                throw new IOException(
                        dir + " holds " + reader.numDocs() + " documents, its metadata says " + meta.documents());
            }
            requireRecordStore(dir, reader);
            DirectoryReader opened = reader;
            Rollup rollup =
                    withRollup ? current(dir, Rollup.FILE, () -> Rollup.read(directory, opened.numDocs())) : null;
            partners = PartnerIndex.open(dir);
            cnpjs = current(dir, CnpjMap.NAME, () -> CnpjMap.open(directory, opened));
            return new GenerationReader(meta, directory, reader, lookups, rollup, partners, cnpjs, cacheBytes, onClose);
        } catch (IOException | RuntimeException e) {
            if (cnpjs != null) {
                cnpjs.close();
            }
            if (partners != null) {
                partners.close();
            }
            if (reader != null) {
                reader.close();
            }
            directory.close();
            throw e;
        }
    }

    /** The parts every generation of the current format has, beside its segments. */
    private static void requireParts(Path dir) throws OutdatedFormatException {
        for (String part : List.of(CnpjMap.NAME, Rollup.FILE, PartnerIndex.DIR)) {
            if (!Files.exists(dir.resolve(part))) {
                throw new OutdatedFormatException(dir, "no " + part);
            }
        }
    }

    /** Every segment holds its records in the record store, not as stored fields as before it. */
    private static void requireRecordStore(Path dir, DirectoryReader reader) throws OutdatedFormatException {
        for (LeafReaderContext ctx : reader.leaves()) {
            FieldInfo info = ctx.reader().getFieldInfos().fieldInfo(Schema.RECORD);
            if (info != null && info.getDocValuesType() != DocValuesType.BINARY) {
                throw new OutdatedFormatException(dir, "records as stored fields in segment " + ctx.ord);
            }
        }
    }

    /** What reads one part of a generation. */
    @FunctionalInterface
    private interface PartReader<T> {
        T read() throws IOException;
    }

    /** Reads a part whose header names its format version, turning an older version into a clear failure. */
    private static <T> T current(Path dir, String part, PartReader<T> read) throws IOException {
        try {
            return read.read();
        } catch (IndexFormatTooOldException e) {
            throw new OutdatedFormatException(dir, part + " of format " + e.getVersion(), e);
        }
    }

    public PublishedIndex meta() {
        return meta;
    }

    public Lookups lookups() {
        return lookups;
    }

    /**
     * Whether this generation indexes the name words (built since name search, ADR 0042); an older one
     * would answer every name search with nothing, so the register refuses it instead.
     */
    public boolean hasNameWords() {
        for (org.apache.lucene.index.LeafReaderContext leaf : reader.leaves()) {
            if (leaf.reader().getFieldInfos().fieldInfo(Schema.NOME) != null) {
                return true;
            }
        }
        return false;
    }

    DirectoryReader reader() {
        return reader;
    }

    LeafGeo geo(int leafOrd) {
        return geo[leafOrd];
    }

    /** Takes a reference; false when the generation was already closed. */
    public boolean tryAcquire() {
        for (; ; ) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; the last one closes the reader and runs the close hook. */
    public void release() {
        if (refs.decrementAndGet() == 0) {
            try (directory;
                    reader;
                    CnpjMap map = cnpjs) {
                if (partners != null) {
                    partners.close();
                }
            } catch (IOException e) {
                System.getLogger(GenerationReader.class.getName())
                        .log(System.Logger.Level.WARNING, "closing generation " + meta.path() + " failed", e);
            }
            onClose.run();
        }
    }

    /**
     * Builds, in every segment of this generation, the bitsets of the terms {@code previous} holds in its
     * cache (within this one's budget), before any query reaches it: swapped in under load, the new
     * generation then answers its first queries as fast as the old one answered its last, instead of
     * each filter's first query reading its postings under contention.
     *
     * @return the bitsets built
     */
    public int warmFrom(GenerationReader previous) throws IOException {
        int built = 0;
        java.util.Set<java.util.List<String>> terms = previous.cache.terms();
        for (LeafReaderContext ctx : reader.leaves()) {
            for (java.util.List<String> t : terms) {
                org.apache.lucene.index.Terms field = ctx.reader().terms(t.get(0));
                if (field == null) {
                    continue;
                }
                org.apache.lucene.index.TermsEnum te = field.iterator();
                if (te.seekExact(new org.apache.lucene.util.BytesRef(t.get(1)))
                        && cache.get(ctx.ord, ctx.reader(), t.get(0), t.get(1), te) != null) {
                    built++;
                }
            }
        }
        return built;
    }

    public long cacheBytes() {
        return cache.usedBytes();
    }

    /** The generation's precomputed counts, or null when it was published without them. */
    public Rollup rollup() {
        return rollup;
    }

    /**
     * The query's exact count from the precomputed counts, or empty when they do not cover its filters
     * (or the generation has none).
     *
     * @throws InvalidParameterException when a municipality is unknown or ambiguous
     */
    public Optional<Long> rolledUpCount(RegisterQuery q) {
        return rollup == null ? Optional.empty() : rollup.count(q, this::selectGeo);
    }

    /** The precomputed counts of the generation's changes, or null when it has none. */
    public Rollup changeRollup() {
        return changeRollup;
    }

    /**
     * The exact count of the generation's changes of {@code types} (empty: every type) whose new record
     * matches the query, from the precomputed counts of the changes, or empty when they do not cover its
     * filters (or the generation has none).
     *
     * @throws InvalidParameterException when a municipality is unknown or ambiguous
     */
    public Optional<Long> rolledUpChangeCount(RegisterQuery q, Set<ChangeType> types) {
        return changeRollup == null ? Optional.empty() : changeRollup.countChanges(q, types, this::selectGeo);
    }

    // ---- lookup

    /** The root's partner structure in dump order; empty when it has none or the generation has no partners. */
    public List<Partner> partners(CnpjRoot root) throws IOException {
        return partners == null ? List.of() : partners.partners(root, lookups);
    }

    public Optional<Empresa> lookup(Cnpj cnpj) throws IOException {
        // A candidate is this CNPJ's only when its record says so: the map's fingerprints can match
        // another key, and the map holds keys of valid CNPJs only (a key shared by another text is not
        // this CNPJ).
        return Optional.ofNullable(cnpjs.find(Schema.cnpjKey(cnpj.value()), doc -> {
            Empresa e = lookupRecord(doc);
            return e.cnpj().equals(cnpj.value()) ? e : null;
        }));
    }

    /** A copy of the encoded record of a top-level document, read through the segment's cursors. */
    BytesRef rawRecord(int doc) throws IOException {
        int leaf = org.apache.lucene.index.ReaderUtil.subIndex(doc, docBases);
        int local = doc - docBases[leaf];
        BinaryDocValues values = cursors[leaf].take(local);
        try {
            if (!values.advanceExact(local)) {
                throw new IOException("document " + doc + " has no record");
            }
            return BytesRef.deepCopyOf(values.binaryValue());
        } finally {
            cursors[leaf].give(values);
        }
    }

    /** The codec of this generation's records. */
    RecordCodec codec() {
        return codec;
    }

    /** The generation's changes against its predecessor, or null when it holds none. */
    public ChangeSet changes() {
        return changes;
    }

    /** The record of a document of segment {@code leaf} (its ordinal in the reader). */
    Empresa record(int leaf, int doc) throws IOException {
        Records records = records(leaf);
        Empresa e = records.read(doc);
        records.finish();
        return e;
    }

    /** The record of a top-level document id. */
    private Empresa lookupRecord(int doc) throws IOException {
        int leaf = org.apache.lucene.index.ReaderUtil.subIndex(doc, docBases);
        return record(leaf, doc - docBases[leaf]);
    }

    /**
     * A reader of one segment's records (a page's, an export's, a lookup's one), fastest for documents
     * in increasing order: a document before the last one read takes another cursor. {@link
     * Records#finish} when done returns its cursor for the next reader.
     *
     * @param leaf the segment's ordinal in the reader
     */
    Records records(int leaf) {
        return new Records(leaf, cursors[leaf]);
    }

    /**
     * One segment's records, from the record store (binary doc values: a slice of a memory-mapped file
     * per document, nothing inflated, through a cursor lent by the segment's {@link RecordCursors}).
     */
    final class Records {
        private final int leaf;
        private final RecordCursors cursors;
        private BinaryDocValues values;

        private Records(int leaf, RecordCursors cursors) {
            this.leaf = leaf;
            this.cursors = cursors;
        }

        Empresa read(int doc) throws IOException {
            if (values == null || values.docID() > doc) {
                finish();
                values = cursors.take(doc);
            }
            if (!values.advanceExact(doc)) {
                throw new IOException(
                        "document " + doc + " of " + reader.leaves().get(leaf) + " has no record");
            }
            BytesRef rec = values.binaryValue();
            return codec.decode(rec.bytes, rec.offset);
        }

        /** Returns the cursor for reuse; this reader is not used after. */
        void finish() {
            if (values != null) {
                cursors.give(values);
                values = null;
            }
        }
    }

    // ---- geography

    /**
     * The (state, municipality) keys a query selects, as inclusive key intervals {@code {low, high}},
     * ascending and disjoint (a state is one interval, a municipality one key), or null when it has no
     * geography filter. Keys no document has may fall inside an interval; they select nothing.
     *
     * @throws InvalidParameterException when a municipality is unknown or ambiguous
     */
    long[][] selectGeo(RegisterQuery q) {
        Set<Integer> ufOrds = new TreeSet<>();
        for (String uf : q.ufs()) {
            ufOrds.add(Schema.ufOrdinal(uf));
        }
        if (q.municipios().isEmpty()) {
            if (ufOrds.isEmpty()) {
                return null;
            }
            long[][] out = new long[ufOrds.size()][];
            int i = 0;
            for (int uf : ufOrds) {
                out[i++] = new long[] {uf * 10_000L, uf * 10_000L + 9_999L};
            }
            return out;
        }
        Set<Integer> codes = new LinkedHashSet<>();
        for (String m : q.municipios()) {
            codes.addAll(municipalities.resolve(m, q.ufs()));
        }
        TreeSet<Long> keys = new TreeSet<>();
        for (int code : codes) {
            for (long k : geoKeysByMunicipio.getOrDefault(code, List.of())) {
                if (ufOrds.isEmpty() || ufOrds.contains((int) (k / 10_000))) {
                    keys.add(k);
                }
            }
        }
        long[][] out = new long[keys.size()][];
        int i = 0;
        for (long k : keys) {
            out[i++] = new long[] {k, k};
        }
        return out;
    }

    /** The doc-id ranges of every (state, municipality) key in one segment, in key order. */
    static final class LeafGeo {
        final long[] keys;
        final int[] starts;
        final int[] ends;

        LeafGeo(long[] keys, int[] starts, int[] ends) {
            this.keys = keys;
            this.starts = starts;
            this.ends = ends;
        }

        /**
         * Merged ranges [start, end) of the selected key intervals (all documents when {@code selected}
         * is null): two binary searches per interval, since the keys of an interval are one contiguous
         * run of documents (the index sort, checked by {@link #checkLayout}).
         */
        int[][] ranges(long[][] selected, int maxDoc) {
            if (selected == null) {
                return maxDoc == 0 ? new int[0][] : new int[][] {{0, maxDoc}};
            }
            List<int[]> out = new ArrayList<>(selected.length);
            for (long[] interval : selected) {
                int i = lowerBound(keys, 0, keys.length, interval[0]);
                int j = lowerBound(keys, i, keys.length, interval[1] + 1);
                if (i >= j) {
                    continue;
                }
                if (!out.isEmpty() && out.get(out.size() - 1)[1] == starts[i]) {
                    out.get(out.size() - 1)[1] = ends[j - 1];
                } else {
                    out.add(new int[] {starts[i], ends[j - 1]});
                }
            }
            return out.toArray(new int[0][]);
        }
    }

    /**
     * The first index in [from, to) of {@code sorted} whose value is at least {@code key}, else {@code to};
     * {@code sorted} ascending without repeats (geography keys, rollup keys).
     */
    static int lowerBound(long[] sorted, int from, int to, long key) {
        int i = java.util.Arrays.binarySearch(sorted, from, to, key);
        return i >= 0 ? i : -i - 1;
    }

    /**
     * Reads the (state, municipality) ranges of every segment and checks the index sort made them
     * contiguous and tiling; a generation that fails is not searchable.
     */
    public static LeafGeo[] checkLayout(DirectoryReader reader) throws IOException {
        LeafGeo[] out = new LeafGeo[reader.leaves().size()];
        for (LeafReaderContext ctx : reader.leaves()) {
            LeafReader leaf = ctx.reader();
            if (leaf.getMetaData().sort() == null || !leaf.getMetaData().sort().equals(Schema.indexSort())) {
                throw new IOException("segment " + ctx.ord + " is not sorted by " + Schema.indexSort());
            }
            List<Long> keys = new ArrayList<>();
            List<int[]> ranges = new ArrayList<>();
            Terms terms = leaf.terms(Schema.GEO);
            if (terms != null) {
                TermsEnum te = terms.iterator();
                PostingsEnum pe = null;
                int expected = 0;
                for (BytesRef t = te.next(); t != null; t = te.next()) {
                    pe = te.postings(pe, PostingsEnum.NONE);
                    int first = pe.nextDoc();
                    int end = first + te.docFreq();
                    if (first != expected) {
                        throw new IOException("segment " + ctx.ord + ": geography " + t.utf8ToString()
                                + " starts at document " + first + ", expected " + expected);
                    }
                    keys.add(Long.parseLong(t.utf8ToString()));
                    ranges.add(new int[] {first, end});
                    expected = end;
                }
                if (expected != leaf.maxDoc()) {
                    throw new IOException("segment " + ctx.ord + ": geography ranges end at " + expected + " of "
                            + leaf.maxDoc() + " documents");
                }
            }
            long[] k = new long[keys.size()];
            int[] s = new int[keys.size()];
            int[] e = new int[keys.size()];
            for (int i = 0; i < k.length; i++) {
                k[i] = keys.get(i);
                s[i] = ranges.get(i)[0];
                e[i] = ranges.get(i)[1];
            }
            out[ctx.ord] = new LeafGeo(k, s, e);
        }
        return out;
    }
}
