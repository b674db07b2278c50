package dev.cadastro.register.internal;

import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.Empresa;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.YearMonth;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * A generation's changes against the generation that was current when it was built ({@code
 * changes.bin}, ADR 0047): per changed document of the new generation, its change types and the previous
 * values of the changed fields. Held in memory as one bitset per type and segment, so that a change type
 * is one more clause of the query engine over the new generation's own documents (every search filter
 * applies to the new record at the engine's cost), and the previous values as a sorted array of
 * document ids and a byte array.
 *
 * <p>Computed by a merge-join of the two generations walked in CNPJ order ({@link CnpjOrder}): the
 * previous one's walk runs on a thread of its own and hands its (key, document) pairs over in blocks;
 * each new document learns its previous document, or none (an opening); then the new generation's
 * records are read in document order and compared, as encoded bytes first (most are equal), decoded
 * only when they differ. A CNPJ of the previous generation that the new one lacks is counted ({@link
 * #removed}), not served: the Receita keeps closed companies in its dump, with situation 08.
 */
public final class ChangeSet {
    public static final String FILE = "changes.bin";
    private static final String CODEC = "CadastroChanges";
    private static final int VERSION = 1;
    private static final ChangeType[] TYPES = ChangeType.values();

    /** The fields whose previous values are kept, by id. */
    static final List<String> FIELDS = List.of(
            "situacao_cadastral",
            "uf",
            "municipio",
            "bairro",
            "cep",
            "logradouro",
            "telefone",
            "email",
            "cnae",
            "porte",
            "capital_social");

    private final long previousGeneration;
    private final Optional<YearMonth> month;
    private final Optional<YearMonth> previousMonth;
    private final long removed;
    private final long[] perType;
    private final int[] docs;
    private final byte[] masks;
    private final int[] offsets;
    private final byte[] values;
    /** [type][leaf]; null where a segment holds none of the type. */
    private final FixedBitSet[][] bits;
    /**
     * [type][leaf]: each bitset's cardinality, counted once here rather than by every query (a popcount
     * of the whole segment's bitset: 8 types and 4 segments at 70 M are 8.8 million words a query).
     */
    private final int[][] cardinalities;

    private ChangeSet(
            long previousGeneration,
            Optional<YearMonth> month,
            Optional<YearMonth> previousMonth,
            long removed,
            long[] perType,
            int[] docs,
            byte[] masks,
            int[] offsets,
            byte[] values,
            FixedBitSet[][] bits) {
        this.previousGeneration = previousGeneration;
        this.month = month;
        this.previousMonth = previousMonth;
        this.removed = removed;
        this.perType = perType;
        this.docs = docs;
        this.masks = masks;
        this.offsets = offsets;
        this.values = values;
        this.bits = bits;
        this.cardinalities = new int[bits.length][];
        for (int t = 0; t < bits.length; t++) {
            cardinalities[t] = new int[bits[t].length];
            for (int leaf = 0; leaf < bits[t].length; leaf++) {
                cardinalities[t][leaf] = bits[t][leaf] == null ? 0 : bits[t][leaf].cardinality();
            }
        }
    }

    /** What {@link #compute} found and wrote. */
    public record Stats(long[] perType, long entries, long removed, long bytes, long nanos) {
        public long count(ChangeType t) {
            return perType[t.ordinal()];
        }
    }

    public long previousGeneration() {
        return previousGeneration;
    }

    /** The month of these changes: the new generation's reference month. */
    public Optional<YearMonth> month() {
        return month;
    }

    /** The previous generation's reference month. */
    public Optional<YearMonth> previousMonth() {
        return previousMonth;
    }

    /** CNPJs of the previous generation the new one lacks (not served). */
    public long removed() {
        return removed;
    }

    public long count(ChangeType t) {
        return perType[t.ordinal()];
    }

    /** Changed documents (each counted once, whatever its types). */
    public int size() {
        return docs.length;
    }

    /** Heap held: bitsets, document ids, masks, offsets and previous values. */
    public long bytes() {
        long b = docs.length * 9L + values.length;
        for (FixedBitSet[] perLeaf : bits) {
            for (FixedBitSet f : perLeaf) {
                b += f == null ? 0 : f.getBits().length * 8L;
            }
        }
        return b;
    }

    /**
     * The engine clause of the wanted types in segment {@code leaf} (OR of their bitsets), or null when
     * the segment holds none of them.
     */
    Clause clause(int leaf, Set<ChangeType> types) {
        Clause c = new Clause(types.size() == 1);
        for (ChangeType t : types.isEmpty() ? EnumSet.allOf(ChangeType.class) : types) {
            FixedBitSet b = bits[t.ordinal()][leaf];
            if (b != null) {
                c.addBitset(b, cardinalities[t.ordinal()][leaf]);
            }
        }
        return c.isEmpty() ? null : c;
    }

    /** The document of the {@code i}th entry, in document order ({@code i < size()}). */
    int docAt(int i) {
        return docs[i];
    }

    /** The index of the first entry whose document is {@code doc} or later ({@code size()} when none). */
    int firstAtOrAfter(int doc) {
        int i = Arrays.binarySearch(docs, doc);
        return i >= 0 ? i : -i - 1;
    }

    /** The type bits of the {@code i}th entry (bit {@code t.ordinal()} for each type {@code t}). */
    int maskAt(int i) {
        return masks[i] & 0xFF;
    }

    /** The types of a changed top-level document (empty when it did not change). */
    public Set<ChangeType> types(int doc) {
        int i = Arrays.binarySearch(docs, doc);
        Set<ChangeType> out = EnumSet.noneOf(ChangeType.class);
        if (i >= 0) {
            for (ChangeType t : TYPES) {
                if ((masks[i] & (1 << t.ordinal())) != 0) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    /** The previous values of a changed top-level document, by field name, in the fields' order. */
    public Map<String, String> previous(int doc) {
        int i = Arrays.binarySearch(docs, doc);
        Map<String, String> out = new LinkedHashMap<>();
        if (i < 0) {
            return out;
        }
        int p = offsets[i];
        int end = offsets[i + 1];
        while (p < end) {
            int field = values[p++];
            int len = values[p++] & 0xFF;
            if (len == 0xFF) {
                len = ((values[p] & 0xFF) << 8) | (values[p + 1] & 0xFF);
                p += 2;
            }
            out.put(FIELDS.get(field), new String(values, p, len, StandardCharsets.UTF_8));
            p += len;
        }
        return out;
    }

    /** Reads a generation's changes, or null when it has none. */
    static ChangeSet read(Directory dir, DirectoryReader reader) throws IOException {
        if (!Arrays.asList(dir.listAll()).contains(FILE)) {
            return null;
        }
        try (ChecksumIndexInput in = dir.openChecksumInput(FILE)) {
            CodecUtil.checkHeader(in, CODEC, VERSION, VERSION);
            long previousGeneration = in.readVLong();
            Optional<YearMonth> month = month(in.readString());
            Optional<YearMonth> previousMonth = month(in.readString());
            long removed = in.readVLong();
            long[] perType = new long[TYPES.length];
            for (int t = 0; t < TYPES.length; t++) {
                perType[t] = in.readVLong();
            }
            int n = in.readVInt();
            int[] docs = new int[n];
            byte[] masks = new byte[n];
            int[] offsets = new int[n + 1];
            int valueBytes = in.readVInt();
            byte[] values = new byte[valueBytes];
            int doc = -1;
            int p = 0;
            List<LeafReaderContext> leaves = reader.leaves();
            FixedBitSet[][] bits = new FixedBitSet[TYPES.length][leaves.size()];
            int[] docBases = new int[leaves.size()];
            for (int l = 0; l < leaves.size(); l++) {
                docBases[l] = leaves.get(l).docBase;
            }
            for (int i = 0; i < n; i++) {
                doc += in.readVInt() + 1;
                docs[i] = doc;
                masks[i] = in.readByte();
                int len = in.readVInt();
                offsets[i] = p;
                in.readBytes(values, p, len);
                p += len;
                int leaf = org.apache.lucene.index.ReaderUtil.subIndex(doc, docBases);
                for (int t = 0; t < TYPES.length; t++) {
                    if ((masks[i] & (1 << t)) != 0) {
                        FixedBitSet b = bits[t][leaf];
                        if (b == null) {
                            b = bits[t][leaf] =
                                    new FixedBitSet(leaves.get(leaf).reader().maxDoc());
                        }
                        b.set(doc - docBases[leaf]);
                    }
                }
            }
            offsets[n] = p;
            CodecUtil.checkFooter(in);
            if (p != valueBytes) {
                throw new IOException(
                        FILE + " holds " + p + " bytes of previous values, its header says " + valueBytes);
            }
            return new ChangeSet(
                    previousGeneration, month, previousMonth, removed, perType, docs, masks, offsets, values, bits);
        }
    }

    private static Optional<YearMonth> month(String s) {
        return s.isEmpty() ? Optional.empty() : Optional.of(YearMonth.parse(s));
    }

    // ---- computing

    private static final int BLOCK = 4096;

    /** A block of the previous generation's walk; {@code n < 0} ends it. */
    private record Block(long[] keys, int[] docs, int n) {}

    /**
     * Compares the committed new generation ({@code next}, its records encoded by {@code nextCodec})
     * with {@code previous} and writes {@value #FILE} into {@code out}.
     */
    public static Stats compute(
            GenerationReader previous,
            DirectoryReader next,
            RecordCodec nextCodec,
            Optional<YearMonth> month,
            Directory out)
            throws IOException {
        long start = System.nanoTime();
        int[] previousOf = new int[next.maxDoc()];
        Arrays.fill(previousOf, -1);
        long removed = join(previous.reader(), next, previousOf);

        long[] perType = new long[TYPES.length];
        ByteArrayOutputStream entry = new ByteArrayOutputStream(128);
        long entries = 0;
        long bytes;
        String tmp;
        long valueBytes = 0;
        try (IndexOutput o = out.createTempOutput("changes", "bin", IOContext.DEFAULT)) {
            tmp = o.getName();
            // Entries first (their count and size are known only at the end), then the file around them.
            int last = -1;
            for (LeafReaderContext ctx : next.leaves()) {
                BinaryDocValues records = ctx.reader().getBinaryDocValues(Schema.RECORD);
                Bits live = ctx.reader().getLiveDocs();
                if (records == null) {
                    throw new IOException(ctx.reader() + " has no record store");
                }
                for (int d = records.nextDoc();
                        d != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS;
                        d = records.nextDoc()) {
                    if (live != null && !live.get(d)) {
                        continue;
                    }
                    int doc = ctx.docBase + d;
                    int mask;
                    entry.reset();
                    int old = previousOf[doc];
                    if (old < 0) {
                        mask = 1 << ChangeType.ABERTURA.ordinal();
                    } else {
                        BytesRef now = records.binaryValue();
                        BytesRef before = previous.rawRecord(old);
                        int a = RecordCodec.bodyOffset(now.bytes, now.offset);
                        int b = RecordCodec.bodyOffset(before.bytes, before.offset);
                        if (Arrays.equals(
                                now.bytes,
                                a,
                                now.offset + now.length,
                                before.bytes,
                                b,
                                before.offset + before.length)) {
                            continue;
                        }
                        Empresa e = nextCodec.decode(now.bytes, now.offset);
                        Empresa p = previous.codec().decode(before.bytes, before.offset);
                        mask = compare(p, e, entry);
                        if (mask == 0) {
                            continue;
                        }
                    }
                    for (int t = 0; t < TYPES.length; t++) {
                        if ((mask & (1 << t)) != 0) {
                            perType[t]++;
                        }
                    }
                    o.writeVInt(doc - last - 1);
                    last = doc;
                    o.writeByte((byte) mask);
                    o.writeVInt(entry.size());
                    byte[] v = entry.toByteArray();
                    o.writeBytes(v, v.length);
                    valueBytes += v.length;
                    entries++;
                }
            }
            if (valueBytes > Integer.MAX_VALUE || entries > Integer.MAX_VALUE) {
                throw new IOException("too many changes to hold: " + entries + " entries, " + valueBytes + " bytes");
            }
            CodecUtil.writeFooter(o);
        }
        try (IndexOutput o = out.createOutput(FILE, IOContext.DEFAULT);
                ChecksumIndexInput body = out.openChecksumInput(tmp)) {
            CodecUtil.writeHeader(o, CODEC, VERSION);
            o.writeVLong(previous.meta().generation());
            o.writeString(month.map(YearMonth::toString).orElse(""));
            o.writeString(
                    previous.meta().referenceMonth().map(YearMonth::toString).orElse(""));
            o.writeVLong(removed);
            for (long c : perType) {
                o.writeVLong(c);
            }
            o.writeVInt((int) entries);
            o.writeVInt((int) valueBytes);
            o.copyBytes(body, body.length() - CodecUtil.footerLength());
            CodecUtil.writeFooter(o);
            bytes = o.getFilePointer();
        } finally {
            out.deleteFile(tmp);
        }
        out.sync(List.of(FILE));
        return new Stats(perType, entries, removed, bytes, System.nanoTime() - start);
    }

    /** The change types between two records of one CNPJ, writing the previous values into {@code out}. */
    static int compare(Empresa p, Empresa e, ByteArrayOutputStream out) {
        int mask = 0;
        if (!Objects.equals(p.situacaoCadastral(), e.situacaoCadastral())) {
            mask |= 1 << ChangeType.SITUACAO.ordinal();
            if ("08".equals(e.situacaoCadastral())) {
                mask |= 1 << ChangeType.BAIXA.ordinal();
            }
            put(out, 0, p.situacaoCadastral());
        }
        if (!Objects.equals(p.uf(), e.uf())
                || !Objects.equals(p.municipio(), e.municipio())
                || !Objects.equals(p.bairro(), e.bairro())
                || !Objects.equals(p.cep(), e.cep())
                || !Objects.equals(p.logradouro(), e.logradouro())) {
            mask |= 1 << ChangeType.ENDERECO.ordinal();
            put(out, 1, p.uf());
            put(out, 2, p.municipio());
            put(out, 3, p.bairro());
            put(out, 4, p.cep());
            put(out, 5, p.logradouro());
        }
        if (!Objects.equals(p.telefone(), e.telefone()) || !Objects.equals(p.email(), e.email())) {
            mask |= 1 << ChangeType.CONTATO.ordinal();
            put(out, 6, p.telefone());
            put(out, 7, p.email());
        }
        if (!Objects.equals(p.cnae(), e.cnae())) {
            mask |= 1 << ChangeType.CNAE.ordinal();
            put(out, 8, p.cnae());
        }
        if (!Objects.equals(p.porte(), e.porte())) {
            mask |= 1 << ChangeType.PORTE.ordinal();
            put(out, 9, p.porte());
        }
        BigDecimal a = p.capitalSocial();
        BigDecimal b = e.capitalSocial();
        if (a == null ? b != null : b == null || a.compareTo(b) != 0) {
            mask |= 1 << ChangeType.CAPITAL.ordinal();
            put(out, 10, a == null ? null : a.toPlainString());
        }
        return mask;
    }

    private static void put(ByteArrayOutputStream out, int field, String value) {
        byte[] v = value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(v.length, 65_535);
        out.write(field);
        if (len < 0xFF) {
            out.write(len);
        } else {
            out.write(0xFF);
            out.write(len >>> 8);
            out.write(len & 0xFF);
        }
        out.write(v, 0, len);
    }

    /**
     * The merge-join: fills {@code previousOf} (new top-level document to previous one) and returns how
     * many previous CNPJs the new generation lacks.
     */
    private static long join(DirectoryReader previous, DirectoryReader next, int[] previousOf) throws IOException {
        BlockingQueue<Block> queue = new ArrayBlockingQueue<>(8);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(
                () -> {
                    long[][] keys = {new long[BLOCK]};
                    int[][] docs = {new int[BLOCK]};
                    int[] n = {0};
                    try {
                        CnpjOrder.walk(previous, (key, doc) -> {
                            keys[0][n[0]] = key;
                            docs[0][n[0]++] = doc;
                            if (n[0] == BLOCK) {
                                put(queue, new Block(keys[0], docs[0], n[0]));
                                keys[0] = new long[BLOCK];
                                docs[0] = new int[BLOCK];
                                n[0] = 0;
                            }
                        });
                        put(queue, new Block(keys[0], docs[0], n[0]));
                    } catch (IOException | RuntimeException e) {
                        failure.set(e);
                    } finally {
                        try {
                            put(queue, new Block(null, null, -1));
                        } catch (IOException e) {
                            failure.compareAndSet(null, e);
                        }
                    }
                },
                "changes-previous-walk");
        producer.setDaemon(true);
        producer.start();
        Cursor c = new Cursor(queue, failure);
        try {
            c.advance();
            CnpjOrder.walk(next, (key, doc) -> {
                while (c.key < key) {
                    c.removed++;
                    c.advance();
                }
                if (c.key == key) {
                    previousOf[doc] = c.doc;
                    c.advance();
                }
            });
            while (c.key != Long.MAX_VALUE) {
                c.removed++;
                c.advance();
            }
            return c.removed;
        } finally {
            producer.interrupt();
        }
    }

    private static void put(BlockingQueue<Block> queue, Block b) throws IOException {
        try {
            queue.put(b);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("the walk of the previous generation was interrupted", e);
        }
    }

    /** The consumer side of the previous generation's walk. */
    private static final class Cursor {
        private final BlockingQueue<Block> queue;
        private final AtomicReference<Throwable> failure;
        private Block block;
        private int at;
        long key;
        int doc;
        long removed;

        Cursor(BlockingQueue<Block> queue, AtomicReference<Throwable> failure) {
            this.queue = queue;
            this.failure = failure;
        }

        void advance() throws IOException {
            while (block == null || at >= block.n) {
                if (block != null && block.n < 0) {
                    key = Long.MAX_VALUE;
                    return;
                }
                try {
                    block = queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while comparing generations", e);
                }
                at = 0;
                if (block.n < 0) {
                    Throwable f = failure.get();
                    if (f != null) {
                        throw new IOException("walking the previous generation failed", f);
                    }
                    key = Long.MAX_VALUE;
                    return;
                }
            }
            key = block.keys[at];
            doc = block.docs[at];
            at++;
        }
    }
}
