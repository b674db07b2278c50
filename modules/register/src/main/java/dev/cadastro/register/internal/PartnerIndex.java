package dev.cadastro.register.internal;

import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.Partner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The partner structure (QSA) of one generation: a second, small Lucene index in the generation's
 * {@value #DIR} folder, one document per run of consecutive Socios rows of one CNPJ root (the dump
 * groups a company's partners), with the root as an indexed keyword and the rows as one stored blob.
 * A lookup is one term seek per segment and one stored-document read per run.
 *
 * <p>The blob keeps codes, not descriptions: the qualification descriptions are resolved on read
 * through the generation's own lookup tables, so they are exactly the ones the generation was loaded
 * with. A run carries the order it was added in, so a root's partners come back in dump order whatever
 * the segment merges did.
 */
public final class PartnerIndex implements AutoCloseable {
    /** The folder inside a generation directory. */
    public static final String DIR = "partners";
    /** Commit user data: the number of runs (documents) and rows the build added. */
    public static final String RUNS = "runs";

    public static final String ROWS = "rows";
    static final String ROOT = "root";
    static final String BLOB = "partners";
    /** The most rows one document holds; a longer run is split. */
    public static final int MAX_ROWS_PER_RUN = 1024;

    private final Directory directory;
    private final DirectoryReader reader;

    private PartnerIndex(Directory directory, DirectoryReader reader) {
        this.directory = directory;
        this.reader = reader;
    }

    /**
     * Opens the partner index of a generation directory.
     *
     * @throws IOException when the index is missing or cannot be read, or does not hold what its commit says
     */
    public static PartnerIndex open(Path generationDir) throws IOException {
        Path dir = generationDir.resolve(DIR);
        Directory directory = FSDirectory.open(dir);
        DirectoryReader reader = null;
        try {
            reader = DirectoryReader.open(directory);
            Map<String, String> data = reader.getIndexCommit().getUserData();
            String runs = data.get(RUNS);
            if (runs == null || Long.parseLong(runs) != reader.numDocs()) {
                throw new IOException(
                        dir + " holds " + reader.numDocs() + " partner documents, its commit says " + runs);
            }
            return new PartnerIndex(directory, reader);
        } catch (IOException | RuntimeException e) {
            if (reader != null) {
                reader.close();
            }
            directory.close();
            throw e;
        }
    }

    /** The partners of a root in dump order, descriptions resolved through {@code lookups}; empty when none. */
    public List<Partner> partners(CnpjRoot root, Lookups lookups) throws IOException {
        BytesRef term = new BytesRef(root.value());
        List<BytesRef> runs = null;
        for (LeafReaderContext ctx : reader.leaves()) {
            LeafReader leaf = ctx.reader();
            Terms terms = leaf.terms(ROOT);
            if (terms == null) {
                continue;
            }
            TermsEnum te = terms.iterator();
            if (!te.seekExact(term)) {
                continue;
            }
            PostingsEnum pe = te.postings(null, PostingsEnum.NONE);
            Bits live = leaf.getLiveDocs();
            var stored = leaf.storedFields();
            for (int d = pe.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = pe.nextDoc()) {
                if (live == null || live.get(d)) {
                    if (runs == null) {
                        runs = new ArrayList<>(2);
                    }
                    runs.add(BytesRef.deepCopyOf(stored.document(d).getBinaryValue(BLOB)));
                }
            }
        }
        if (runs == null) {
            return List.of();
        }
        if (runs.size() > 1) {
            runs.sort(Comparator.comparingLong(PartnerIndex::sequence));
        }
        List<Partner> out = new ArrayList<>();
        for (BytesRef run : runs) {
            decode(run, lookups, out);
        }
        return List.copyOf(out);
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            directory.close();
        }
    }

    // ---- the document and its blob

    /** The document of one run of a root's partner rows, added {@code sequence}-th. */
    public static Document document(CnpjRoot root, long sequence, List<Partner> partners) {
        if (partners.isEmpty() || partners.size() > MAX_ROWS_PER_RUN) {
            throw new IllegalArgumentException("a run of partners holds 1 to " + MAX_ROWS_PER_RUN + " rows, not "
                    + partners.size() + " (root " + root.value() + ")");
        }
        Document doc = new Document();
        doc.add(new StringField(ROOT, root.value(), Field.Store.NO));
        doc.add(new StoredField(BLOB, encode(sequence, partners)));
        return doc;
    }

    private static final int HAS_DOCUMENT = 1;
    private static final int HAS_QUALIFICATION = 1 << 1;
    private static final int HAS_ENTRY_DATE = 1 << 2;
    private static final int HAS_COUNTRY = 1 << 3;
    private static final int HAS_REP_CPF = 1 << 4;
    private static final int HAS_REP_NAME = 1 << 5;
    private static final int HAS_REP_QUALIFICATION = 1 << 6;
    private static final int HAS_AGE_BAND = 1 << 7;

    static byte[] encode(long sequence, List<Partner> partners) {
        ByteBuffersDataOutput out = new ByteBuffersDataOutput(64L * partners.size());
        try {
            out.writeVLong(sequence);
            out.writeVInt(partners.size());
            for (Partner p : partners) {
                int flags = (p.document() != null ? HAS_DOCUMENT : 0)
                        | (p.qualificationCode() != null ? HAS_QUALIFICATION : 0)
                        | (p.entryDate() != null ? HAS_ENTRY_DATE : 0)
                        | (p.countryCode() != null ? HAS_COUNTRY : 0)
                        | (p.representativeCpf() != null ? HAS_REP_CPF : 0)
                        | (p.representativeName() != null ? HAS_REP_NAME : 0)
                        | (p.representativeQualificationCode() != null ? HAS_REP_QUALIFICATION : 0)
                        | (p.ageBand() != null ? HAS_AGE_BAND : 0);
                out.writeByte((byte) p.kind().ordinal());
                out.writeByte((byte) flags);
                out.writeString(p.name());
                if (p.document() != null) {
                    out.writeString(p.document());
                }
                if (p.qualificationCode() != null) {
                    out.writeString(p.qualificationCode());
                }
                if (p.entryDate() != null) {
                    out.writeZLong(p.entryDate().toEpochDay());
                }
                if (p.countryCode() != null) {
                    out.writeString(p.countryCode());
                }
                if (p.representativeCpf() != null) {
                    out.writeString(p.representativeCpf());
                }
                if (p.representativeName() != null) {
                    out.writeString(p.representativeName());
                }
                if (p.representativeQualificationCode() != null) {
                    out.writeString(p.representativeQualificationCode());
                }
                if (p.ageBand() != null) {
                    out.writeZInt(p.ageBand());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("an in-memory output cannot fail", e);
        }
        return out.toArrayCopy();
    }

    private static long sequence(BytesRef run) {
        // A stored blob never fails to read its leading number: the array is in memory.
        return new ByteArrayDataInput(run.bytes, run.offset, run.length).readVLong();
    }

    static void decode(BytesRef run, Lookups lookups, List<Partner> out) throws IOException {
        ByteArrayDataInput in = new ByteArrayDataInput(run.bytes, run.offset, run.length);
        in.readVLong();
        int n = in.readVInt();
        Partner.Kind[] kinds = Partner.Kind.values();
        Map<String, String> qualifications = lookups.qualificacoes();
        for (int i = 0; i < n; i++) {
            Partner.Kind kind = kinds[in.readByte()];
            int flags = in.readByte() & 0xFF;
            String name = in.readString();
            String document = (flags & HAS_DOCUMENT) != 0 ? in.readString() : null;
            String qualification = (flags & HAS_QUALIFICATION) != 0 ? in.readString() : null;
            LocalDate entry = (flags & HAS_ENTRY_DATE) != 0 ? LocalDate.ofEpochDay(in.readZLong()) : null;
            String country = (flags & HAS_COUNTRY) != 0 ? in.readString() : null;
            String repCpf = (flags & HAS_REP_CPF) != 0 ? in.readString() : null;
            String repName = (flags & HAS_REP_NAME) != 0 ? in.readString() : null;
            String repQualification = (flags & HAS_REP_QUALIFICATION) != 0 ? in.readString() : null;
            Integer ageBand = (flags & HAS_AGE_BAND) != 0 ? in.readZInt() : null;
            out.add(new Partner(
                    kind,
                    name,
                    document,
                    qualification,
                    qualification == null ? null : qualifications.get(qualification),
                    entry,
                    country,
                    repCpf,
                    repName,
                    repQualification,
                    repQualification == null ? null : qualifications.get(repQualification),
                    ageBand));
        }
    }
}
