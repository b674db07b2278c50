package dev.cadastro.register.internal;

import dev.cadastro.core.register.Change;
import dev.cadastro.core.register.ChangePage;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.register.SearchOptions;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.StringHelper;

/**
 * Counts and pages a query over one generation. Geography filters become doc-id ranges (the index is
 * sorted by state and municipality); every other filter is a {@link Clause}; a window of documents is
 * the AND of the clauses' bitsets, counted with popcount. Counts are exact when the estimated work is
 * small; otherwise stratified window sampling gives an estimate with a 95% interval, returned only
 * when it is tight enough (see docs/register.md).
 */
public final class QueryEngine {
    /** Documents per window of an exact pass. */
    static final int EXACT_WINDOW = 1 << 16;
    /** Fewest sampled strata for which a variance estimate is trusted. */
    static final int MIN_STRATA = 30;
    /** Fewest effective degrees of freedom of the variance estimate for an estimate to be returned. */
    static final double MIN_DEGREES_OF_FREEDOM = 10;

    private final GenerationReader gen;
    private final SearchOptions options;

    public QueryEngine(GenerationReader gen, SearchOptions options) {
        this.gen = gen;
        this.options = options;
    }

    public CountResult count(RegisterQuery q) throws IOException {
        Long rolled = rolledUp(q);
        if (rolled != null) {
            return CountResult.exact(rolled);
        }
        Plan plan = plan(q);
        if (plan.candidates == 0) {
            return CountResult.exact(0);
        }
        Long direct = plan.directCount();
        if (direct != null) {
            return CountResult.exact(direct);
        }
        if (worthSampling(plan)) {
            CountResult estimate = estimate(plan, seed(q));
            if (estimate != null) {
                return estimate;
            }
            plan = plan(q);
        }
        return CountResult.exact(scan(plan, 0, 0, null, false));
    }

    public SearchResult search(RegisterQuery q) throws IOException {
        if (q.countOnly()) {
            CountResult c = count(q);
            return new SearchResult(List.of(), q.pagina(), q.limite(), 0, c.total(), c.aproximado());
        }
        Long rolled = rolledUp(q);
        if (rolled != null && rolled <= q.offset()) {
            // The precomputed total says the page is empty (no match, or past the last one): nothing to plan.
            return new SearchResult(List.of(), q.pagina(), q.limite(), 0, rolled, false);
        }
        Plan plan = plan(q);
        List<int[]> hits = new ArrayList<>();
        long total;
        boolean approximate = false;
        Long direct = plan.candidates == 0 ? null : plan.directCount();
        if (direct == null && plan.candidates > 0) {
            direct = rolled;
        }
        if (plan.candidates == 0) {
            total = 0;
        } else if (direct != null) {
            total = direct;
            scan(plan, q.offset(), q.limite(), hits, true);
        } else if (worthSampling(plan)) {
            CountResult estimate = estimate(plan, seed(q));
            plan = plan(q);
            if (estimate != null) {
                total = estimate.total();
                approximate = true;
                long seen = scan(plan, q.offset(), q.limite(), hits, true);
                if (hits.size() < q.limite()) {
                    // The pass reached the end: the count is known exactly now.
                    total = seen;
                    approximate = false;
                }
            } else {
                total = scan(plan, q.offset(), q.limite(), hits, false);
            }
        } else {
            total = scan(plan, q.offset(), q.limite(), hits, false);
        }
        List<Empresa> page = new ArrayList<>(hits.size());
        readRecords(hits, page::add);
        return new SearchResult(page, q.pagina(), q.limite(), page.size(), total, approximate);
    }

