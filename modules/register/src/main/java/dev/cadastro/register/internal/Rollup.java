package dev.cadastro.register.internal;

import dev.cadastro.core.internal.LongHashTable;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterQuery.Filter;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Precomputed counts of one generation over its single-valued, low-cardinality filters: situation, main
 * CNAE, size, the six flags, the (state, municipality) key and the opening year. A count whose filters all
 * fall on the dimensions of one cuboid is a few binary searches instead of a pass over the documents; any
 * other filter (capital, secondary CNAEs, DDDs, neighbourhoods, legal nature, an opening-date range that
 * starts or ends inside a year) leaves the count to the {@link QueryEngine}.
 *
 * <p>An opening-date range of whole years ({@code abertura_de} absent or a January 1st, {@code
 * abertura_ate} absent or a December 31st) binds the year to the years present inside it: the engine's
 * semantics exactly, since a document without an opening date (or one outside years 1000-9999) has no
 * year term and never matches a date filter either.
 *
 * <p>A cuboid holds every combination of its dimensions present in the generation, each a key packing the
 * dimensions' term ordinals (the first dimension in the highest bits), sorted, with the cumulative count
 * of live documents: the documents of a key range are one subtraction. A query binds some dimensions to
 * sets of ordinals; the cuboid answers with one key range per combination of the bound values up to the
 * last bound dimension (consecutive ordinals of that last one merge into one range, so a state's
 * municipalities are one range), enumerating the values present of an unbound dimension before it. A
 * cuboid whose enumeration could exceed {@link #MAX_RANGES} ranges declines the query.
 *
 * <p>Built once when the loader publishes a generation (the generation is immutable afterwards) and
 * stored beside it in {@value #FILE}, with Lucene's header and checksum footer. See docs/register.md.
 *
 * <p>A generation with changes ({@link ChangeSet}) gets a second rollup in {@value #CHANGES_FILE},
 * built in the same pass (ADR 0055): it counts only the changed documents, with one more dimension
 * first, the entry's change-type bits ({@link #CHANGE}), so a count of the monthly changes of some types
 * is the same few binary searches; a type set binds the dimension to every bit pattern present that has
 * one of its types.
 */
public final class Rollup {
    public static final String FILE = "rollup.cdr";
    /** The changed documents' rollup, beside {@link ChangeSet#FILE}. */
    public static final String CHANGES_FILE = "changes-rollup.cdr";

    private static final String CODEC = "CadastroRollup";
    /**
     * 2 added the opening year (a dimension and a cuboid), 3 the state (a dimension derived from the
     * place, and a cuboid); only the current version is read.
     */
    private static final int VERSION = 3;

    private static final String CHANGES_CODEC = "CadastroChangeRollup";
    private static final int CHANGES_VERSION = 1;
    /** Most key ranges (two binary searches each) one query may cost a cuboid; above, the engine counts. */
    static final int MAX_RANGES = 1024;
    /** Widest packed key: the keys stay positive and a bound one past the last value cannot overflow. */
    private static final int MAX_KEY_BITS = 62;

    /** Filters the rollup answers (the page changes nothing in a count). */
    static final Set<Filter> COVERED = EnumSet.of(
            Filter.UFS,
            Filter.MUNICIPIOS,
            Filter.CNAES,
            Filter.SITUACAO_CADASTRAL,
            Filter.PORTES,
            Filter.MEI,
            Filter.SIMPLES,
            Filter.COM_TELEFONE,
            Filter.COM_TELEFONE_MOVEL,
            Filter.COM_EMAIL,
            Filter.DIVIDA);

    /**
     * Filters the rollup answers only when the range they make is of whole years (see the class
     * comment); otherwise the query is declined.
     */
    static final Set<Filter> WHOLE_YEARS = EnumSet.of(Filter.ABERTURA_DE, Filter.ABERTURA_ATE);

    /**
     * Filters that leave the count to the engine: a query that has any of them is declined. Every filter
     * is in exactly one of {@link #COVERED}, {@link #WHOLE_YEARS} and this set (a test checks it against
     * {@link Filter}): a new filter cannot be ignored.
     */
    static final Set<Filter> DECLINED = EnumSet.of(
            Filter.BAIRROS,
            Filter.DDDS,
            Filter.CNAES_SECUNDARIOS,
            Filter.NATUREZAS,
            Filter.CAPITAL_MIN,
            Filter.CAPITAL_MAX,
            Filter.BUSCA_TEXTUAL);

    /** The dimensions: index fields holding exactly one term per document (flags, situation...) or none. */
    static final List<String> FIELDS = List.of(
            Schema.SITUACAO,
            Schema.CNAE,
            Schema.GEO,
            Schema.PORTE,
            Schema.MEI,
            Schema.SIMPLES,
            Schema.TELEFONE,
            Schema.MOVEL,
            Schema.EMAIL,
            Schema.DIVIDA,
            Schema.ANO,
            Rollup.UF);

    /**
     * The cuboids built, as dimension orders: activity by place (a CNAE's or a few CNAEs' establishments
     * in a state or a town, by situation), contact flags by place (active establishments in a town
     * with an e-mail, a mobile phone, under Simples...) and opening years by place (establishments of a
     * state or two opened since a year, by situation). The year comes before the place: a state's
     * municipalities stay one range for each (situation, year).
     */
    static final List<List<String>> CUBOIDS = List.of(
            List.of(Schema.SITUACAO, Schema.CNAE, Schema.GEO),
            List.of(
                    Schema.SITUACAO,
                    Schema.GEO,
                    Schema.EMAIL,
                    Schema.TELEFONE,
                    Schema.MOVEL,
                    Schema.MEI,
                    Schema.SIMPLES,
                    Schema.DIVIDA,
                    Schema.PORTE),
            List.of(Schema.SITUACAO, Schema.ANO, Schema.GEO),
            List.of(Schema.SITUACAO, Rollup.UF, Schema.ANO));

    /**
     * The state, as the place key's state ordinal ({@code %02d}): not an index field but derived from each
     * document's {@link Schema#GEO} term while building, so a query of whole states binds one value per
     * state instead of the run of its municipalities.
     */
    static final String UF = "geo.uf";

    /**
     * The change-type bits of a changed document ({@code %03d} of its {@link ChangeSet} mask): not an
     * index field but read from the change set while building; only the changes rollup has it.
     */
    static final String CHANGE = "change";

    /** The changes rollup's dimensions: the register's, then {@link #CHANGE} (so their indexes agree). */
    static final List<String> CHANGE_FIELDS =
            Stream.concat(FIELDS.stream(), Stream.of(CHANGE)).toList();

    /**
     * The changes rollup's cuboids, each led by the change bits: the register's activity by place and
     * state by opening year, contact flags by municipality, and two the register's counts do without
     * because the whole register's engine answers them from cached bitsets: flags by state (a state's
     * Simples or MEI changes) and flags over the whole country (active changes with an e-mail). Over
     * the few percent of documents that change in a month they hold about one combination per change.
     */
    static final List<List<String>> CHANGE_CUBOIDS = List.of(
            List.of(CHANGE, Schema.SITUACAO, Schema.CNAE, Schema.GEO),
            List.of(CHANGE, Schema.SITUACAO, Rollup.UF, Schema.ANO),
            List.of(
                    CHANGE,
                    Schema.SITUACAO,
                    Schema.GEO,
                    Schema.EMAIL,
                    Schema.TELEFONE,
                    Schema.MOVEL,
                    Schema.MEI,
                    Schema.SIMPLES,
                    Schema.DIVIDA,
                    Schema.PORTE),
            List.of(
                    CHANGE,
                    Schema.SITUACAO,
                    Rollup.UF,
                    Schema.SIMPLES,
                    Schema.MEI,
                    Schema.EMAIL,
                    Schema.TELEFONE,
                    Schema.MOVEL,
                    Schema.DIVIDA,
                    Schema.PORTE),
            List.of(
                    CHANGE,
                    Schema.SITUACAO,
                    Schema.EMAIL,
                    Schema.TELEFONE,
                    Schema.MOVEL,
                    Schema.SIMPLES,
                    Schema.MEI,
                    Schema.DIVIDA,
                    Schema.PORTE));

    /** What one rollup file holds: its name, format, dimensions and cuboids. */
    private record Shape(String file, String codec, int version, List<String> fields, List<List<String>> cuboids) {}

    private static final Shape REGISTER = new Shape(FILE, CODEC, VERSION, FIELDS, CUBOIDS);
    private static final Shape CHANGES =
            new Shape(CHANGES_FILE, CHANGES_CODEC, CHANGES_VERSION, CHANGE_FIELDS, CHANGE_CUBOIDS);

    private final Shape shape;

    private final long documents;
    /** Per dimension (index in the shape's fields): its terms in order; a term's ordinal is its index + 1. */
    private final String[][] terms;

    private final Map<String, Integer>[] ordinals;
    /** The (state, municipality) keys in order, ordinal = index + 1. */
    private final long[] geoKeys;
    /** The opening years, ordinal = index + 1. */
    private final int[] years;
    /** The change dimension's bit patterns, ordinal = index + 1 (empty but in the changes rollup). */
    private final int[] changeMasks;

    private final Cuboid[] cuboids;

    @SuppressWarnings("unchecked")
    private Rollup(Shape shape, long documents, String[][] terms, Cuboid[] cuboids) {
        this.shape = shape;
        this.documents = documents;
        this.terms = terms;
        this.cuboids = cuboids;
        this.ordinals = new Map[terms.length];
        for (int f = 0; f < terms.length; f++) {
            ordinals[f] = new HashMap<>();
            for (int i = 0; i < terms[f].length; i++) {
                ordinals[f].put(terms[f][i], i + 1);
            }
        }
        String[] geo = terms[FIELDS.indexOf(Schema.GEO)];
        this.geoKeys = new long[geo.length];
        for (int i = 0; i < geo.length; i++) {
            geoKeys[i] = Long.parseLong(geo[i]);
        }
        String[] ano = terms[FIELDS.indexOf(Schema.ANO)];
        this.years = new int[ano.length];
        for (int i = 0; i < ano.length; i++) {
            years[i] = Integer.parseInt(ano[i]);
        }
        String[] masks = shape == CHANGES ? terms[CHANGE_FIELDS.indexOf(CHANGE)] : new String[0];
        this.changeMasks = new int[masks.length];
        for (int i = 0; i < masks.length; i++) {
            changeMasks[i] = Integer.parseInt(masks[i]);
        }
    }

    /** Live documents the rollup counted (the changed ones, for the changes rollup). */
    public long documents() {
        return documents;
    }

    /** Combinations held over every cuboid (each costs a long key and an int count of heap). */
    public long tuples() {
        long n = 0;
        for (Cuboid c : cuboids) {
            n += c.keys.length;
        }
        return n;
    }

    /** Each cuboid's dimensions and combinations, for logs: {@code [sit, cnae, geo]: 123 combinations; ...}. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (Cuboid c : cuboids) {
            if (!b.isEmpty()) {
                b.append("; ");
            }
            List<String> names = new ArrayList<>();
            for (int d : c.dims) {
                names.add(shape.fields().get(d));
            }
            b.append(names).append(": ").append(c.keys.length).append(" combinations");
        }
        return b.toString();
    }

    /** Heap held by the cuboids' arrays, in bytes. */
    public long bytes() {
        long b = 0;
        for (Cuboid c : cuboids) {
            b += 8L * c.keys.length + 4L * c.cumulative.length;
        }
        return b;
    }

    // ---- answering

    /**
     * The exact count of the query's matches, or empty when no cuboid covers its filters cheaply.
     *
     * @param selectGeo the query's (state, municipality) key intervals, as the engine selects them, asked
     *     only when the query has a geography filter and some cuboid could answer it
     */
    Optional<Long> count(RegisterQuery q, java.util.function.Function<RegisterQuery, long[][]> selectGeo) {
        if (shape != REGISTER) {
            throw new IllegalStateException("the changes rollup counts changes of some types");
        }
        return count(q, selectGeo, new int[shape.fields().size()][], false);
    }

    /**
     * The exact count of the changed documents of {@code types} (empty: every type) that match the
     * query's filters, or empty when no cuboid covers them cheaply. Only the changes rollup answers.
     */
    Optional<Long> countChanges(
            RegisterQuery q, Set<ChangeType> types, java.util.function.Function<RegisterQuery, long[][]> selectGeo) {
        if (shape != CHANGES) {
            throw new IllegalStateException("the register's rollup knows nothing of changes");
        }
        int[][] bound = new int[shape.fields().size()][];
        int wanted = 0;
        for (ChangeType t : types) {
            wanted |= 1 << t.ordinal();
        }
        boolean empty = false;
        if (wanted != 0) {
            // Every bit pattern present with one of the types; all of them is the same as none bound.
            int[] ords = new int[changeMasks.length];
            int n = 0;
            for (int i = 0; i < changeMasks.length; i++) {
                if ((changeMasks[i] & wanted) != 0) {
                    ords[n++] = i + 1;
                }
            }
            if (n < changeMasks.length) {
                bound[CHANGE_FIELDS.indexOf(CHANGE)] = Arrays.copyOf(ords, n);
                empty = n == 0;
            }
        }
        return count(q, selectGeo, bound, empty);
    }

    private Optional<Long> count(
            RegisterQuery q,
            java.util.function.Function<RegisterQuery, long[][]> selectGeo,
            int[][] bound,
            boolean empty) {
        for (Filter filter : DECLINED) {
            if (q.has(filter)) {
                return Optional.empty();
            }
        }
        empty |= bind(bound, Schema.SITUACAO, q.situacaoCadastral());
        empty |= bind(bound, Schema.CNAE, q.cnaes());
        empty |= bind(bound, Schema.PORTE, q.portes());
        empty |= flag(bound, Schema.MEI, q.mei());
        empty |= flag(bound, Schema.SIMPLES, q.simples());
        empty |= flag(bound, Schema.TELEFONE, q.comTelefone());
        empty |= flag(bound, Schema.MOVEL, q.comTelefoneMovel());
        empty |= flag(bound, Schema.EMAIL, q.comEmail());
        empty |= flag(bound, Schema.DIVIDA, q.divida());
        if (q.aberturaDe().isPresent() || q.aberturaAte().isPresent()) {
            int[] ords =
                    yearOrdinals(q.aberturaDe().orElse(null), q.aberturaAte().orElse(null));
            if (ords == null) {
                return Optional.empty();
            }
            bound[FIELDS.indexOf(Schema.ANO)] = ords;
            empty |= ords.length == 0;
        }
        // Whole states (no municipality) can also bind the state dimension: one value per state where the
        // place dimension needs the run of its municipalities. Each cuboid is priced with the binding it holds.
        int[][] byState = null;
        boolean emptyByState = empty;
        if (!q.ufs().isEmpty() && q.municipios().isEmpty() && terms[FIELDS.indexOf(UF)].length > 0) {
            byState = bound.clone();
            emptyByState |= bindStates(byState, q.ufs());
        }
        int geo = FIELDS.indexOf(Schema.GEO);
        boolean byPlace = true;
        if (!q.ufs().isEmpty() || !q.municipios().isEmpty()) {
            // Priced as bound before the places are resolved: a query no cuboid covers resolves nothing.
            bound[geo] = new int[0];
            byPlace = covered(bound);
            if (byPlace) {
                empty |= bindGeo(bound, q, selectGeo);
            }
        }
        Cuboid best = null;
        int[][] bestBound = null;
        boolean bestEmpty = false;
        long bestCost = MAX_RANGES + 1L;
        for (Cuboid c : cuboids) {
            long cost = byPlace ? c.cost(bound) : Long.MAX_VALUE;
            if (cost < bestCost) {
                best = c;
                bestBound = bound;
                bestEmpty = empty;
                bestCost = cost;
            }
            cost = byState == null ? Long.MAX_VALUE : c.cost(byState);
            if (cost < bestCost) {
                best = c;
                bestBound = byState;
                bestEmpty = emptyByState;
                bestCost = cost;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        return Optional.of(bestEmpty ? 0L : best.count(bestBound));
    }

    /** Binds the state dimension to the query's states; true when none of them has a document. */
    private boolean bindStates(int[][] bound, Set<String> ufs) {
        Set<String> codes = new TreeSet<>();
        for (String uf : ufs) {
            codes.add(stateTerm(Schema.ufOrdinal(uf)));
        }
        return bind(bound, UF, codes);
    }

    /** The state dimension's term of a state ordinal. */
    private static String stateTerm(long ufOrdinal) {
        return Schema.zeroPadded(ufOrdinal, 2);
    }

    private boolean covered(int[][] bound) {
        for (Cuboid c : cuboids) {
            if (c.covers(bound)) {
                return true;
            }
        }
        return false;
    }

    /** Binds a term dimension; true when none of the values occurs (the query matches nothing). */
    private boolean bind(int[][] bound, String field, Set<String> values) {
        if (values.isEmpty()) {
            return false;
        }
        int f = shape.fields().indexOf(field);
        int[] ords = new int[values.size()];
        int n = 0;
        for (String v : values) {
            Integer o = ordinals[f].get(v);
            if (o != null) {
                ords[n++] = o;
            }
        }
        ords = Arrays.copyOf(ords, n);
        Arrays.sort(ords);
        bound[f] = ords;
        return n == 0;
    }

    /**
     * Ordinals of the years present in the range when it is of whole years, else null (declined). An
     * absent bound is open, as in the engine; ordinal 0 (no opening date) is never among them.
     */
    private int[] yearOrdinals(LocalDate from, LocalDate to) {
        if ((from != null && from.getDayOfYear() != 1)
                || (to != null && (to.getMonthValue() != 12 || to.getDayOfMonth() != 31))) {
            return null;
        }
        int first = from == null ? Integer.MIN_VALUE : from.getYear();
        int last = to == null ? Integer.MAX_VALUE : to.getYear();
        int[] ords = new int[years.length];
        int n = 0;
        for (int i = 0; i < years.length; i++) {
            if (years[i] >= first && years[i] <= last) {
                ords[n++] = i + 1;
            }
        }
        return Arrays.copyOf(ords, n);
    }

    private boolean flag(int[][] bound, String field, Optional<Boolean> value) {
        return value.isPresent() && bind(bound, field, Set.of(value.get() ? "1" : "0"));
    }

    /**
     * Binds the geography: each key interval the engine selects (a state, a municipality) is the run of
     * ordinals of the keys inside it, found by two binary searches.
     */
    private boolean bindGeo(
            int[][] bound, RegisterQuery q, java.util.function.Function<RegisterQuery, long[][]> selectGeo) {
        int[] ords = new int[0];
        for (long[] interval : selectGeo.apply(q)) {
            int from = GenerationReader.lowerBound(geoKeys, 0, geoKeys.length, interval[0]);
            int to = GenerationReader.lowerBound(geoKeys, from, geoKeys.length, interval[1] + 1);
            int at = ords.length;
            ords = Arrays.copyOf(ords, at + (to - from));
            for (int i = from; i < to; i++) {
                ords[at + i - from] = i + 1;
            }
        }
        bound[FIELDS.indexOf(Schema.GEO)] = ords;
        return ords.length == 0;
    }

    /** Packed keys of present combinations with cumulative counts, over some of the dimensions. */
    static final class Cuboid {
        /** Dimension of each level, as an index into {@link #FIELDS}. */
        final int[] dims;
        /** Bits below each level's field in a key. */
        final int[] shifts;
        /** Terms of each level's dimension (bound on the values it can enumerate). */
        final int[] sizes;

        final long[] keys;
        /** cumulative[i]: documents of keys[0..i); length keys.length + 1. */
        final int[] cumulative;

        Cuboid(int[] dims, int[] sizes, long[] keys, int[] cumulative) {
            this.dims = dims;
            this.sizes = sizes;
            this.keys = keys;
            this.cumulative = cumulative;
            this.shifts = new int[dims.length];
            int shift = 0;
            for (int level = dims.length - 1; level >= 0; level--) {
                shifts[level] = shift;
                shift += bits(sizes[level]);
            }
        }

        /** Bits for ordinals 0..size (0 = no term). */
        static int bits(int size) {
            return 64 - Long.numberOfLeadingZeros(size);
        }

        static int keyBits(int[] sizes) {
            int b = 0;
            for (int s : sizes) {
                b += bits(s);
            }
            return b;
        }

        /** True when every bound dimension is one of this cuboid's. */
        boolean covers(int[][] bound) {
            for (int f = 0; f < bound.length; f++) {
                if (bound[f] != null && indexOf(dims, f) < 0) {
                    return false;
                }
            }
            return true;
        }

        /** Key ranges the query costs here, an upper bound; {@code Long.MAX_VALUE} when not covered. */
        long cost(int[][] bound) {
            if (!covers(bound)) {
                return Long.MAX_VALUE;
            }
            int last = lastBound(bound);
            if (last < 0) {
                return 1;
            }
            long cost = runs(bound[dims[last]]);
            for (int level = 0; level < last; level++) {
                int[] values = bound[dims[level]];
                cost *= values == null ? sizes[level] + 1L : values.length;
                if (cost > MAX_RANGES) {
                    return Long.MAX_VALUE;
                }
            }
            return Math.max(1, cost);
        }

        private int lastBound(int[][] bound) {
            int last = -1;
            for (int level = 0; level < dims.length; level++) {
                if (bound[dims[level]] != null) {
                    last = level;
                }
            }
            return last;
        }

        long count(int[][] bound) {
            int last = lastBound(bound);
            if (last < 0) {
                return cumulative[keys.length];
            }
            // The last level's runs once, not once per prefix: a state's municipalities are hundreds of
            // ordinals, and each (situation, year) prefix would scan them again.
            int[] values = bound[dims[last]];
            int[] runs = new int[2 * Rollup.runs(values)];
            for (int i = 0, r = 0; i < values.length; r += 2) {
                int j = i;
                while (j + 1 < values.length && values[j + 1] == values[j] + 1) {
                    j++;
                }
                runs[r] = values[i];
                runs[r + 1] = values[j] + 1;
                i = j + 1;
            }
            return sum(0, 0, keys.length, 0L, bound, last, runs);
        }

        /** @param runs the last bound level's runs of ordinals, {@code [first, end)} pairs in ascending order */
        private long sum(int level, int lo, int hi, long prefix, int[][] bound, int last, int[] runs) {
            int shift = shifts[level];
            int[] values = bound[dims[level]];
            long total = 0;
            if (level == last) {
                for (int r = 0; r < runs.length && lo < hi; r += 2) {
                    int a = lowerBound(lo, hi, prefix + ((long) runs[r] << shift));
                    int b = lowerBound(a, hi, prefix + ((long) runs[r + 1] << shift));
                    total += cumulative[b] - cumulative[a];
                    lo = b;
                }
                return total;
            }
            if (values == null) {
                for (int a = lo; a < hi; ) {
                    long p = keys[a] >>> shift << shift;
                    int b = lowerBound(a, hi, p + (1L << shift));
                    total += sum(level + 1, a, b, p, bound, last, runs);
                    a = b;
                }
                return total;
            }
            for (int v : values) {
                long p = prefix + ((long) v << shift);
                int a = lowerBound(lo, hi, p);
                int b = lowerBound(a, hi, p + (1L << shift));
                if (a < b) {
                    total += sum(level + 1, a, b, p, bound, last, runs);
                }
            }
            return total;
        }

        /** First index in [lo, hi) whose key is at least {@code key}, else hi. */
        private int lowerBound(int lo, int hi, long key) {
            return GenerationReader.lowerBound(keys, lo, hi, key);
        }
    }

    private static int runs(int[] sorted) {
        int runs = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1] + 1) {
                runs++;
            }
        }
        return runs;
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    // ---- building

    /** Documents whose dimension values are gathered at once while building. */
    private static final int BUILD_WINDOW = 1 << 16;

    /** The rollups one pass built: the register's, and the changes rollup when the generation has changes. */
    public record Built(Rollup register, Rollup changes) {}

    /**
     * Counts every cuboid's combinations over the live documents of {@code reader} and writes the rollup
     * into {@code dir} (synced); when the generation has changes ({@link ChangeSet#FILE} in {@code dir}),
     * the changes rollup too, in the same pass. Reads each dimension's postings once, a window of
     * documents at a time.
     */
    public static Built write(DirectoryReader reader, Directory dir) throws IOException {
        ChangeSet changes = ChangeSet.read(dir, reader);
        Built built = build(reader, changes);
        built.register().writeTo(dir);
        if (built.changes() != null) {
            built.changes().writeTo(dir);
        }
        return built;
    }

    private static Built build(DirectoryReader reader, ChangeSet changes) throws IOException {
        List<String> fields = changes == null ? FIELDS : CHANGE_FIELDS;
        String[][] terms = new String[fields.size()][];
        for (int f = 0; f < FIELDS.size(); f++) {
            TreeSet<String> all = new TreeSet<>();
            for (LeafReaderContext ctx : reader.leaves()) {
                Terms t = ctx.reader().terms(FIELDS.get(f));
                if (t != null) {
                    TermsEnum te = t.iterator();
                    for (BytesRef b = te.next(); b != null; b = te.next()) {
                        all.add(b.utf8ToString());
                    }
                }
            }
            terms[f] = all.toArray(new String[0]);
        }
        // The derived state dimension: the states of the place keys present, and each place's state ordinal.
        String[] placeTerms = terms[FIELDS.indexOf(Schema.GEO)];
        TreeSet<String> states = new TreeSet<>();
        for (String g : placeTerms) {
            states.add(stateTerm(Long.parseLong(g) / 10_000));
        }
        String[] stateTerms = states.toArray(new String[0]);
        terms[FIELDS.indexOf(UF)] = stateTerms;
        int[] stateOfPlace = new int[placeTerms.length + 1];
        for (int i = 0; i < placeTerms.length; i++) {
            stateOfPlace[i + 1] =
                    Arrays.binarySearch(stateTerms, stateTerm(Long.parseLong(placeTerms[i]) / 10_000)) + 1;
        }
        // The derived change dimension: the bit patterns present, and each pattern's ordinal.
        int[] changeOrdinal = new int[256];
        if (changes != null) {
            TreeSet<String> masks = new TreeSet<>();
            for (int i = 0; i < changes.size(); i++) {
                masks.add(changeTerm(changes.maskAt(i)));
            }
            String[] maskTerms = masks.toArray(new String[0]);
            terms[CHANGE_FIELDS.indexOf(CHANGE)] = maskTerms;
            for (int i = 0; i < maskTerms.length; i++) {
                changeOrdinal[Integer.parseInt(maskTerms[i])] = i + 1;
            }
        }
        Tally register = new Tally(REGISTER.cuboids(), terms);
        Tally changed = changes == null ? null : new Tally(CHANGES.cuboids(), terms);
        int[][] values = new int[fields.size()][BUILD_WINDOW];
        for (LeafReaderContext ctx : reader.leaves()) {
            countLeaf(ctx, terms, stateOfPlace, changes, changeOrdinal, register, changed, values);
        }
        Rollup registerRollup =
                new Rollup(REGISTER, register.documents, Arrays.copyOf(terms, FIELDS.size()), register.cuboids());
        Rollup changesRollup =
                changed == null ? null : new Rollup(CHANGES, changed.documents, terms, changed.cuboids());
        if (changesRollup != null && changesRollup.documents() != changes.size()) {
            throw new CorruptIndexException(
                    "the changes rollup counted " + changesRollup.documents() + " documents, the change set holds "
                            + changes.size(),
                    reader.toString());
        }
        return new Built(registerRollup, changesRollup);
    }

    /** The change dimension's term of a change set entry's type bits. */
    private static String changeTerm(int mask) {
        return Schema.zeroPadded(mask, 3);
    }

    /** One rollup being counted: its cuboids' shapes, a counter per cuboid, the documents counted. */
    private static final class Tally {
        final Cuboid[] shapes;
        final LongHashTable[] counters;
        long documents;

        /** Empty cuboids of these dimension orders (their shifts), skipping one too wide for a key. */
        Tally(List<List<String>> orders, String[][] terms) {
            List<Cuboid> out = new ArrayList<>();
            for (List<String> order : orders) {
                int[] dims = new int[order.size()];
                int[] sizes = new int[order.size()];
                for (int level = 0; level < dims.length; level++) {
                    dims[level] = CHANGE_FIELDS.indexOf(order.get(level));
                    sizes[level] = terms[dims[level]].length;
                }
                if (Cuboid.keyBits(sizes) > MAX_KEY_BITS) {
                    // Only a register with absurdly many distinct values gets here; its counts go to the engine.
                    System.getLogger(Rollup.class.getName())
                            .log(
                                    System.Logger.Level.WARNING,
                                    "rollup cuboid {0} needs more than 62 key bits: skipped",
                                    order);
                    continue;
                }
                out.add(new Cuboid(dims, sizes, new long[0], new int[1]));
            }
            this.shapes = out.toArray(new Cuboid[0]);
            this.counters = new LongHashTable[shapes.length];
            for (int c = 0; c < shapes.length; c++) {
                counters[c] = LongHashTable.map(2048);
            }
        }

        /** Counts the document at {@code d} of the window's dimension values into every cuboid. */
        void add(int[][] values, int d) {
            documents++;
            for (int c = 0; c < shapes.length; c++) {
                Cuboid s = shapes[c];
                long key = 0;
                for (int level = 0; level < s.dims.length; level++) {
                    key |= (long) values[s.dims[level]][d] << s.shifts[level];
                }
                counters[c].increment(key);
            }
        }

        /** The counted cuboids: each shape's keys sorted with their cumulative counts. */
        Cuboid[] cuboids() {
            Cuboid[] cuboids = new Cuboid[shapes.length];
            for (int c = 0; c < shapes.length; c++) {
                long[] keys = counters[c].sortedKeys();
                int[] cumulative = new int[keys.length + 1];
                for (int i = 0; i < keys.length; i++) {
                    cumulative[i + 1] = cumulative[i] + counters[c].get(keys[i]);
                }
                cuboids[c] = new Cuboid(shapes[c].dims, shapes[c].sizes, keys, cumulative);
            }
            return cuboids;
        }
    }

    /**
     * Counts one segment's live documents into the register's tally, and its changed ones into the
     * changes' tally (when the generation has changes).
     *
     * @param stateOfPlace the state ordinal of each place ordinal (the derived dimension's values)
     * @param changeOrdinal the change dimension's ordinal of each bit pattern
     */
    private static void countLeaf(
            LeafReaderContext ctx,
            String[][] terms,
            int[] stateOfPlace,
            ChangeSet changes,
            int[] changeOrdinal,
            Tally register,
            Tally changed,
            int[][] values)
            throws IOException {
        LeafReader leaf = ctx.reader();
        int maxDoc = leaf.maxDoc();
        Bits live = leaf.getLiveDocs();
        List<List<PostingsEnum>> enums = new ArrayList<>();
        List<int[]> ords = new ArrayList<>();
        for (int f = 0; f < FIELDS.size(); f++) {
            List<PostingsEnum> pes = new ArrayList<>();
            List<Integer> os = new ArrayList<>();
            Terms t = leaf.terms(FIELDS.get(f));
            if (t != null) {
                TermsEnum te = t.iterator();
                for (BytesRef b = te.next(); b != null; b = te.next()) {
                    pes.add(te.postings(null, PostingsEnum.NONE));
                    os.add(Arrays.binarySearch(terms[f], b.utf8ToString()) + 1);
                }
            }
            enums.add(pes);
            ords.add(os.stream().mapToInt(Integer::intValue).toArray());
        }
        int[] change = changes == null ? null : values[CHANGE_FIELDS.indexOf(CHANGE)];
        for (int from = 0; from < maxDoc; from += BUILD_WINDOW) {
            int to = Math.min(maxDoc, from + BUILD_WINDOW);
            for (int f = 0; f < FIELDS.size(); f++) {
                int[] v = values[f];
                Arrays.fill(v, 0);
                List<PostingsEnum> pes = enums.get(f);
                int[] os = ords.get(f);
                for (int i = 0; i < pes.size(); i++) {
                    PostingsEnum pe = pes.get(i);
                    int doc = pe.docID() < from ? pe.advance(from) : pe.docID();
                    for (; doc < to; doc = pe.nextDoc()) {
                        if (v[doc - from] != 0) {
                            throw new CorruptIndexException(
                                    "document " + doc + " holds two terms of " + FIELDS.get(f), leaf.toString());
                        }
                        v[doc - from] = os[i];
                    }
                }
            }
            int[] places = values[FIELDS.indexOf(Schema.GEO)];
            int[] state = values[FIELDS.indexOf(UF)];
            for (int d = 0; d < to - from; d++) {
                state[d] = places[d] == 0 ? 0 : stateOfPlace[places[d]];
            }
            if (change != null) {
                Arrays.fill(change, 0);
                int end = ctx.docBase + to;
                for (int i = changes.firstAtOrAfter(ctx.docBase + from);
                        i < changes.size() && changes.docAt(i) < end;
                        i++) {
                    change[changes.docAt(i) - ctx.docBase - from] = changeOrdinal[changes.maskAt(i)];
                }
            }
            for (int doc = from; doc < to; doc++) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                int d = doc - from;
                register.add(values, d);
                if (change != null && change[d] != 0) {
                    changed.add(values, d);
                }
            }
        }
    }

    // ---- file

    private void writeTo(Directory dir) throws IOException {
        List<String> fields = shape.fields();
        try (IndexOutput out = dir.createOutput(shape.file(), IOContext.DEFAULT)) {
            CodecUtil.writeHeader(out, shape.codec(), shape.version());
            out.writeVLong(documents);
            out.writeVInt(fields.size());
            for (int f = 0; f < fields.size(); f++) {
                out.writeString(fields.get(f));
                out.writeVInt(terms[f].length);
                for (String t : terms[f]) {
                    out.writeString(t);
                }
            }
            out.writeVInt(cuboids.length);
            for (Cuboid c : cuboids) {
                out.writeVInt(c.dims.length);
                for (int d : c.dims) {
                    out.writeVInt(d);
                }
                out.writeVInt(c.keys.length);
                for (long k : c.keys) {
                    out.writeLong(k);
                }
                for (int n : c.cumulative) {
                    out.writeInt(n);
                }
            }
            CodecUtil.writeFooter(out);
        }
        dir.sync(List.of(shape.file()));
    }

    /**
     * Reads the rollup of a generation, or null when it is of a later format (its counts then go to the
     * engine).
     *
     * @throws IndexFormatTooOldException when the file is of an earlier format
     * @throws CorruptIndexException when the file fails its checksum or does not match the generation
     */
    public static Rollup read(Directory dir, long liveDocuments) throws IOException {
        return read(dir, REGISTER, liveDocuments);
    }

    /**
     * Reads the changes rollup of a generation, or null when it has none (a generation without changes,
     * or one built before it existed) or one of a later format: its change counts then go to the engine.
     *
     * @throws CorruptIndexException when the file fails its checksum or does not match the change set
     */
    static Rollup readChanges(Directory dir, ChangeSet changes) throws IOException {
        if (changes == null || !Arrays.asList(dir.listAll()).contains(CHANGES_FILE)) {
            return null;
        }
        return read(dir, CHANGES, changes.size());
    }

    private static Rollup read(Directory dir, Shape shape, long expectedDocuments) throws IOException {
        List<String> expected = shape.fields();
        try (ChecksumIndexInput in = dir.openChecksumInput(shape.file())) {
            try {
                CodecUtil.checkHeader(in, shape.codec(), shape.version(), shape.version());
            } catch (IndexFormatTooNewException e) {
                // A later release's format: the generation stays searchable, its counts go to the engine.
                System.getLogger(Rollup.class.getName())
                        .log(
                                System.Logger.Level.WARNING,
                                "rollup of another format version ignored: " + e.getMessage());
                return null;
            }
            long documents = in.readVLong();
            int fields = in.readVInt();
            if (fields != expected.size()) {
                throw new CorruptIndexException(
                        "rollup has " + fields + " dimensions, " + expected.size() + " expected", in);
            }
            // Dimensions are matched by name, so their order in the file is free.
            String[][] terms = new String[expected.size()][];
            Arrays.fill(terms, new String[0]);
            int[] dimension = new int[fields];
            boolean[] seen = new boolean[expected.size()];
            for (int f = 0; f < fields; f++) {
                String name = in.readString();
                dimension[f] = expected.indexOf(name);
                if (dimension[f] < 0 || seen[dimension[f]]) {
                    throw new CorruptIndexException(
                            "rollup dimension " + f + " is " + name + ": unknown or repeated", in);
                }
                String[] t = new String[in.readVInt()];
                for (int i = 0; i < t.length; i++) {
                    t[i] = in.readString();
                }
                terms[dimension[f]] = t;
                seen[dimension[f]] = true;
            }
            Cuboid[] cuboids = new Cuboid[in.readVInt()];
            for (int c = 0; c < cuboids.length; c++) {
                int[] dims = new int[in.readVInt()];
                int[] sizes = new int[dims.length];
                for (int level = 0; level < dims.length; level++) {
                    int d = in.readVInt();
                    if (d < 0 || d >= fields) {
                        throw new CorruptIndexException("rollup cuboid " + c + " names dimension " + d, in);
                    }
                    dims[level] = dimension[d];
                    sizes[level] = terms[dims[level]].length;
                }
                long[] keys = new long[in.readVInt()];
                in.readLongs(keys, 0, keys.length);
                int[] cumulative = new int[keys.length + 1];
                in.readInts(cumulative, 0, cumulative.length);
                cuboids[c] = new Cuboid(dims, sizes, keys, cumulative);
            }
            CodecUtil.checkFooter(in);
            if (documents != expectedDocuments) {
                throw new CorruptIndexException(
                        shape.file() + " counted " + documents + " documents, the generation holds "
                                + expectedDocuments,
                        in);
            }
            return new Rollup(shape, documents, terms, cuboids);
        }
    }
}
