package dev.cadastro.loader.internal;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Ddd;
import dev.cadastro.core.internal.LongHashTable;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Establishment.PhoneNumber;
import dev.cadastro.loader.Note;
import dev.cadastro.loader.RejectReason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns one Estabelecimentos row into an {@link Establishment}, joined with its company, Simples row
 * and debt flag. Codes are kept as written; an empty field is null; bad dates become null; phones with
 * junk area codes or numbers are left out. Only a row whose CNPJ is unusable, or a CNPJ seen before, is
 * rejected. Single-threaded.
 */
public final class EstablishmentAssembler {
    static final int BASICO = 0;
    static final int ORDEM = 1;
    static final int DV = 2;
    static final int MATRIZ_FILIAL = 3;
    static final int NOME_FANTASIA = 4;
    static final int SITUACAO = 5;
    static final int DATA_SITUACAO = 6;
    static final int MOTIVO = 7;
    static final int CIDADE_EXTERIOR = 8;
    static final int PAIS = 9;
    static final int DATA_INICIO = 10;
    static final int CNAE = 11;
    static final int CNAES_SECUNDARIOS = 12;
    static final int TIPO_LOGRADOURO = 13;
    static final int LOGRADOURO = 14;
    static final int NUMERO = 15;
    static final int COMPLEMENTO = 16;
    static final int BAIRRO = 17;
    static final int CEP = 18;
    static final int UF = 19;
    static final int MUNICIPIO = 20;
    static final int DDD1 = 21;
    static final int FAX = 26;
    static final int EMAIL = 27;
    static final int SITUACAO_ESPECIAL = 28;
    static final int DATA_SITUACAO_ESPECIAL = 29;

    private final CompanyStore companies;
    private final SimplesStore simples;
    private final RootSet debt;
    private final LongHashTable seen;
    private final long[] notes;
    private final CodeCache codes = new CodeCache();
    private final byte[] cnpj = new byte[14];

    private RejectReason rejected;
    private Establishment last;

    public EstablishmentAssembler(
            CompanyStore companies, SimplesStore simples, RootSet debt, int expectedRows, long[] notes) {
        this.companies = companies;
        this.simples = simples;
        this.debt = debt;
        this.seen = LongHashTable.set(expectedRows);
        this.notes = notes;
    }

    /** The reason the last {@link #assemble} returned false. */
    public RejectReason rejected() {
        return rejected;
    }

    /** The establishment the last successful {@link #assemble} built. */
    public Establishment establishment() {
        return last;
    }

    /** Builds the establishment of the reader's current row (30 fields); false when it is rejected. */
    public boolean assemble(CsvReader r) {
        byte[] b = r.bytes();
        if (r.length(BASICO) != 8 || r.length(ORDEM) != 4 || r.length(DV) != 2) {
            return reject(RejectReason.INVALID_CNPJ);
        }
        System.arraycopy(b, r.start(BASICO), cnpj, 0, 8);
        System.arraycopy(b, r.start(ORDEM), cnpj, 8, 4);
        System.arraycopy(b, r.start(DV), cnpj, 12, 2);
        int dv = Keys.cnpjCheckDigits(cnpj, 0);
        if (dv < 0 || cnpj[12] - '0' != dv / 10 || cnpj[13] - '0' != dv % 10) {
            return reject(RejectReason.INVALID_CNPJ);
        }
        String value = new String(cnpj, 0, 14, StandardCharsets.ISO_8859_1);
        if (!Cnpj.isValid(value)) {
            return reject(RejectReason.INVALID_CNPJ); // one digit repeated
        }
        if (!seen.add(Keys.base36(cnpj, 0, 12))) {
            return reject(RejectReason.DUPLICATE);
        }
        long root = RootMap.id(b, r.start(BASICO), 8);
        var company = companies.get(root);
        if (company == null) {
            notes[Note.COMPANY_MISSING.ordinal()]++;
        }
        List<PhoneNumber> phones = new ArrayList<>(2);
        PhoneNumber p1 = phone(r, DDD1);
        if (p1 != null) {
            phones.add(p1);
        }
        PhoneNumber p2 = phone(r, DDD1 + 2);
        if (p2 != null) {
            phones.add(p2);
        }
        last = new Establishment(
                new Cnpj(value),
                r.is(MATRIZ_FILIAL, "1"),
                r.string(NOME_FANTASIA),
                code(r, SITUACAO),
                Values.date(date(r, DATA_SITUACAO)),
                code(r, MOTIVO),
                r.string(CIDADE_EXTERIOR),
                code(r, PAIS),
                Values.date(date(r, DATA_INICIO)),
                code(r, CNAE),
                cnaes(r),
                code(r, TIPO_LOGRADOURO),
                r.string(LOGRADOURO),
                code(r, NUMERO),
                r.string(COMPLEMENTO),
                r.string(BAIRRO),
                r.string(CEP),
                code(r, UF),
                code(r, MUNICIPIO),
                phones,
                phone(r, FAX - 1),
                email(r),
                r.string(SITUACAO_ESPECIAL),
                Values.date(date(r, DATA_SITUACAO_ESPECIAL)),
                company,
                simples.get(root),
                debt.contains(root));
        rejected = null;
        return true;
    }

