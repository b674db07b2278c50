package dev.cadastro.core.register;

import dev.cadastro.core.document.Ddd;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A validated register search: typed filters, whether only the count is wanted, and the page.
 *
 * <p>Semantics: the values of one set filter are alternatives (OR); different filters must all hold
 * (AND). A flag that is absent does not filter; {@code false} asks for the establishments without the
 * property ({@code divida=false}: without active debt). Date and capital bounds are inclusive. At least
 * one filter is required.
 *
 * <p>Values are normalized once here: codes keep their leading zeros, states are upper case, CNAEs
 * lose their punctuation ({@code 4711-3/02} is {@code 4711302}), districts are compared upper case
 * without accents. Municipalities stay as given (a Receita code, an IBGE code or a name): the register
 * resolves them against the lookup tables of its published index.
 *
 * <p>Built only through {@link #builder()}, whose setters apply the domain rules as they are called
 * (the cross-field ones, a date or capital range and the required filter, at {@link Builder#build()}
 * or when both bounds are given at once). Every broken rule is an {@link InvalidParameterException}
 * whose field is the filter's name ({@link Filter#field()}), whose rule is a stable token and whose
 * message names the field, the value and the rule. Reading a query from a wire form (a query string,
 * a JSON body) is the adapters' business.
 */
public final class RegisterQuery {
    /** Field names, as errors name them and as the contract writes them. */
    public static final String UFS = "ufs",
            MUNICIPIOS = "municipios",
            BAIRROS = "bairros",
            DDDS = "ddds",
            CNAES = "cnaes",
            CNAES_SECUNDARIOS = "cnaes_secundarios",
            NATUREZAS = "naturezas",
            SITUACAO_CADASTRAL = "situacao_cadastral",
            PORTES = "portes",
            MEI = "mei",
            SIMPLES = "simples",
            ABERTURA_DE = "abertura_de",
            ABERTURA_ATE = "abertura_ate",
            COM_TELEFONE = "com_telefone",
            COM_TELEFONE_MOVEL = "com_telefone_movel",
            COM_EMAIL = "com_email",
            DIVIDA = "divida",
            CAPITAL_MIN = "capital_min",
            CAPITAL_MAX = "capital_max",
            BUSCA_TEXTUAL = "busca_textual",
            LIMITE = "limite",
            PAGINA = "pagina";

    /** What a filter holds: a set of codes or names, a flag, a date bound or a capital bound. */
    public enum Kind {
        SET,
        FLAG,
        DATE,
        CAPITAL,
        /** Free text: the words of a name search. */
        TEXT
    }

    /** The filters, in the contract's order, each with the field name its errors carry. */
    public enum Filter {
        UFS(RegisterQuery.UFS, Kind.SET),
        MUNICIPIOS(RegisterQuery.MUNICIPIOS, Kind.SET),
        BAIRROS(RegisterQuery.BAIRROS, Kind.SET),
        DDDS(RegisterQuery.DDDS, Kind.SET),
        CNAES(RegisterQuery.CNAES, Kind.SET),
        CNAES_SECUNDARIOS(RegisterQuery.CNAES_SECUNDARIOS, Kind.SET),
        NATUREZAS(RegisterQuery.NATUREZAS, Kind.SET),
        SITUACAO_CADASTRAL(RegisterQuery.SITUACAO_CADASTRAL, Kind.SET),
        PORTES(RegisterQuery.PORTES, Kind.SET),
        MEI(RegisterQuery.MEI, Kind.FLAG),
        SIMPLES(RegisterQuery.SIMPLES, Kind.FLAG),
        ABERTURA_DE(RegisterQuery.ABERTURA_DE, Kind.DATE),
        ABERTURA_ATE(RegisterQuery.ABERTURA_ATE, Kind.DATE),
        COM_TELEFONE(RegisterQuery.COM_TELEFONE, Kind.FLAG),
        COM_TELEFONE_MOVEL(RegisterQuery.COM_TELEFONE_MOVEL, Kind.FLAG),
        COM_EMAIL(RegisterQuery.COM_EMAIL, Kind.FLAG),
        DIVIDA(RegisterQuery.DIVIDA, Kind.FLAG),
        CAPITAL_MIN(RegisterQuery.CAPITAL_MIN, Kind.CAPITAL),
        CAPITAL_MAX(RegisterQuery.CAPITAL_MAX, Kind.CAPITAL),
        /** Name search, an addition to the contract's filters (ADR 0042). */
        BUSCA_TEXTUAL(RegisterQuery.BUSCA_TEXTUAL, Kind.TEXT);

        private final String field;
        private final Kind kind;

        Filter(String field, Kind kind) {
            this.field = field;
            this.kind = kind;
        }

        /** The name errors carry, the contract's name for it. */
        public String field() {
            return field;
        }

        public Kind kind() {
            return kind;
        }

        /** The filter named {@code field}, if any. */
        public static Optional<Filter> byField(String field) {
            for (Filter f : values()) {
                if (f.field.equals(field)) {
                    return Optional.of(f);
                }
            }
            return Optional.empty();
        }
    }

    public static final int DEFAULT_LIMITE = 50;
    public static final int MAX_LIMITE = 200;
    public static final int DEFAULT_PAGINA = 1;
    /** Most values one set filter may carry. */
    public static final int MAX_VALUES = 500;
    /** Longest free-text value (municipality or district name). */
    public static final int MAX_TEXT = 100;
    /** Largest capital bound in reais (the source's placeholder 999999999999 is above real capitals). */
    public static final BigDecimal MAX_CAPITAL = new BigDecimal("99999999999999.99");

    /** States and the Receita's {@code EX} for establishments abroad. */
    public static final List<String> UF_CODES = List.of(
            "AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE", "PI", "PR",
            "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO", "EX");

    public static final List<String> SITUACAO_CODES = List.of("01", "02", "03", "04", "08");
    public static final List<String> PORTE_CODES = List.of("00", "01", "03", "05");

    /** Most words of a name search ({@code busca_textual}), ignored ones included. */
    public static final int MAX_NAME_WORDS = 10;
    /** Fewest characters of each word of a name search. */
    public static final int MIN_NAME_WORD = 2;
    /** Longest name search text. */
    public static final int MAX_NAME_TEXT = 200;

    /**
     * A name search: the words every match must hold in its company or trade name, and the last word,
     * which a word of the name must start with; folded as {@link NameWords} folds names, ignored words
     * dropped, repeats dropped.
     */
    public record NameSearch(List<String> words, String prefix) {
        public NameSearch {
            words = List.copyOf(words);
            Objects.requireNonNull(prefix, "prefix");
        }

        /** The canonical text: the words, then the prefix, one space apart (it reads back the same). */
        public String text() {
            return words.isEmpty() ? prefix : String.join(" ", words) + " " + prefix;
        }
    }

    private final SortedSet<String> ufs;
    private final List<String> municipios;
    private final SortedSet<String> bairros;
    private final SortedSet<String> ddds;
    private final SortedSet<String> cnaes;
    private final SortedSet<String> cnaesSecundarios;
    private final SortedSet<String> naturezas;
    private final SortedSet<String> situacoes;
    private final SortedSet<String> portes;
    private final Boolean mei;
    private final Boolean simples;
    private final LocalDate aberturaDe;
    private final LocalDate aberturaAte;
    private final Boolean comTelefone;
    private final Boolean comTelefoneMovel;
    private final Boolean comEmail;
    private final Boolean divida;
    private final BigDecimal capitalMin;
    private final BigDecimal capitalMax;
    private final NameSearch buscaTextual;
    private final boolean countOnly;
    private final int limite;
    private final int pagina;

    private RegisterQuery(Builder b) {
        ufs = Collections.unmodifiableSortedSet(new TreeSet<>(b.ufs));
        municipios = List.copyOf(b.municipios);
        bairros = Collections.unmodifiableSortedSet(new TreeSet<>(b.bairros));
        ddds = Collections.unmodifiableSortedSet(new TreeSet<>(b.ddds));
        cnaes = Collections.unmodifiableSortedSet(new TreeSet<>(b.cnaes));
        cnaesSecundarios = Collections.unmodifiableSortedSet(new TreeSet<>(b.cnaesSecundarios));
        naturezas = Collections.unmodifiableSortedSet(new TreeSet<>(b.naturezas));
        situacoes = Collections.unmodifiableSortedSet(new TreeSet<>(b.situacoes));
        portes = Collections.unmodifiableSortedSet(new TreeSet<>(b.portes));
        mei = b.mei;
        simples = b.simples;
        aberturaDe = b.aberturaDe;
        aberturaAte = b.aberturaAte;
        comTelefone = b.comTelefone;
        comTelefoneMovel = b.comTelefoneMovel;
        comEmail = b.comEmail;
        divida = b.divida;
        capitalMin = b.capitalMin;
        capitalMax = b.capitalMax;
        buscaTextual = b.buscaTextual;
        countOnly = b.countOnly;
        limite = b.limite;
        pagina = b.pagina;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this query's values, to change some of them (a page, the count-only flag). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.ufs.addAll(ufs);
        b.municipios.addAll(municipios);
        b.bairros.addAll(bairros);
        b.ddds.addAll(ddds);
        b.cnaes.addAll(cnaes);
        b.cnaesSecundarios.addAll(cnaesSecundarios);
        b.naturezas.addAll(naturezas);
        b.situacoes.addAll(situacoes);
        b.portes.addAll(portes);
        b.mei = mei;
        b.simples = simples;
        b.aberturaDe = aberturaDe;
        b.aberturaAte = aberturaAte;
        b.comTelefone = comTelefone;
        b.comTelefoneMovel = comTelefoneMovel;
        b.comEmail = comEmail;
        b.divida = divida;
        b.capitalMin = capitalMin;
        b.capitalMax = capitalMax;
        b.buscaTextual = buscaTextual;
        b.countOnly = countOnly;
        b.limite = limite;
        b.pagina = pagina;
        return b;
    }

    // ---- accessors

    /** States, upper case. Empty: no state filter. */
    public SortedSet<String> ufs() {
        return ufs;
    }

    /** Municipalities as given (Receita code, IBGE code or name), without duplicates, in given order. */
    public List<String> municipios() {
        return municipios;
    }

    /** Districts, upper case without accents and with single spaces. */
    public SortedSet<String> bairros() {
        return bairros;
    }

    /** Area codes, two digits. */
    public SortedSet<String> ddds() {
        return ddds;
    }

    /** Main CNAEs, seven digits. */
    public SortedSet<String> cnaes() {
        return cnaes;
    }

    /** Secondary CNAEs, seven digits. */
    public SortedSet<String> cnaesSecundarios() {
        return cnaesSecundarios;
    }

    /** Legal nature codes, four digits. */
    public SortedSet<String> naturezas() {
        return naturezas;
    }

    /** Registration status codes with their leading zero. */
    public SortedSet<String> situacaoCadastral() {
        return situacoes;
    }

    /** Size codes with their leading zero. */
    public SortedSet<String> portes() {
        return portes;
    }

    public Optional<Boolean> mei() {
        return Optional.ofNullable(mei);
    }

    public Optional<Boolean> simples() {
        return Optional.ofNullable(simples);
    }

    /** Inclusive lower bound of the opening date. */
    public Optional<LocalDate> aberturaDe() {
        return Optional.ofNullable(aberturaDe);
    }

    /** Inclusive upper bound of the opening date. */
    public Optional<LocalDate> aberturaAte() {
        return Optional.ofNullable(aberturaAte);
    }

    public Optional<Boolean> comTelefone() {
        return Optional.ofNullable(comTelefone);
    }

    public Optional<Boolean> comTelefoneMovel() {
        return Optional.ofNullable(comTelefoneMovel);
    }

    public Optional<Boolean> comEmail() {
        return Optional.ofNullable(comEmail);
    }

    /** True: only with active debt; false: only without. */
    public Optional<Boolean> divida() {
        return Optional.ofNullable(divida);
    }

    /** Inclusive lower bound of the share capital, in reais with two decimals. */
    public Optional<BigDecimal> capitalMin() {
        return Optional.ofNullable(capitalMin);
    }

    /** Inclusive upper bound of the share capital, in reais with two decimals. */
    public Optional<BigDecimal> capitalMax() {
        return Optional.ofNullable(capitalMax);
    }

    /** The name search ({@code busca_textual}). */
    public Optional<NameSearch> buscaTextual() {
        return Optional.ofNullable(buscaTextual);
    }

    /** Count only, no records. */
    public boolean countOnly() {
        return countOnly;
    }

    public int limite() {
        return limite;
    }

    public int pagina() {
        return pagina;
    }

    /** Records to skip before this page: {@code (pagina - 1) * limite}. */
    public long offset() {
        return (long) (pagina - 1) * limite;
    }

    /** The filters this query sets (never empty). */
    public Set<Filter> filters() {
        EnumSet<Filter> set = EnumSet.noneOf(Filter.class);
        for (Filter f : Filter.values()) {
            if (has(f)) {
                set.add(f);
            }
        }
        return set;
    }

    /** Whether this query sets {@code filter}. */
    public boolean has(Filter filter) {
        return switch (filter) {
            case UFS -> !ufs.isEmpty();
            case MUNICIPIOS -> !municipios.isEmpty();
            case BAIRROS -> !bairros.isEmpty();
            case DDDS -> !ddds.isEmpty();
            case CNAES -> !cnaes.isEmpty();
            case CNAES_SECUNDARIOS -> !cnaesSecundarios.isEmpty();
            case NATUREZAS -> !naturezas.isEmpty();
            case SITUACAO_CADASTRAL -> !situacoes.isEmpty();
            case PORTES -> !portes.isEmpty();
            case MEI -> mei != null;
            case SIMPLES -> simples != null;
            case ABERTURA_DE -> aberturaDe != null;
            case ABERTURA_ATE -> aberturaAte != null;
            case COM_TELEFONE -> comTelefone != null;
            case COM_TELEFONE_MOVEL -> comTelefoneMovel != null;
            case COM_EMAIL -> comEmail != null;
            case DIVIDA -> divida != null;
            case CAPITAL_MIN -> capitalMin != null;
            case CAPITAL_MAX -> capitalMax != null;
            case BUSCA_TEXTUAL -> buscaTextual != null;
        };
    }

    /**
     * The values of each filter set, as canonical text in the filters' order: the set filters' values in
     * their order (sorted; municipalities as given), a flag {@code true} or {@code false}, a date ISO
     * 8601, a capital in reais with two decimals. The same filters always give the same text: what a
     * stored mailing job, a request fingerprint and a sampling seed are derived from.
     */
    public Map<Filter, List<String>> filterValues() {
        Map<Filter, List<String>> out = new EnumMap<>(Filter.class);
        for (Filter f : Filter.values()) {
            List<String> values = switch (f) {
                case UFS -> List.copyOf(ufs);
                case MUNICIPIOS -> municipios;
                case BAIRROS -> List.copyOf(bairros);
                case DDDS -> List.copyOf(ddds);
                case CNAES -> List.copyOf(cnaes);
                case CNAES_SECUNDARIOS -> List.copyOf(cnaesSecundarios);
                case NATUREZAS -> List.copyOf(naturezas);
                case SITUACAO_CADASTRAL -> List.copyOf(situacoes);
                case PORTES -> List.copyOf(portes);
                case MEI -> text(mei);
                case SIMPLES -> text(simples);
                case ABERTURA_DE -> text(aberturaDe);
                case ABERTURA_ATE -> text(aberturaAte);
                case COM_TELEFONE -> text(comTelefone);
                case COM_TELEFONE_MOVEL -> text(comTelefoneMovel);
                case COM_EMAIL -> text(comEmail);
                case DIVIDA -> text(divida);
                case CAPITAL_MIN -> capitalMin == null ? List.of() : List.of(capitalMin.toPlainString());
                case CAPITAL_MAX -> capitalMax == null ? List.of() : List.of(capitalMax.toPlainString());
                case BUSCA_TEXTUAL -> buscaTextual == null ? List.of() : List.of(buscaTextual.text());
            };
            if (!values.isEmpty()) {
                out.put(f, values);
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private static List<String> text(Object value) {
        return value == null ? List.of() : List.of(value.toString());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RegisterQuery q
                && filterValues().equals(q.filterValues())
                && countOnly == q.countOnly
                && limite == q.limite
                && pagina == q.pagina;
    }

    @Override
    public int hashCode() {
        return Objects.hash(filterValues(), countOnly, limite, pagina);
    }

    @Override
    public String toString() {
        return "RegisterQuery" + filterValues() + (countOnly ? " count only" : "") + " limite " + limite + " pagina "
                + pagina;
    }

    // ---- value rules

    /** Upper case, accents removed, runs of whitespace as one space, trimmed. */
    public static String normalizeText(String s) {
        String d = Normalizer.normalize(s, Normalizer.Form.NFD);
        StringBuilder sb = new StringBuilder(d.length());
        boolean space = false;
        for (int i = 0; i < d.length(); i++) {
            char c = d.charAt(i);
            if (Character.getType(c) == Character.NON_SPACING_MARK) {
                continue;
            }
            if (Character.isWhitespace(c)) {
                space = sb.length() > 0;
                continue;
            }
            if (space) {
                sb.append(' ');
                space = false;
            }
            sb.append(Character.toUpperCase(c));
        }
        return sb.toString().toUpperCase(Locale.ROOT);
    }

    private static String text(String name, String v, boolean normalize) {
        String s = stripped(name, v, MAX_TEXT);
        return normalize ? normalizeText(s) : s;
    }

    /** The value stripped, at most {@code max} characters long and without a control character. */
    private static String stripped(String name, String v, int max) {
        Objects.requireNonNull(v, name);
        String s = v.strip();
        if (s.length() > max) {
            throw InvalidParameterException.of(
                    name, "too-long", Message.VALUE_TOO_LONG.with(name, Texts.quote(v), s.length(), max));
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                throw InvalidParameterException.of(
                        name, "characters", Message.CONTROL_CHARACTER.with(name, Texts.quote(v)));
            }
        }
        return s;
    }

    private static String uf(String v) {
        Objects.requireNonNull(v, UFS);
        String s = v.strip().toUpperCase(Locale.ROOT);
        if (!UF_CODES.contains(s)) {
            throw InvalidParameterException.of(
                    UFS, "uf", Message.QUERY_UF.with(Texts.quote(v), String.join(", ", UF_CODES)));
        }
        return s;
    }

    private static String ddd(String v) {
        Objects.requireNonNull(v, DDDS);
        String s = v.strip();
        if (s.length() != 2 || !Texts.isAsciiDigits(s) || !Ddd.isValid(Integer.parseInt(s))) {
            throw InvalidParameterException.of(DDDS, "ddd", Message.QUERY_DDD.with(Texts.quote(v)));
        }
        return s;
    }

    private static String digitCode(String name, String v, int digits, LocalizedText expected) {
        Objects.requireNonNull(v, name);
        StringBuilder sb = new StringBuilder(digits);
        String s = v.strip();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                sb.append(c);
            } else if (c != '.' && c != '-' && c != '/') {
                sb.setLength(0);
                break;
            }
        }
        if (sb.length() != digits) {
            throw InvalidParameterException.of(name, "code", Message.QUERY_CODE.with(name, Texts.quote(v), expected));
        }
        return sb.toString();
    }

    private static String oneOf(String name, String v, List<String> allowed, LocalizedText note) {
        Objects.requireNonNull(v, name);
        String s = v.strip();
        if (!allowed.contains(s)) {
            throw InvalidParameterException.of(
                    name, "code", Message.QUERY_ONE_OF.with(name, Texts.quote(v), String.join(", ", allowed), note));
        }
        return s;
    }

    private static BigDecimal capitalBound(String name, BigDecimal d) {
        if (d == null) {
            return null;
        }
        String v = d.toPlainString();
        if (d.signum() < 0) {
            throw InvalidParameterException.of(name, "number", Message.QUERY_REAIS.with(name, Texts.quote(v)));
        }
        if (d.stripTrailingZeros().scale() > 2) {
            throw InvalidParameterException.of(name, "scale", Message.QUERY_CENTAVOS.with(name, Texts.quote(v)));
        }
        if (d.compareTo(MAX_CAPITAL) > 0) {
            throw InvalidParameterException.of(
                    name, "maximum", Message.MAXIMUM.with(name, Texts.quote(v), MAX_CAPITAL.toPlainString()));
        }
        return d.setScale(2);
    }

    private static NameSearch nameSearch(String v) {
        String name = BUSCA_TEXTUAL;
        String s = stripped(name, v, MAX_NAME_TEXT);
        List<String> all = NameWords.split(s);
        if (all.size() > MAX_NAME_WORDS) {
            throw InvalidParameterException.of(
                    name,
                    "too-many-words",
                    Message.NAME_SEARCH_TOO_MANY_WORDS.with(Texts.quote(v), all.size(), MAX_NAME_WORDS));
        }
        for (String w : all) {
            if (w.length() < MIN_NAME_WORD) {
                throw InvalidParameterException.of(
                        name, "word-too-short", Message.NAME_SEARCH_SHORT_WORD.with(Texts.quote(v), w, MIN_NAME_WORD));
            }
        }
        List<String> kept = new ArrayList<>();
        for (String w : all) {
            if (!NameWords.ignored(w)) {
                kept.remove(w);
                kept.add(w);
            }
        }
        if (kept.isEmpty()) {
            throw InvalidParameterException.of(name, "no-words", Message.NAME_SEARCH_NO_WORDS.with(Texts.quote(v)));
        }
        String prefix = kept.remove(kept.size() - 1);
        return new NameSearch(kept, prefix);
    }

    private static int whole(String name, long v, int min, int max) {
        if (v < min) {
            throw InvalidParameterException.of(name, "minimum", Message.MINIMUM.with(name, Long.toString(v), min));
        }
        if (v > max) {
            throw InvalidParameterException.of(name, "maximum", Message.MAXIMUM.with(name, Long.toString(v), max));
        }
        return (int) v;
    }

    /**
     * Programmatic construction. Each set setter adds values, each single setter replaces the value
     * ({@code null} removes it); every value is checked as it is given, so the first broken rule in the
     * order of the calls is the one reported. A date or capital range is checked by {@link
     * #abertura(LocalDate, LocalDate)} and {@link #capital(BigDecimal, BigDecimal)}, which set both bounds,
     * and at {@link #build()}, with the required filter.
     */
    public static final class Builder {
        private final Set<String> ufs = new TreeSet<>();
        private final Set<String> municipios = new LinkedHashSet<>();
        private final Set<String> bairros = new TreeSet<>();
        private final Set<String> ddds = new TreeSet<>();
        private final Set<String> cnaes = new TreeSet<>();
        private final Set<String> cnaesSecundarios = new TreeSet<>();
        private final Set<String> naturezas = new TreeSet<>();
        private final Set<String> situacoes = new TreeSet<>();
        private final Set<String> portes = new TreeSet<>();
        private final Map<String, Integer> given = new HashMap<>();
        private Boolean mei;
        private Boolean simples;
        private LocalDate aberturaDe;
        private LocalDate aberturaAte;
        private Boolean comTelefone;
        private Boolean comTelefoneMovel;
        private Boolean comEmail;
        private Boolean divida;
        private BigDecimal capitalMin;
        private BigDecimal capitalMax;
        private NameSearch buscaTextual;
        private boolean countOnly;
        private int limite = DEFAULT_LIMITE;
        private int pagina = DEFAULT_PAGINA;

        private Builder() {}

        private interface Rule {
            String apply(String value);
        }

        private Builder add(String name, Set<String> into, String[] values, Rule rule) {
            int n = given.merge(name, values.length, Integer::sum);
            if (n > MAX_VALUES) {
                throw InvalidParameterException.of(
                        name, "too-many-values", Message.TOO_MANY_VALUES.with(name, n, MAX_VALUES));
            }
            for (String v : values) {
                into.add(rule.apply(v));
            }
            return this;
        }

        /** States and {@code EX}, any case. */
        public Builder ufs(String... values) {
            return add(UFS, ufs, values, RegisterQuery::uf);
        }

        /** Receita codes, IBGE codes or names; resolved by the register. */
        public Builder municipios(String... values) {
            return add(MUNICIPIOS, municipios, values, v -> text(MUNICIPIOS, v, false));
        }

        public Builder bairros(String... values) {
            return add(BAIRROS, bairros, values, v -> text(BAIRROS, v, true));
        }

        public Builder ddds(String... values) {
            return add(DDDS, ddds, values, RegisterQuery::ddd);
        }

        /** Seven digits; {@code 4711-3/02} accepted. */
        public Builder cnaes(String... values) {
            return add(CNAES, cnaes, values, v -> digitCode(CNAES, v, 7, Message.QUERY_CNAE.with()));
        }

        public Builder cnaesSecundarios(String... values) {
            return add(
                    CNAES_SECUNDARIOS,
                    cnaesSecundarios,
                    values,
                    v -> digitCode(CNAES_SECUNDARIOS, v, 7, Message.QUERY_CNAE.with()));
        }

        /** Four digits; {@code 213-5} accepted. */
        public Builder naturezas(String... values) {
            return add(NATUREZAS, naturezas, values, v -> digitCode(NATUREZAS, v, 4, Message.QUERY_NATUREZA.with()));
        }

        public Builder situacaoCadastral(String... values) {
            return add(
                    SITUACAO_CADASTRAL,
                    situacoes,
                    values,
                    v -> oneOf(SITUACAO_CADASTRAL, v, SITUACAO_CODES, Message.QUERY_LEADING_ZERO.with()));
        }

        public Builder portes(String... values) {
            return add(PORTES, portes, values, v -> oneOf(PORTES, v, PORTE_CODES, Message.QUERY_LEADING_ZERO.with()));
        }

        public Builder mei(Boolean value) {
            mei = value;
            return this;
        }

        public Builder simples(Boolean value) {
            simples = value;
            return this;
        }

        public Builder aberturaDe(LocalDate value) {
            aberturaDe = value;
            return this;
        }

        public Builder aberturaAte(LocalDate value) {
            aberturaAte = value;
            return this;
        }

        /** Both opening-date bounds, the range checked now (as {@link #build()} would). */
        public Builder abertura(LocalDate de, LocalDate ate) {
            aberturaDe = de;
            aberturaAte = ate;
            checkDates();
            return this;
        }

        public Builder comTelefone(Boolean value) {
            comTelefone = value;
            return this;
        }

        public Builder comTelefoneMovel(Boolean value) {
            comTelefoneMovel = value;
            return this;
        }

        public Builder comEmail(Boolean value) {
            comEmail = value;
            return this;
        }

        public Builder divida(Boolean value) {
            divida = value;
            return this;
        }

        /** Reais, at most two decimals, {@code 0..}{@link #MAX_CAPITAL}. */
        public Builder capitalMin(BigDecimal value) {
            capitalMin = capitalBound(CAPITAL_MIN, value);
            return this;
        }

        public Builder capitalMax(BigDecimal value) {
            capitalMax = capitalBound(CAPITAL_MAX, value);
            return this;
        }

        /** Both capital bounds, each checked, then the range (as {@link #build()} would). */
        public Builder capital(BigDecimal min, BigDecimal max) {
            capitalMin = capitalBound(CAPITAL_MIN, min);
            capitalMax = capitalBound(CAPITAL_MAX, max);
            checkCapitals();
            return this;
        }

        /** Adds values to the set filter {@code filter} (a filter of {@link Kind#SET}). */
        public Builder values(Filter filter, String... values) {
            return switch (filter) {
                case UFS -> ufs(values);
                case MUNICIPIOS -> municipios(values);
                case BAIRROS -> bairros(values);
                case DDDS -> ddds(values);
                case CNAES -> cnaes(values);
                case CNAES_SECUNDARIOS -> cnaesSecundarios(values);
                case NATUREZAS -> naturezas(values);
                case SITUACAO_CADASTRAL -> situacaoCadastral(values);
                case PORTES -> portes(values);
                default -> throw new IllegalArgumentException(filter + " is not a set filter");
            };
        }

        /**
         * Name search: at most {@link #MAX_NAME_WORDS} words of at least {@link #MIN_NAME_WORD} characters
         * each (as {@link NameWords#split} cuts them), matched in the company and trade names; stop-words
         * and numbers are ignored, and at least one word must remain. {@code null} removes it.
         */
        public Builder buscaTextual(String text) {
            buscaTextual = text == null ? null : nameSearch(text);
            return this;
        }

        /** Sets the flag {@code filter} (a filter of {@link Kind#FLAG}). */
        public Builder flag(Filter filter, Boolean value) {
            switch (filter) {
                case MEI -> mei = value;
                case SIMPLES -> simples = value;
                case COM_TELEFONE -> comTelefone = value;
                case COM_TELEFONE_MOVEL -> comTelefoneMovel = value;
                case COM_EMAIL -> comEmail = value;
                case DIVIDA -> divida = value;
                default -> throw new IllegalArgumentException(filter + " is not a flag");
            }
            return this;
        }

        public Builder countOnly(boolean value) {
            countOnly = value;
            return this;
        }

        /** Page size, 1..{@link #MAX_LIMITE}. */
        public Builder limite(long value) {
            limite = whole(LIMITE, value, 1, MAX_LIMITE);
            return this;
        }

        /** Page number from 1. */
        public Builder pagina(long value) {
            pagina = whole(PAGINA, value, 1, Integer.MAX_VALUE);
            return this;
        }

        private void checkDates() {
            if (aberturaDe != null && aberturaAte != null && aberturaDe.isAfter(aberturaAte)) {
                throw InvalidParameterException.of(
                        ABERTURA_DE, "range", Message.QUERY_DATE_RANGE.with(aberturaDe, aberturaAte));
            }
        }

        private void checkCapitals() {
            if (capitalMin != null && capitalMax != null && capitalMin.compareTo(capitalMax) > 0) {
                throw InvalidParameterException.of(
                        CAPITAL_MIN,
                        "range",
                        Message.QUERY_CAPITAL_RANGE.with(capitalMin.toPlainString(), capitalMax.toPlainString()));
            }
        }

        /**
         * {@link #build()} without the rule that a filter is required: for a query over rows another
         * condition already narrows (the change feed, whose change types are its filter).
         */
        public RegisterQuery buildWithoutFilterRule() {
            checkDates();
            checkCapitals();
            return new RegisterQuery(this);
        }

        /**
         * @throws InvalidParameterException ({@code filtro}, {@code filter-required}) when no filter is set
         */
        public RegisterQuery build() {
            checkDates();
            checkCapitals();
            RegisterQuery q = new RegisterQuery(this);
            if (q.filters().isEmpty()) {
                List<String> names = new ArrayList<>();
                for (Filter f : Filter.values()) {
                    names.add(f.field());
                }
                throw InvalidParameterException.of(
                        "filtro", "filter-required", Message.QUERY_FILTER_REQUIRED.with(String.join(", ", names)));
            }
            return q;
        }
    }
}