    /**
     * A page of the generation's changes of {@code types} (empty: every type) whose new record matches
     * the query's filters. The total comes from the changes' precomputed counts when they cover the
     * filters, as a search's comes from the register's; the page then walks only to its end.
     */
    public ChangePage changes(RegisterQuery q, Set<ChangeType> types) throws IOException {
        ChangeSet changes = gen.changes();
        Set<ChangeType> wanted = types.isEmpty() ? java.util.EnumSet.allOf(ChangeType.class) : types;
        int limit = q.countOnly() ? 0 : q.limite();
        long offset = q.countOnly() ? 0 : q.offset();
        Long rolled = changes == null || !options.rollupCounts()
                ? null
                : gen.rolledUpChangeCount(q, wanted).orElse(null);
        if (rolled != null && (limit == 0 || rolled <= offset)) {
            // The precomputed total answers a count, or says the page is empty: nothing to plan.
            return new ChangePage(
                    List.of(), q.pagina(), q.limite(), rolled, false, changes.month(), changes.previousMonth());
        }
        Plan plan = plan(q, wanted);
        List<int[]> hits = new ArrayList<>();
        long total;
        boolean approximate = false;
        Long direct = plan.candidates == 0 ? null : plan.directCount();
        if (direct == null && plan.candidates > 0) {
            direct = rolled;
        }
        if (plan.candidates == 0) {
            total = 0;
        } else if (direct != null) {
            total = direct;
            if (limit > 0) {
                scan(plan, offset, limit, hits, true);
            }
        } else if (worthSampling(plan)) {
            CountResult estimate = estimate(plan, seed(q) ^ wanted.hashCode());
            plan = plan(q, wanted);
            if (estimate != null) {
                total = estimate.total();
                approximate = true;
                if (limit > 0) {
                    long seen = scan(plan, offset, limit, hits, true);
                    if (hits.size() < limit) {
                        total = seen;
                        approximate = false;
                    }
                }
            } else {
                total = scan(plan, offset, limit, hits, false);
            }
        } else {
            total = scan(plan, offset, limit, hits, false);
        }
        List<Change> items = new ArrayList<>(hits.size());
        List<Empresa> records = new ArrayList<>(hits.size());
        readRecords(hits, records::add);
        List<LeafReaderContext> leaves = gen.reader().leaves();
        for (int i = 0; i < hits.size(); i++) {
            int doc = leaves.get(hits.get(i)[0]).docBase + hits.get(i)[1];
            items.add(new Change(records.get(i), changes.types(doc), changes.previous(doc)));
        }
        return new ChangePage(
                items,
                q.pagina(),
                q.limite(),
                total,
                approximate,
                changes == null ? java.util.Optional.empty() : changes.month(),
                changes == null ? java.util.Optional.empty() : changes.previousMonth());
    }

    /**
     * The first {@code limit} changes of {@code types} matching the query's filters, in index order,
     * handed one by one to {@code sink}; returns how many.
     */
    public long exportChanges(
            RegisterQuery q,
            Set<ChangeType> types,
            int limit,
            dev.cadastro.core.register.RegisterSearch.RecordSink sink)
            throws IOException {
        Set<ChangeType> wanted = types.isEmpty() ? java.util.EnumSet.allOf(ChangeType.class) : types;
        Plan plan = plan(q, wanted);
        List<int[]> hits = new ArrayList<>(Math.min(limit, 1 << 16));
        if (plan.candidates > 0 && limit > 0) {
            scan(plan, 0, limit, hits, true);
        }
        readRecords(hits, sink);
        return hits.size();
    }

    /**
     * The first {@code limit} matches in index order (the order of search pages), decoded one by one into
     * {@code sink}; returns how many. Only the matches' positions are held (8 bytes each), never the
     * records.
     */
    public long export(RegisterQuery q, int limit, dev.cadastro.core.register.RegisterSearch.RecordSink sink)
            throws IOException {
        Plan plan = plan(q);
        List<int[]> hits = new ArrayList<>(Math.min(limit, 1 << 16));
        if (plan.candidates > 0 && limit > 0) {
            scan(plan, 0, limit, hits, true);
        }
        readRecords(hits, sink);
        return hits.size();
    }

    /**
     * Decodes the records of {@code hits} ({leaf, doc} in index order) into {@code sink}, with one
     * record reader per leaf.
     */
    private void readRecords(List<int[]> hits, dev.cadastro.core.register.RegisterSearch.RecordSink sink)
            throws IOException {
        GenerationReader.Records records = null;
        int recordsLeaf = -1;
        for (int[] h : hits) {
            if (h[0] != recordsLeaf) {
                if (records != null) {
                    records.finish();
                }
                recordsLeaf = h[0];
                records = gen.records(recordsLeaf);
            }
            sink.accept(records.read(h[1]));
        }
        if (records != null) {
            records.finish();
        }
    }

    /** The count from the generation's precomputed counts, or null when they do not answer it. */
    private Long rolledUp(RegisterQuery q) {
        return options.rollupCounts() ? gen.rolledUpCount(q).orElse(null) : null;
    }

    /** Work units of one postings advance into a sampled window (skip data, one block decoded). */
    static final long ADVANCE_COST = 256;

