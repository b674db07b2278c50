package dev.cadastro.register.internal;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.NameWords;
import dev.cadastro.core.register.RegisterQuery;
import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;

/**
 * The index schema: which terms and doc values one establishment becomes, and the index sort. See
 * docs/register.md for the reasoning; every filter of {@code GET /empresas} is a term lookup here.
 */
public final class Schema {
    /**
     * The CNPJ's key (see {@link #cnpjKey}): a CNPJ is found by the generation's {@link CnpjMap} and CNPJs
     * are walked in order by these doc values; the index holds no CNPJ term (docs/adr/0033-no-cnpj-term.md).
     */
    public static final String CNPJ_KEY = "cnpjkey";

    public static final String GEO = "geo";
    public static final String SITUACAO = "sit";
    public static final String PORTE = "porte";
    public static final String NATUREZA = "nat";
    public static final String CNAE = "cnae";
    public static final String CNAE2 = "cnae2";
    public static final String DDD = "ddd";
    public static final String BAIRRO = "bairro";
    /**
     * The words of the company and trade names ({@link NameWords#indexed}): one term each, documents only
     * (no frequencies, positions or norms), for name search (docs/adr/0042-name-search.md).
     */
    public static final String NOME = "nome";

    public static final String MEI = "mei";
    public static final String SIMPLES = "simples";
    public static final String TELEFONE = "tel";
    public static final String MOVEL = "movel";
    public static final String EMAIL = "email";
    public static final String DIVIDA = "divida";
    /** Opening year term {@code yyyy}, month term {@code yyyymm}, exact day as doc value (epoch day). */
    public static final String ANO = "ay", MES = "am", ABERTURA = "abertura";
    /** Opening decade term {@code yyy} (2015 is {@code 201}): a wide date range is a few dense terms. */
    public static final String DECADA = "ad";
    /**
     * Capital bucket term (power of ten and leading digit), capital decade term (power of ten only, so a
     * wide range is a few dense terms), exact centavos as doc value.
     */
    public static final String CAPITAL_BUCKET = "cb", CAPITAL_DECADE = "cd", CAPITAL = "capital";

    /**
     * The record (see {@link RecordCodec}): binary doc values, so a document's record is a slice of a
     * memory-mapped file found by its address, with no block to inflate (docs/adr/0030-record-store.md).
     */
    public static final String RECORD = "rec";

    /** Geo key of an unknown state. */
    public static final int UNKNOWN_UF = 99;

    private Schema() {}

    /** Index order: state, municipality, then CNPJ: geography filters become contiguous doc ranges. */
    public static Sort indexSort() {
        return new Sort(new SortField(GEO, SortField.Type.LONG), new SortField(CNPJ_KEY, SortField.Type.LONG));
    }

    public static void configure(IndexWriterConfig config) {
        config.setIndexSort(indexSort());
    }

    /** State ordinal: position in {@link RegisterQuery#UF_CODES}, {@value #UNKNOWN_UF} when unknown. */
    public static int ufOrdinal(String uf) {
        int i = uf == null ? -1 : RegisterQuery.UF_CODES.indexOf(uf);
        return i < 0 ? UNKNOWN_UF : i;
    }

