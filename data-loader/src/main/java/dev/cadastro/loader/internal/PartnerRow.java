package dev.cadastro.loader.internal;

import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.register.Partner;
import dev.cadastro.loader.RejectReason;
import java.time.LocalDate;
import java.util.Map;

/**
 * Turns one Socios row (11 columns) into a {@link Partner} of its root: the kind from {@code
 * identificador_socio}, the qualification descriptions from the dump's Qualificacoes table, the entry
 * date, and the legal representative only when there is one (the dump writes {@code ***000000**} and
 * qualification {@code 00} for none). A foreigner's document is not kept: the dump writes a placeholder
 * there ({@code ***999999**} or empty). Not thread-safe: one per reading thread.
 */
public final class PartnerRow {
    static final int ROOT = 0;
    static final int KIND = 1;
    static final int NAME = 2;
    static final int DOCUMENT = 3;
    static final int QUALIFICATION = 4;
    static final int ENTRY_DATE = 5;
    static final int COUNTRY = 6;
    static final int REP_CPF = 7;
    static final int REP_NAME = 8;
    static final int REP_QUALIFICATION = 9;
    static final int AGE_BAND = 10;

    private static final String NO_REPRESENTATIVE = "***000000**";

    private final Map<String, String> qualifications;
    private final long[] notes;
    private final CodeCache codes = new CodeCache();
    private RejectReason rejected;
    private CnpjRoot root;
    private String rootText;
    private Partner partner;

    /**
     * @param qualifications the dump's Qualificacoes table
     * @param notes the counters of {@link dev.cadastro.loader.Note}s this reader adds to
     */
    public PartnerRow(Map<String, String> qualifications, long[] notes) {
        this.qualifications = qualifications;
        this.notes = notes;
    }

    /** Reads a well-formed row (11 fields); false when it is rejected ({@link #rejected()} says why). */
    public boolean read(CsvReader r) {
        byte[] b = r.bytes();
        int rs = r.start(ROOT);
        int rl = r.length(ROOT);
        if (rootText == null || !sameText(rootText, b, rs, rl)) {
            String text = rl == 8 ? Latin1.decode(b, rs, rl) : null;
            if (text == null || !CnpjRoot.isValid(text)) {
                return reject(RejectReason.INVALID_CNPJ);
            }
            rootText = text;
            root = new CnpjRoot(text);
        }
        Partner.Kind kind;
        if (r.length(KIND) != 1) {
            return reject(RejectReason.INVALID_CODE);
        }
        switch (b[r.start(KIND)]) {
            case '1' -> kind = Partner.Kind.COMPANY;
            case '2' -> kind = Partner.Kind.PERSON;
            case '3' -> kind = Partner.Kind.FOREIGNER;
            default -> {
                return reject(RejectReason.INVALID_CODE);
            }
        }
        Integer ageBand = null;
        if (!r.isEmpty(AGE_BAND)) {
            int d = r.length(AGE_BAND) == 1 ? b[r.start(AGE_BAND)] - '0' : -1;
            if (d < 0 || d > 9) {
                return reject(RejectReason.INVALID_CODE);
            }
            ageBand = d;
        }
        String name = r.string(NAME);
        String document = kind == Partner.Kind.FOREIGNER ? null : r.string(DOCUMENT);
        String qualification = code(r, QUALIFICATION);
        int day = EstablishmentAssembler.date(b, r.start(ENTRY_DATE), r.length(ENTRY_DATE), notes);
        LocalDate entry = day == Values.NO_DATE ? null : LocalDate.ofEpochDay(day);
        String country = code(r, COUNTRY);
        String repCpf = r.is(REP_CPF, NO_REPRESENTATIVE) ? null : r.string(REP_CPF);
        String repName = r.string(REP_NAME);
        String repQualification = code(r, REP_QUALIFICATION);
        if (repCpf == null && repName == null && "00".equals(repQualification)) {
            repQualification = null;
        }
        partner = new Partner(
                kind,
                name == null ? "" : name,
                document,
                qualification,
                qualification == null ? null : qualifications.get(qualification),
                entry,
                country,
                repCpf,
                repName,
                repQualification,
                repQualification == null ? null : qualifications.get(repQualification),
                ageBand);
        rejected = null;
        return true;
    }

    /** The root of the row last read. */
    public CnpjRoot root() {
        return root;
    }

    /** The partner of the row last read. */
    public Partner partner() {
        return partner;
    }

    /** Why the row last read was rejected. */
    public RejectReason rejected() {
        return rejected;
    }

    private boolean reject(RejectReason reason) {
        rejected = reason;
        partner = null;
        return false;
    }

    private String code(CsvReader r, int field) {
        return codes.get(r.bytes(), r.start(field), r.length(field));
    }

    private static boolean sameText(String text, byte[] b, int s, int len) {
        if (text.length() != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (text.charAt(i) != (char) (b[s + i] & 0xFF)) {
                return false;
            }
        }
        return true;
    }
}