    /**
     * True when the exact pass is above the threshold and a sample is clearly cheaper: sampling decodes
     * a share of the postings but pays an advance per iterator per sampled window, and needs enough
     * strata for an honest interval.
     */
    boolean worthSampling(Plan plan) {
        long cost = plan.cost();
        if (cost <= options.exactCostThreshold()) {
            return false;
        }
        long windows = 0;
        int iterators = 0;
        for (LeafPlan l : plan.leaves) {
            for (int[] r : l.ranges) {
                windows += Windows.count(r, options.windowDocs());
            }
            int leafIterators = 0;
            for (Clause c : l.clauses) {
                leafIterators += c.iterators();
            }
            iterators = Math.max(iterators, leafIterators);
        }
        if (windows / (2L * options.sampleEvery()) < MIN_STRATA) {
            return false;
        }
        if (options.exactCostThreshold() == 0) {
            return true;
        }
        long sampled = windows / options.sampleEvery();
        long sampleCost = cost / options.sampleEvery() + sampled * iterators * ADVANCE_COST;
        return 2 * sampleCost < cost;
    }

    /**
     * The sampling seed of a query: from its filters only, so every page of a search, and its count-only
     * form, state the same estimate.
     */
    private long seed(RegisterQuery q) {
        // Keyed by field name and printed as a sorted map: the seeds (and so the estimates) of earlier releases.
        java.util.Map<String, List<String>> filters = new java.util.TreeMap<>();
        q.filterValues().forEach((f, values) -> filters.put(f.field(), values));
        return options.seed() ^ filters.toString().hashCode() * 0x9E3779B97F4A7C15L;
    }

    // ---- plan

    /** A query compiled against every segment: candidate ranges and clauses. */
    final class Plan {
        final List<LeafPlan> leaves = new ArrayList<>();
        long candidates;

        long cost() {
            long c = 0;
            for (LeafPlan l : leaves) {
                c += l.cost();
            }
            return c;
        }

        /** The count without a pass, when each segment's count is a sum of document frequencies. */
        Long directCount() {
            long total = 0;
            for (LeafPlan l : leaves) {
                if (l.live != null) {
                    return null;
                }
                boolean whole = l.ranges.length == 1 && l.ranges[0][0] == 0 && l.ranges[0][1] == l.leaf.maxDoc();
                if (l.clauses.isEmpty()) {
                    total += l.candidates;
                } else if (whole && l.clauses.size() == 1 && l.clauses.get(0).exactDocFreq()) {
                    total += l.clauses.get(0).docFreq();
                } else {
                    return null;
                }
            }
            return total;
        }
    }

    static final class LeafPlan {
        final int ord;
        final LeafReader leaf;
        final int[][] ranges;
        final long candidates;
        final List<Clause> clauses;
        final Bits live;

        LeafPlan(int ord, LeafReader leaf, int[][] ranges, List<Clause> clauses) {
            this.ord = ord;
            this.leaf = leaf;
            this.ranges = ranges;
            long c = 0;
            for (int[] r : ranges) {
                c += r[1] - r[0];
            }
            this.candidates = c;
            this.clauses = clauses;
            this.live = leaf.getLiveDocs();
        }

        long cost() {
            long c = live == null ? 0 : candidates >>> 6;
            for (Clause cl : clauses) {
                c += cl.cost(candidates, leaf.maxDoc());
            }
            return c + (candidates >>> 6);
        }
    }

    Plan plan(RegisterQuery q) throws IOException {
        return plan(q, null);
    }