    /** Receita municipality code as a number, 0 when missing or not 4 digits. */
    public static int municipioCode(String code) {
        if (code == null || code.length() != 4) {
            return 0;
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            char c = code.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    public static long geoKey(String uf, String municipio) {
        return ufOrdinal(uf) * 10_000L + municipioCode(municipio);
    }

    public static String geoTerm(long key) {
        return zeroPadded(key, 6);
    }

    /** The CNPJ's first 12 characters in base 36 (digits before letters, as in ASCII): a sortable long. */
    public static long cnpjKey(String cnpj) {
        long v = 0;
        for (int i = 0; i < 12; i++) {
            char c = cnpj.charAt(i);
            v = v * 36 + (c <= '9' ? c - '0' : c - 'A' + 10);
        }
        return v;
    }

    /**
     * Capital bucket of an amount in centavos: {@code 0} for zero, otherwise exponent and leading digit
     * ({@code d * 10^e <= c < (d + 1) * 10^e}) written {@code eed}, so round amounts (the usual query
     * bounds) fall on bucket edges.
     */
    public static String capitalBucket(long centavos) {
        if (centavos <= 0) {
            return "000";
        }
        int e = 0;
        long d = centavos;
        while (d >= 10) {
            d /= 10;
            e++;
        }
        return zeroPadded(e * 10L + d, 3);
    }

    /** Inclusive lower bound, in centavos, of a decade term ({@code 00} also holds zero). */
    public static long decadeLow(String term) {
        int e = Integer.parseInt(term);
        return e == 0 ? 0 : pow10(e);
    }

    /** Inclusive upper bound, in centavos, of a decade term. */
    public static long decadeHigh(String term) {
        return pow10(Integer.parseInt(term) + 1) - 1;
    }

    /** Inclusive lower bound, in centavos, of a bucket term. */
    public static long bucketLow(String term) {
        int e = Integer.parseInt(term.substring(0, 2));
        int d = term.charAt(2) - '0';
        return d == 0 ? 0 : d * pow10(e);
    }

    /** Inclusive upper bound, in centavos, of a bucket term. */
    public static long bucketHigh(String term) {
        int e = Integer.parseInt(term.substring(0, 2));
        int d = term.charAt(2) - '0';
        return d == 0 ? 0 : (d + 1) * pow10(e) - 1;
    }

    private static long pow10(int e) {
        long p = 1;
        for (int i = 0; i < e; i++) {
            p *= 10;
        }
        return p;
    }

    /** The Lucene document of one establishment; {@code record} is its encoded record (see {@link RecordCodec}). */
    public static Document document(Establishment e, byte[] record) {
        Document doc = new Document();
        String cnpj = e.cnpj().value();
        doc.add(new NumericDocValuesField(CNPJ_KEY, cnpjKey(cnpj)));
        long geo = geoKey(e.uf(), e.municipio());
        doc.add(new NumericDocValuesField(GEO, geo));
        doc.add(new StringField(GEO, geoTerm(geo), Field.Store.NO));
        term(doc, SITUACAO, e.situacaoCadastral());
        if (e.company() != null) {
            term(doc, PORTE, e.company().porte());
            term(doc, NATUREZA, e.company().naturezaJuridica());
            Long capital = e.company().capitalSocialCentavos();
            if (capital != null && capital >= 0) {
                String bucket = capitalBucket(capital);
                doc.add(new StringField(CAPITAL_BUCKET, bucket, Field.Store.NO));
                doc.add(new StringField(CAPITAL_DECADE, bucket.substring(0, 2), Field.Store.NO));
                doc.add(new NumericDocValuesField(CAPITAL, capital));
            }
        }
        term(doc, CNAE, e.cnaePrincipal());
        for (String c : new LinkedHashSet<>(e.cnaesSecundarios())) {
            term(doc, CNAE2, c);
        }
        Set<String> ddds = new LinkedHashSet<>();
        for (Establishment.PhoneNumber p : e.telefones()) {
            ddds.add(p.ddd());
        }
        for (String d : ddds) {
            term(doc, DDD, d);
        }
        if (e.bairro() != null && !e.bairro().isBlank()) {
            term(doc, BAIRRO, RegisterQuery.normalizeText(e.bairro()));
        }
        for (String w :
                NameWords.indexed(e.company() == null ? null : e.company().razaoSocial(), e.nomeFantasia())) {
            doc.add(new StringField(NOME, w, Field.Store.NO));
        }
        flag(doc, MEI, e.isMei());
        flag(doc, SIMPLES, e.isSimples());
        flag(doc, TELEFONE, e.hasPhone());
        flag(doc, MOVEL, e.hasMobile());
        flag(doc, EMAIL, e.hasEmail());
        flag(doc, DIVIDA, e.divida());
        LocalDate d = e.dataAbertura();
        if (d != null && d.getYear() >= 1000 && d.getYear() <= 9999) {
            doc.add(new StringField(ANO, Integer.toString(d.getYear()), Field.Store.NO));
            doc.add(new StringField(DECADA, Integer.toString(d.getYear() / 10), Field.Store.NO));
            doc.add(new StringField(MES, monthTerm(d), Field.Store.NO));
            doc.add(new NumericDocValuesField(ABERTURA, d.toEpochDay()));
        }
        doc.add(new BinaryDocValuesField(RECORD, new org.apache.lucene.util.BytesRef(record)));
        return doc;
    }

    public static String monthTerm(LocalDate d) {
        int year = d.getYear();
        if (year < 0 || year > 9999) {
            return String.format(java.util.Locale.ROOT, "%04d%02d", year, d.getMonthValue());
        }
        return zeroPadded(year * 100L + d.getMonthValue(), 6);
    }

    /** {@code value} in decimal, left-padded with zeros to {@code width} (String.format is slow here). */
    static String zeroPadded(long value, int width) {
        if (value < 0) {
            throw new IllegalArgumentException("negative value " + value);
        }
        String digits = Long.toString(value);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    private static void term(Document doc, String field, String value) {
        if (value != null && !value.isEmpty()) {
            doc.add(new StringField(field, value, Field.Store.NO));
        }
    }

    private static void flag(Document doc, String field, boolean value) {
        doc.add(new StringField(field, value ? "1" : "0", Field.Store.NO));
    }
}