    private boolean reject(RejectReason reason) {
        rejected = reason;
        last = null;
        return false;
    }

    private String code(CsvReader r, int field) {
        return codes.get(r.bytes(), r.start(field), r.length(field));
    }

    private int date(CsvReader r, int field) {
        return date(r.bytes(), r.start(field), r.length(field), notes);
    }

    /** The epoch day of a date field; counts a non-empty invalid date. */
    public static int date(byte[] b, int s, int len, long[] notes) {
        int day = Values.epochDay(b, s, len);
        if (day == Values.NO_DATE && !Values.isEmptyDate(b, s, len)) {
            notes[Note.DATE_INVALID.ordinal()]++;
        }
        return day;
    }

    private List<String> cnaes(CsvReader r) {
        int s = r.start(CNAES_SECUNDARIOS);
        int end = r.end(CNAES_SECUNDARIOS);
        if (s == end) {
            return List.of();
        }
        byte[] b = r.bytes();
        List<String> out = new ArrayList<>(4);
        int from = s;
        for (int i = s; i <= end; i++) {
            if (i == end || b[i] == ',') {
                int a = from;
                int z = i;
                while (a < z && b[a] == ' ') {
                    a++;
                }
                while (z > a && b[z - 1] == ' ') {
                    z--;
                }
                if (z > a) {
                    String c = codes.get(b, a, z - a);
                    if (!out.contains(c)) {
                        out.add(c);
                    }
                }
                from = i + 1;
            }
        }
        return out;
    }

    /** The phone whose DDD is at {@code dddField} and number right after it, or null when unusable. */
    private PhoneNumber phone(CsvReader r, int dddField) {
        byte[] b = r.bytes();
        int ds = r.start(dddField);
        int dl = r.length(dddField);
        int ns = r.start(dddField + 1);
        int nl = r.length(dddField + 1);
        if (dl == 0 && nl == 0) {
            return null;
        }
        int ddd = dl == 2 ? Values.digits(b, ds, 2) : -1;
        boolean ok = ddd >= 0 && Ddd.isValid(ddd) && Values.digits(b, ns, nl) >= 0;
        boolean mobile = false;
        if (ok) {
            byte first = b[ns];
            if (nl == 9) {
                ok = first == '9';
                mobile = true;
            } else if (nl == 8) {
                ok = first >= '2';
                mobile = first >= '6';
            } else {
                ok = false;
            }
        }
        if (!ok) {
            notes[Note.PHONE_DROPPED.ordinal()]++;
            return null;
        }
        return new PhoneNumber(code(r, dddField), Latin1.decode(b, ns, nl), mobile);
    }

    private String email(CsvReader r) {
        String e = r.string(EMAIL);
        if (e == null || e.isBlank()) {
            return null;
        }
        return e.toLowerCase(Locale.ROOT);
    }
}