    /** {@link #plan(RegisterQuery)}, restricted to the generation's changes of {@code changeTypes} when not null. */
    Plan plan(RegisterQuery q, Set<ChangeType> changeTypes) throws IOException {
        ChangeSet changes = changeTypes == null ? null : gen.changes();
        if (changeTypes != null && changes == null) {
            return new Plan();
        }
        long[][] geo = gen.selectGeo(q);
        Plan plan = new Plan();
        for (LeafReaderContext ctx : gen.reader().leaves()) {
            LeafReader leaf = ctx.reader();
            int[][] ranges = gen.geo(ctx.ord).ranges(geo, leaf.maxDoc());
            if (ranges.length == 0) {
                continue;
            }
            List<Clause> clauses = new ArrayList<>();
            boolean empty = false;
            empty |= terms(clauses, ctx, Schema.BAIRRO, q.bairros(), true);
            empty |= terms(clauses, ctx, Schema.DDD, q.ddds(), false);
            empty |= terms(clauses, ctx, Schema.CNAE, q.cnaes(), true);
            empty |= terms(clauses, ctx, Schema.CNAE2, q.cnaesSecundarios(), false);
            empty |= terms(clauses, ctx, Schema.NATUREZA, q.naturezas(), true);
            empty |= terms(clauses, ctx, Schema.SITUACAO, q.situacaoCadastral(), true);
            empty |= terms(clauses, ctx, Schema.PORTE, q.portes(), true);
            empty |= flag(clauses, ctx, Schema.MEI, q.mei().orElse(null));
            empty |= flag(clauses, ctx, Schema.SIMPLES, q.simples().orElse(null));
            empty |= flag(clauses, ctx, Schema.TELEFONE, q.comTelefone().orElse(null));
            empty |= flag(clauses, ctx, Schema.MOVEL, q.comTelefoneMovel().orElse(null));
            empty |= flag(clauses, ctx, Schema.EMAIL, q.comEmail().orElse(null));
            empty |= flag(clauses, ctx, Schema.DIVIDA, q.divida().orElse(null));
            if (q.aberturaDe().isPresent() || q.aberturaAte().isPresent()) {
                empty |= dates(
                        clauses,
                        ctx,
                        q.aberturaDe().orElse(null),
                        q.aberturaAte().orElse(null));
            }
            if (q.capitalMin().isPresent() || q.capitalMax().isPresent()) {
                empty |= capital(
                        clauses,
                        ctx,
                        q.capitalMin().orElse(null),
                        q.capitalMax().orElse(null));
            }
            if (q.buscaTextual().isPresent()) {
                empty |= names(clauses, ctx, q.buscaTextual().get());
            }
            if (changes != null) {
                Clause c = changes.clause(ctx.ord, changeTypes);
                if (c == null) {
                    empty = true;
                } else {
                    clauses.add(c);
                }
            }
            if (empty) {
                continue;
            }
            clauses.sort(Comparator.comparingLong(Clause::docFreq));
            LeafPlan lp = new LeafPlan(ctx.ord, leaf, ranges, clauses);
            plan.leaves.add(lp);
            plan.candidates += lp.candidates;
        }
        return plan;
    }

    /** Adds the OR of the field's terms; true when none exists in the segment (the query matches nothing). */
    private boolean terms(List<Clause> out, LeafReaderContext ctx, String field, Set<String> values, boolean disjoint)
            throws IOException {
        if (values.isEmpty()) {
            return false;
        }
        Clause c = new Clause(disjoint);
        TermsEnum te = null;
        for (String v : values) {
            // A cached term needs no seek: the most frequent filters (a status, a flag) cost a map lookup.
            BitsetCache.Cached hit = gen.cache.cached(ctx.ord, field, v);
            if (hit != null) {
                c.addBitset(hit.bits(), hit.docFreq());
                continue;
            }
            if (te == null) {
                Terms terms = ctx.reader().terms(field);
                if (terms == null) {
                    // No term of the field in this segment, so none of it cached for this segment either.
                    break;
                }
                te = terms.iterator();
            }
            if (te.seekExact(new BytesRef(v))) {
                addTerm(c, ctx, field, v, te);
            }
        }
        out.add(c);
        return c.isEmpty();
    }

    /** Most terms a name prefix adds as separate postings; beyond, their union is one bitset of the segment. */
    static final int PREFIX_POSTINGS = 16;

    /**
     * Name search: one clause per whole word (a single term), and one for the prefix, the OR of the terms
     * that start with it. True when a word or the prefix has no term in the segment.
     */
    private boolean names(List<Clause> out, LeafReaderContext ctx, RegisterQuery.NameSearch search) throws IOException {
        for (String w : search.words()) {
            if (terms(out, ctx, Schema.NOME, Set.of(w), true)) {
                return true;
            }
        }
        Terms terms = ctx.reader().terms(Schema.NOME);
        if (terms == null) {
            return true;
        }
        BytesRef prefix = new BytesRef(search.prefix());
        TermsEnum te = terms.iterator();
        if (te.seekCeil(prefix) == TermsEnum.SeekStatus.END) {
            return true;
        }
        List<BytesRef> matched = new ArrayList<>();
        for (BytesRef t = te.term(); t != null && StringHelper.startsWith(t, prefix); t = te.next()) {
            matched.add(BytesRef.deepCopyOf(t));
        }
        if (matched.isEmpty()) {
            return true;
        }
        Clause c = new Clause(false);
        if (matched.size() <= PREFIX_POSTINGS) {
            for (BytesRef t : matched) {
                te.seekExact(t);
                addTerm(c, ctx, Schema.NOME, t.utf8ToString(), te);
            }
        } else {
            // Many terms (a short prefix): one pass over their postings into a bitset of the segment,
            // cheaper than advancing hundreds of iterators in every window.
            FixedBitSet union = new FixedBitSet(ctx.reader().maxDoc());
            PostingsEnum pe = null;
            for (BytesRef t : matched) {
                te.seekExact(t);
                pe = te.postings(pe, PostingsEnum.NONE);
                union.or(pe);
            }
            c.addBitset(union, union.cardinality());
        }
        out.add(c);
        return false;
    }

    private boolean flag(List<Clause> out, LeafReaderContext ctx, String field, Boolean value) throws IOException {
        return value != null && terms(out, ctx, field, Set.of(value ? "1" : "0"), true);
    }

    private void addTerm(Clause c, LeafReaderContext ctx, String field, String term, TermsEnum te) throws IOException {
        FixedBitSet bits = gen.cache.get(ctx.ord, ctx.reader(), field, term, te);
        if (bits != null) {
            c.addBitset(bits, te.docFreq());
        } else {
            c.addPostings(te.postings(null, PostingsEnum.NONE), te.docFreq());
        }
    }

    /** Year terms for whole years inside the range, month terms for whole months, edge months refined by day. */
    private boolean dates(List<Clause> out, LeafReaderContext ctx, LocalDate from, LocalDate to) throws IOException {
        LocalDate lo = from == null ? LocalDate.of(1000, 1, 1) : from;
        LocalDate hi = to == null ? LocalDate.of(9999, 12, 31) : to;
        Clause c = new Clause(true);
        LeafReader leaf = ctx.reader();
        Terms decades = leaf.terms(Schema.DECADA);
        Terms years = leaf.terms(Schema.ANO);
        Terms months = leaf.terms(Schema.MES);
        if (decades != null && years != null && months != null) {
            TermsEnum de = decades.iterator();
            TermsEnum ye = years.iterator();
            TermsEnum me = months.iterator();
            for (BytesRef dt = de.next(); dt != null; dt = de.next()) {
                String ds = dt.utf8ToString();
                int decade = Integer.parseInt(ds);
                LocalDate decadeFirst = LocalDate.of(decade * 10, 1, 1);
                LocalDate decadeLast = LocalDate.of(decade * 10 + 9, 12, 31);
                if (decadeLast.isBefore(lo) || decadeFirst.isAfter(hi)) {
                    continue;
                }
                if (!decadeFirst.isBefore(lo) && !decadeLast.isAfter(hi)) {
                    addTerm(c, ctx, Schema.DECADA, ds, de);
                    continue;
                }
                for (int y = decade * 10; y <= decade * 10 + 9; y++) {
                    String ys = Integer.toString(y);
                    LocalDate first = LocalDate.of(y, 1, 1);
                    LocalDate last = LocalDate.of(y, 12, 31);
                    if (last.isBefore(lo) || first.isAfter(hi) || !ye.seekExact(new BytesRef(ys))) {
                        continue;
                    }
                    if (!first.isBefore(lo) && !last.isAfter(hi)) {
                        addTerm(c, ctx, Schema.ANO, ys, ye);
                        continue;
                    }
                    months(c, ctx, me, y, lo, hi);
                }
            }
        }
        out.add(c);
        return c.isEmpty();
    }

    /** Month terms of a partly covered year: whole months as terms, the edge months refined by day. */
    private void months(Clause c, LeafReaderContext ctx, TermsEnum me, int y, LocalDate lo, LocalDate hi)
            throws IOException {
        LeafReader leaf = ctx.reader();
        for (int m = 1; m <= 12; m++) {
            LocalDate mf = LocalDate.of(y, m, 1);
            LocalDate ml = mf.withDayOfMonth(mf.lengthOfMonth());
            if (ml.isBefore(lo) || mf.isAfter(hi)) {
                continue;
            }
            String mt = Schema.monthTerm(mf);
            if (!me.seekExact(new BytesRef(mt))) {
                continue;
            }
            if (!mf.isBefore(lo) && !ml.isAfter(hi)) {
                addTerm(c, ctx, Schema.MES, mt, me);
            } else {
                NumericDocValues dv = leaf.getNumericDocValues(Schema.ABERTURA);
                c.addEdge(me.postings(null, PostingsEnum.NONE), dv, lo.toEpochDay(), hi.toEpochDay(), me.docFreq());
            }
        }
    }

    /**
     * Capital decades inside the range as terms; in a straddling decade, its buckets inside the range
     * as terms and straddling buckets refined by the exact centavos.
     */
    private boolean capital(List<Clause> out, LeafReaderContext ctx, BigDecimal min, BigDecimal max)
            throws IOException {
        long lo = min == null ? 0 : min.movePointRight(2).longValueExact();
        long hi = max == null ? Long.MAX_VALUE : max.movePointRight(2).longValueExact();
        Clause c = new Clause(true);
        LeafReader leaf = ctx.reader();
        Terms decades = leaf.terms(Schema.CAPITAL_DECADE);
        Terms buckets = leaf.terms(Schema.CAPITAL_BUCKET);
        if (decades != null && buckets != null) {
            TermsEnum de = decades.iterator();
            TermsEnum be = buckets.iterator();
            for (BytesRef t = de.next(); t != null; t = de.next()) {
                String d = t.utf8ToString();
                long dl = Schema.decadeLow(d);
                long dh = Schema.decadeHigh(d);
                if (dh < lo || dl > hi) {
                    continue;
                }
                if (dl >= lo && dh <= hi) {
                    addTerm(c, ctx, Schema.CAPITAL_DECADE, d, de);
                    continue;
                }
                for (int digit = 0; digit <= 9; digit++) {
                    String b = d + digit;
                    if (!be.seekExact(new BytesRef(b))) {
                        continue;
                    }
                    long bl = Schema.bucketLow(b);
                    long bh = Schema.bucketHigh(b);
                    if (bh < lo || bl > hi) {
                        continue;
                    }
                    if (bl >= lo && bh <= hi) {
                        addTerm(c, ctx, Schema.CAPITAL_BUCKET, b, be);
                    } else {
                        NumericDocValues dv = leaf.getNumericDocValues(Schema.CAPITAL);
                        c.addEdge(be.postings(null, PostingsEnum.NONE), dv, lo, hi, be.docFreq());
                    }
                }
            }
        }
        out.add(c);
        return c.isEmpty();
    }

    // ---- evaluation

    /** Evaluates windows of one segment in increasing order. */
    static final class WindowEvaluator {
        private LeafPlan plan;
        private final int bits;
        private final FixedBitSet acc;
        /** Window of a clause that is not a lone cached bitset; allocated on first need. */
        private FixedBitSet tmp;

        /**
         * @param windowDocs the widest window evaluated, from its first document rounded down to a
         *     multiple of 64 (a sampled window may start anywhere in a word); the bitsets hold 128 bits
         *     of slack beyond it
         */
        WindowEvaluator(LeafPlan plan, int windowDocs) {
            this.plan = plan;
            this.bits = windowDocs + 128;
            this.acc = new FixedBitSet(bits);
        }

        /**
         * The same evaluator, its window bitsets reused, on the next segment of an exact scan (which
         * visits segments in order and never returns to one).
         */
        WindowEvaluator next(LeafPlan leaf) {
            this.plan = leaf;
            return this;
        }

        /** Matches in [from, to); leaves them in {@link #acc} with bit 0 = document {@code from & ~63}. */
        int evaluate(int from, int to) throws IOException {
            int offset = from & ~63;
            int nWords = ((to - 1) >>> 6) - (offset >>> 6) + 1;
            long[] a = acc.getBits();
            int base = offset >>> 6;
            List<Clause> clauses = plan.clauses;
            if (clauses.isEmpty()) {
                java.util.Arrays.fill(a, 0, nWords, -1L);
            } else {
                java.util.Arrays.fill(a, 0, nWords, 0L);
                clauses.get(0).fill(acc, offset, from, to);
                for (int c = 1; c < clauses.size(); c++) {
                    if (allZero(a, nWords)) {
                        break;
                    }
                    Clause clause = clauses.get(c);
                    FixedBitSet sole = clause.soleBitset();
                    if (sole != null) {
                        long[] s = sole.getBits();
                        for (int i = 0; i < nWords; i++) {
                            a[i] &= s[base + i];
                        }
                    } else {
                        if (tmp == null) {
                            tmp = new FixedBitSet(bits);
                        }
                        long[] t = tmp.getBits();
                        java.util.Arrays.fill(t, 0, nWords, 0L);
                        clause.fill(tmp, offset, from, to);
                        for (int i = 0; i < nWords; i++) {
                            a[i] &= t[i];
                        }
                    }
                }
            }
            // Keep only [from, to).
            a[0] &= -1L << (from - offset);
            int endBit = to - offset;
            if ((endBit & 63) != 0) {
                a[nWords - 1] &= -1L >>> (64 - (endBit & 63));
            }
            if (plan.live != null) {
                for (int i = 0; i < nWords; i++) {
                    long w = a[i];
                    while (w != 0) {
                        int bit = Long.numberOfTrailingZeros(w);
                        if (!plan.live.get(offset + (i << 6) + bit)) {
                            a[i] &= ~(1L << bit);
                        }
                        w &= w - 1;
                    }
                }
            }
            int count = 0;
            for (int i = 0; i < nWords; i++) {
                count += Long.bitCount(a[i]);
            }
            return count;
        }

        /** Appends the documents of the last window from its {@code skip}-th match on, up to {@code max}. */
        void collect(int from, int to, int skip, int max, List<int[]> out) {
            int offset = from & ~63;
            int seen = 0;
            for (int d = acc.nextSetBit(from - offset, to - offset);
                    d != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS;
                    d = d + 1 < to - offset
                            ? acc.nextSetBit(d + 1, to - offset)
                            : org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS) {
                if (seen++ >= skip) {
                    if (max-- <= 0) {
                        return;
                    }
                    out.add(new int[] {plan.ord, offset + d});
                }
            }
        }

        private static boolean allZero(long[] a, int n) {
            for (int i = 0; i < n; i++) {
                if (a[i] != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The exact count; when {@code hits} is given, also the matches at positions [offset, offset + limit)
     * in index order. With {@code stopWhenFull} (the total is estimated), stops once the page is full;
     * the return value is then only the matches seen.
     */
    long scan(Plan plan, long offset, int limit, List<int[]> hits, boolean stopWhenFull) throws IOException {
        long total = 0;
        WindowEvaluator ev = null;
        for (LeafPlan lp : plan.leaves) {
            ev = ev == null ? new WindowEvaluator(lp, widestWindow(plan)) : ev.next(lp);
            for (int[] r : lp.ranges) {
                for (int from = r[0]; from < r[1]; ) {
                    int to = exactWindowEnd(from, r[1]);
                    int n = ev.evaluate(from, to);
                    if (hits != null && n > 0 && hits.size() < limit && total + n > offset) {
                        int skip = (int) Math.max(0, offset - total);
                        ev.collect(from, to, skip, limit - hits.size(), hits);
                    }
                    total += n;
                    from = to;
                    if (stopWhenFull && hits.size() >= limit) {
                        return total;
                    }
                }
            }
        }
        return total;
    }

    /**
     * The widest window an exact pass over the plan evaluates: {@link #EXACT_WINDOW}, or less when every
     * candidate range is shorter (a town's few thousand documents need no 8 KB window bitsets).
     */
    static int widestWindow(Plan plan) {
        long widest = 0;
        for (LeafPlan lp : plan.leaves) {
            widest = Math.max(widest, widestSpan(lp.ranges));
        }
        return (int) Math.min(EXACT_WINDOW, widest);
    }

    /** {@link #widestWindow(Plan)} of a plan whose segments have these candidate ranges {@code {from, to}}. */
    static int widestWindow(int[][][] ranges) {
        long widest = 0;
        for (int[][] leaf : ranges) {
            widest = Math.max(widest, widestSpan(leaf));
        }
        return (int) Math.min(EXACT_WINDOW, widest);
    }

    /** The widest of the ranges, each from its first document rounded down to a multiple of 64. */
    private static long widestSpan(int[][] ranges) {
        long widest = 0;
        for (int[] r : ranges) {
            widest = Math.max(widest, r[1] - (r[0] & ~63L));
        }
        return widest;
    }

    /** One past the last document of the exact pass's window that starts at {@code from}. */
    static int exactWindowEnd(int from, int rangeEnd) {
        return (int) Math.min((long) rangeEnd, ((long) from & ~63L) + EXACT_WINDOW);
    }

    /**
     * Stratified window sampling: the candidate documents are cut into windows, the windows into strata
     * of {@code 2 * sampleEvery}, and two random windows of each stratum are counted exactly. The total is
     * the sum of stratum means times stratum sizes; its variance the textbook stratified estimator with
     * two draws per stratum. Returns null when the estimate would not be honest: too few strata, below
     * the minimum, or a 95% interval wider than the target.
     */
    CountResult estimate(Plan plan, long seed) throws IOException {
        Windows windows = new Windows(plan, options.windowDocs());
        int m = windows.size();
        int strataSize = 2 * options.sampleEvery();
        int strata = m / strataSize;
        if (strata < MIN_STRATA) {
            return null;
        }
        SplittableRandom random = new SplittableRandom(seed);
        WindowEvaluator[] evaluators = new WindowEvaluator[plan.leaves.size()];
        double total = 0;
        double variance = 0;
        double varianceSquares = 0;
        long observed = 0;
        for (int h = 0; h * strataSize < m; h++) {
            int start = h * strataSize;
            int size = Math.min(strataSize, m - start);
            if (size < strataSize) {
                // The last, partial stratum is counted in full.
                for (int i = start; i < start + size; i++) {
                    long y = evalWindow(plan, evaluators, windows, i);
                    total += y;
                    observed += y;
                }
                continue;
            }
            int a = random.nextInt(size);
            int b = random.nextInt(size - 1);
            if (b >= a) {
                b++;
            }
            long y1 = evalWindow(plan, evaluators, windows, start + Math.min(a, b));
            long y2 = evalWindow(plan, evaluators, windows, start + Math.max(a, b));
            observed += y1 + y2;
            double s2 = (y1 - y2) * (double) (y1 - y2) / 2.0;
            double v = (double) size * size * (1 - 2.0 / size) * s2 / 2.0;
            total += size * (y1 + y2) / 2.0;
            variance += v;
            varianceSquares += v * v;
        }
        // Satterthwaite: when a few strata carry the variance, the estimate of it has few degrees of freedom.
        double df = varianceSquares == 0 ? Double.POSITIVE_INFINITY : variance * variance / varianceSquares;
        if (df < MIN_DEGREES_OF_FREEDOM) {
            return null;
        }
        double half = intervalQuantile(df) * Math.sqrt(variance);
        if (total < options.estimateMinimum() || half > options.maxRelativeHalfWidth() * total) {
            return null;
        }
        long estimate = Math.round(total);
        long low = Math.max(observed, (long) Math.floor(total - half));
        long high = Math.min(plan.candidates, (long) Math.ceil(total + half));
        estimate = Math.max(low, Math.min(high, estimate));
        return CountResult.estimate(estimate, low, high);
    }

    private long evalWindow(Plan plan, WindowEvaluator[] evaluators, Windows windows, int window) throws IOException {
        int k = windows.range(window);
        int li = windows.leaf[k];
        if (evaluators[li] == null) {
            evaluators[li] = new WindowEvaluator(plan.leaves.get(li), windows.width);
        }
        return evaluators[li].evaluate(windows.start(k, window), windows.end(k, window));
    }

    /**
     * The sampling windows of a plan, numbered in order (segment, range, position), without one object
     * per window: range by range, each cut every {@code width} documents from its start. A 70 M scan has
     * about 17,000 windows, which as arrays allocated close to a megabyte per estimate.
     */
    static final class Windows {
        final int width;
        final int[] leaf;
        final int[] from;
        final int[] to;
        /** Number of the first window of each range; one more entry holds the total. */
        final int[] first;

        Windows(Plan plan, int width) {
            this(plan.leaves.stream().map(l -> l.ranges).toArray(int[][][]::new), width);
        }

        /** @param ranges per segment, its candidate ranges {@code {from, to}} in order */
        Windows(int[][][] ranges, int width) {
            this.width = width;
            int n = 0;
            for (int[][] l : ranges) {
                n += l.length;
            }
            leaf = new int[n];
            from = new int[n];
            to = new int[n];
            first = new int[n + 1];
            int k = 0;
            for (int li = 0; li < ranges.length; li++) {
                for (int[] r : ranges[li]) {
                    leaf[k] = li;
                    from[k] = r[0];
                    to[k] = r[1];
                    first[k + 1] = first[k] + count(r, width);
                    k++;
                }
            }
        }

        /** The windows range {@code {from, to}} is cut into: one per {@code width} documents, the last partial. */
        static int count(int[] range, int width) {
            return Math.max(0, (int) (((long) range[1] - range[0] + width - 1) / width));
        }

        int size() {
            return first[first.length - 1];
        }

        /** First document of window {@code window}, which lies in range {@code k} ({@link #range}). */
        int start(int k, int window) {
            return (int) (from[k] + (long) (window - first[k]) * width);
        }

        /** One past the last document of window {@code window} of range {@code k}. */
        int end(int k, int window) {
            return (int) Math.min(to[k], (long) start(k, window) + width);
        }

        /** The range holding window {@code window}: the last one whose first window is at or before it. */
        int range(int window) {
            int lo = 0;
            int hi = first.length - 2;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (first[mid] <= window) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return lo;
        }
    }

    /**
     * The quantile of Student's t with {@code df} degrees of freedom at which the stated interval is
     * computed: two-sided 97.5% (z = 2.2414), deliberately wider than the 95% the interval promises, so
     * that coverage stays at or above 95% where the normal approximation is rough (skewed window counts,
     * modest samples). Cornish-Fisher expansion around the normal quantile; within 0.1% of the exact t
     * quantile for df >= 8.
     */
    static double intervalQuantile(double df) {
        double z = 2.241402727604947;
        if (Double.isInfinite(df)) {
            return z;
        }
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        double z7 = z5 * z * z;
        return z
                + (z3 + z) / (4 * df)
                + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df)
                + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df);
    }
}
