package dev.cadastro.core.register;

import dev.cadastro.core.document.Ddd;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A validated register search ({@code GET /empresas}): the filters,
 * whether only the count is wanted, and the page.
 *
 * <p>Semantics: the values of one repeatable filter are alternatives (OR); different filters must all
 * hold (AND). A boolean filter that is absent does not filter; {@code false} asks for the establishments
 * without the property ({@code divida=false}: without active debt). Date and capital bounds are
 * inclusive. At least one filter is required.
 *
 * <p>Values are normalized once here: codes keep their leading zeros, states are upper case, CNAEs
 * lose their punctuation ({@code 4711-3/02} is {@code 4711302}), districts are compared upper case
 * without accents. Municipalities stay as given (a Receita code, an IBGE code or a name): the register
 * resolves them against the lookup tables of its published index.
 *
 * <p>Every broken rule is an {@link InvalidParameterException} whose field is the parameter name, whose
 * rule is a stable token and whose message names the parameter, the value and the rule.
 */
public final class RegisterQuery {
    /** Parameter names exactly as the contract writes them. */
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
            APENAS_TOTAL = "apenas_total",
            LIMITE = "limite",
            PAGINA = "pagina";

    /** Every accepted parameter, in the contract's order. */
    public static final List<String> PARAMETERS = List.of(
            UFS,
            MUNICIPIOS,
            BAIRROS,
            DDDS,
            CNAES,
            CNAES_SECUNDARIOS,
            NATUREZAS,
            SITUACAO_CADASTRAL,
            PORTES,
            MEI,
            SIMPLES,
            ABERTURA_DE,
            ABERTURA_ATE,
            COM_TELEFONE,
            COM_TELEFONE_MOVEL,
            COM_EMAIL,
            DIVIDA,
            CAPITAL_MIN,
            CAPITAL_MAX,
            APENAS_TOTAL,
            LIMITE,
            PAGINA);

    /** The parameters that take several values by repetition. */
    public static final Set<String> REPEATABLE =
            Set.of(UFS, MUNICIPIOS, BAIRROS, DDDS, CNAES, CNAES_SECUNDARIOS, NATUREZAS, SITUACAO_CADASTRAL, PORTES);

    public static final int DEFAULT_LIMITE = 50;
    public static final int MAX_LIMITE = 200;
    public static final int DEFAULT_PAGINA = 1;
    /** Most values one repeatable parameter may carry. */
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
    private final boolean countOnly;
    private final int limite;
    private final int pagina;

    private RegisterQuery(Map<String, List<String>> p) {
        ufs = codes(p, UFS, RegisterQuery::uf);
        municipios = texts(p, MUNICIPIOS, false);
        bairros = Collections.unmodifiableSortedSet(new TreeSet<>(texts(p, BAIRROS, true)));
        ddds = codes(p, DDDS, RegisterQuery::ddd);
        cnaes = codes(p, CNAES, v -> digitCode(CNAES, v, 7, Message.QUERY_CNAE.with()));
        cnaesSecundarios =
                codes(p, CNAES_SECUNDARIOS, v -> digitCode(CNAES_SECUNDARIOS, v, 7, Message.QUERY_CNAE.with()));
        naturezas = codes(p, NATUREZAS, v -> digitCode(NATUREZAS, v, 4, Message.QUERY_NATUREZA.with()));
        situacoes = codes(
                p,
                SITUACAO_CADASTRAL,
                v -> oneOf(SITUACAO_CADASTRAL, v, SITUACAO_CODES, Message.QUERY_LEADING_ZERO.with()));
        portes = codes(p, PORTES, v -> oneOf(PORTES, v, PORTE_CODES, Message.QUERY_LEADING_ZERO.with()));
        mei = bool(p, MEI);
        simples = bool(p, SIMPLES);
        aberturaDe = date(p, ABERTURA_DE);
        aberturaAte = date(p, ABERTURA_ATE);
        if (aberturaDe != null && aberturaAte != null && aberturaDe.isAfter(aberturaAte)) {
            throw InvalidParameterException.of(
                    ABERTURA_DE, "range", Message.QUERY_DATE_RANGE.with(aberturaDe, aberturaAte));
        }
        comTelefone = bool(p, COM_TELEFONE);
        comTelefoneMovel = bool(p, COM_TELEFONE_MOVEL);
        comEmail = bool(p, COM_EMAIL);
        divida = bool(p, DIVIDA);
        capitalMin = capital(p, CAPITAL_MIN);
        capitalMax = capital(p, CAPITAL_MAX);
        if (capitalMin != null && capitalMax != null && capitalMin.compareTo(capitalMax) > 0) {
            throw InvalidParameterException.of(
                    CAPITAL_MIN,
                    "range",
                    Message.QUERY_CAPITAL_RANGE.with(capitalMin.toPlainString(), capitalMax.toPlainString()));
        }
        Boolean total = bool(p, APENAS_TOTAL);
        countOnly = total != null && total;
        limite = integer(p, LIMITE, DEFAULT_LIMITE, 1, MAX_LIMITE);
        pagina = integer(p, PAGINA, DEFAULT_PAGINA, 1, Integer.MAX_VALUE);
        if (!hasFilter()) {
            throw InvalidParameterException.of(
                    "filtro",
                    "filter-required",
                    Message.QUERY_FILTER_REQUIRED.with(String.join(", ", PARAMETERS.subList(0, 19))));
        }
    }

    /**
     * Validates a query in its HTTP form: parameter name to the values given, in order (a repeated
     * parameter has several). Unknown names, a non-repeatable parameter given twice and every value that
     * breaks its rule are rejected.
     *
     * @throws InvalidParameterException naming the parameter, the value and the rule
     */
    public static RegisterQuery parse(Map<String, List<String>> params) {
        Objects.requireNonNull(params, "params");
        Map<String, List<String>> p = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : params.entrySet()) {
            String name = e.getKey();
            if (name == null || !PARAMETERS.contains(name)) {
                throw InvalidParameterException.of(
                        name == null ? "parametro" : name,
                        "unknown-parameter",
                        Message.UNKNOWN_PARAMETER.with(
                                Texts.quote(String.valueOf(name)), String.join(", ", PARAMETERS)));
            }
            List<String> values = e.getValue() == null ? List.of() : e.getValue();
            if (values.isEmpty()) {
                continue;
            }
            if (!REPEATABLE.contains(name) && values.size() > 1) {
                throw InvalidParameterException.of(
                        name, "single-value", Message.SINGLE_VALUE.with(name, values.size()));
            }
            if (values.size() > MAX_VALUES) {
                throw InvalidParameterException.of(
                        name, "too-many-values", Message.TOO_MANY_VALUES.with(name, values.size(), MAX_VALUES));
            }
            for (String v : values) {
                if (v == null || v.isBlank()) {
                    throw InvalidParameterException.of(name, "empty-value", Message.EMPTY_VALUE.with(name));
                }
            }
            p.put(name, List.copyOf(values));
        }
        return new RegisterQuery(p);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The query back in its HTTP form (normalized values; defaults of limite and pagina included). */
    public Map<String, List<String>> toParameters() {
        Map<String, List<String>> p = new LinkedHashMap<>();
        putAll(p, UFS, ufs);
        putAll(p, MUNICIPIOS, municipios);
        putAll(p, BAIRROS, bairros);
        putAll(p, DDDS, ddds);
        putAll(p, CNAES, cnaes);
        putAll(p, CNAES_SECUNDARIOS, cnaesSecundarios);
        putAll(p, NATUREZAS, naturezas);
        putAll(p, SITUACAO_CADASTRAL, situacoes);
        putAll(p, PORTES, portes);
        putOne(p, MEI, mei);
        putOne(p, SIMPLES, simples);
        putOne(p, ABERTURA_DE, aberturaDe);
        putOne(p, ABERTURA_ATE, aberturaAte);
        putOne(p, COM_TELEFONE, comTelefone);
        putOne(p, COM_TELEFONE_MOVEL, comTelefoneMovel);
        putOne(p, COM_EMAIL, comEmail);
        putOne(p, DIVIDA, divida);
        putOne(p, CAPITAL_MIN, capitalMin == null ? null : capitalMin.toPlainString());
        putOne(p, CAPITAL_MAX, capitalMax == null ? null : capitalMax.toPlainString());
        if (countOnly) {
            p.put(APENAS_TOTAL, List.of("true"));
        }
        p.put(LIMITE, List.of(Integer.toString(limite)));
        p.put(PAGINA, List.of(Integer.toString(pagina)));
        return Collections.unmodifiableMap(p);
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

    /** Inclusive lower bound of the share capital, in reais. */
    public Optional<BigDecimal> capitalMin() {
        return Optional.ofNullable(capitalMin);
    }

    /** Inclusive upper bound of the share capital, in reais. */
    public Optional<BigDecimal> capitalMax() {
        return Optional.ofNullable(capitalMax);
    }

    /** {@code apenas_total=true}: count only, no records. */
    public boolean countOnly() {
        return countOnly;
    }

    public int limite() {
        return limite;
    }

    public int pagina() {
        return pagina;
    }

    /**
     * Whether the query sets {@code parameter}, that is whether {@link #toParameters()} holds it (limite
     * and pagina always, with their defaults), without building that map.
     *
     * @throws IllegalArgumentException when {@code parameter} is not one of {@link #PARAMETERS}
     */
    public boolean has(String parameter) {
        return switch (parameter) {
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
            case APENAS_TOTAL -> countOnly;
            case LIMITE, PAGINA -> true;
            default -> throw new IllegalArgumentException("parameter " + parameter + " is not one of " + PARAMETERS);
        };
    }

    /** Records to skip before this page: {@code (pagina - 1) * limite}. */
    public long offset() {
        return (long) (pagina - 1) * limite;
    }

    private boolean hasFilter() {
        return !ufs.isEmpty()
                || !municipios.isEmpty()
                || !bairros.isEmpty()
                || !ddds.isEmpty()
                || !cnaes.isEmpty()
                || !cnaesSecundarios.isEmpty()
                || !naturezas.isEmpty()
                || !situacoes.isEmpty()
                || !portes.isEmpty()
                || mei != null
                || simples != null
                || aberturaDe != null
                || aberturaAte != null
                || comTelefone != null
                || comTelefoneMovel != null
                || comEmail != null
                || divida != null
                || capitalMin != null
                || capitalMax != null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RegisterQuery q && toParameters().equals(q.toParameters());
    }

    @Override
    public int hashCode() {
        return toParameters().hashCode();
    }

    @Override
    public String toString() {
        return "RegisterQuery" + toParameters();
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

    private interface Rule {
        String apply(String value);
    }

    private static SortedSet<String> codes(Map<String, List<String>> p, String name, Rule rule) {
        List<String> values = p.getOrDefault(name, List.of());
        TreeSet<String> out = new TreeSet<>();
        for (String v : values) {
            out.add(rule.apply(v));
        }
        return Collections.unmodifiableSortedSet(out);
    }

    private static List<String> texts(Map<String, List<String>> p, String name, boolean normalize) {
        List<String> out = new ArrayList<>();
        for (String v : p.getOrDefault(name, List.of())) {
            String s = v.strip();
            if (s.length() > MAX_TEXT) {
                throw InvalidParameterException.of(
                        name, "too-long", Message.VALUE_TOO_LONG.with(name, Texts.quote(v), s.length(), MAX_TEXT));
            }
            for (int i = 0; i < s.length(); i++) {
                if (Character.isISOControl(s.charAt(i))) {
                    throw InvalidParameterException.of(
                            name, "characters", Message.CONTROL_CHARACTER.with(name, Texts.quote(v)));
                }
            }
            String n = normalize ? normalizeText(s) : s;
            if (!out.contains(n)) {
                out.add(n);
            }
        }
        return List.copyOf(out);
    }

    private static String uf(String v) {
        String s = v.strip().toUpperCase(Locale.ROOT);
        if (!UF_CODES.contains(s)) {
            throw InvalidParameterException.of(
                    UFS, "uf", Message.QUERY_UF.with(Texts.quote(v), String.join(", ", UF_CODES)));
        }
        return s;
    }

    private static String ddd(String v) {
        String s = v.strip();
        if (s.length() != 2 || !isDigits(s) || !Ddd.isValid(Integer.parseInt(s))) {
            throw InvalidParameterException.of(DDDS, "ddd", Message.QUERY_DDD.with(Texts.quote(v)));
        }
        return s;
    }

    private static String digitCode(String name, String v, int digits, LocalizedText expected) {
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
        String s = v.strip();
        if (!allowed.contains(s)) {
            throw InvalidParameterException.of(
                    name, "code", Message.QUERY_ONE_OF.with(name, Texts.quote(v), String.join(", ", allowed), note));
        }
        return s;
    }

    /**
     * Exactly {@code true} or {@code false}, as the contract's enum says: no other case, and nothing
     * around it (an unencoded {@code +true} arrives as {@code " true"} and is refused, not read as true).
     */
    private static Boolean bool(Map<String, List<String>> p, String name) {
        List<String> values = p.get(name);
        if (values == null) {
            return null;
        }
        String s = values.get(0);
        if (s.equals("true")) {
            return Boolean.TRUE;
        }
        if (s.equals("false")) {
            return Boolean.FALSE;
        }
        throw InvalidParameterException.of(name, "boolean", Message.BOOLEAN.with(name, Texts.quote(values.get(0))));
    }

    private static LocalDate date(Map<String, List<String>> p, String name) {
        List<String> values = p.get(name);
        if (values == null) {
            return null;
        }
        String s = values.get(0).strip();
        try {
            if (s.length() != 10) {
                throw new DateTimeParseException("length", s, 0);
            }
            return LocalDate.parse(s);
        } catch (DateTimeParseException e) {
            throw InvalidParameterException.of(name, "date", Message.DATE.with(name, Texts.quote(values.get(0))));
        }
    }

    private static BigDecimal capital(Map<String, List<String>> p, String name) {
        List<String> values = p.get(name);
        if (values == null) {
            return null;
        }
        String s = values.get(0);
        BigDecimal d;
        try {
            // The OpenAPI pattern ^[0-9]+([.][0-9]{1,2})?$, checked by hand so that no sign, space,
            // exponent or non-ASCII digit (BigDecimal reads '\u0663' as 3) gets through.
            int dot = s.indexOf('.');
            String whole = dot < 0 ? s : s.substring(0, dot);
            if (!isDigits(whole) || (dot >= 0 && !isDigits(s.substring(dot + 1)))) {
                throw new NumberFormatException();
            }
            d = new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw InvalidParameterException.of(
                    name, "number", Message.QUERY_REAIS.with(name, Texts.quote(values.get(0))));
        }
        if (d.stripTrailingZeros().scale() > 2) {
            throw InvalidParameterException.of(
                    name, "scale", Message.QUERY_CENTAVOS.with(name, Texts.quote(values.get(0))));
        }
        if (d.compareTo(MAX_CAPITAL) > 0) {
            throw InvalidParameterException.of(
                    name,
                    "maximum",
                    Message.MAXIMUM.with(name, Texts.quote(values.get(0)), MAX_CAPITAL.toPlainString()));
        }
        return d.setScale(2);
    }

    private static int integer(Map<String, List<String>> p, String name, int dflt, int min, int max) {
        List<String> values = p.get(name);
        if (values == null) {
            return dflt;
        }
        // As the OpenAPI document's pattern says: digits only, no sign, no spaces, no leading zero.
        String s = values.get(0);
        if (s.isEmpty() || s.length() > 11 || !isDigits(s) || (s.length() > 1 && s.charAt(0) == '0')) {
            throw InvalidParameterException.of(
                    name, "integer", Message.WHOLE_NUMBER.with(name, Texts.quote(values.get(0))));
        }
        long v = Long.parseLong(s);
        if (v < min) {
            throw InvalidParameterException.of(name, "minimum", Message.MINIMUM.with(name, s, min));
        }
        if (v > max) {
            throw InvalidParameterException.of(name, "maximum", Message.MAXIMUM.with(name, s, max));
        }
        return (int) v;
    }

    private static boolean isDigits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static void putAll(Map<String, List<String>> p, String name, java.util.Collection<String> values) {
        if (!values.isEmpty()) {
            p.put(name, List.copyOf(values));
        }
    }

    private static void putOne(Map<String, List<String>> p, String name, Object value) {
        if (value != null) {
            p.put(name, List.of(value.toString()));
        }
    }

    /**
     * Programmatic construction; {@link #build()} applies exactly the rules of {@link #parse(Map)}. Each
     * repeatable setter adds values; each single setter replaces the value.
     */
    public static final class Builder {
        private final Map<String, List<String>> p = new LinkedHashMap<>();

        private Builder() {}

        private Builder add(String name, String... values) {
            List<String> list = p.computeIfAbsent(name, k -> new ArrayList<>());
            list.addAll(List.of(values));
            return this;
        }

        private Builder set(String name, Object value) {
            if (value == null) {
                p.remove(name);
            } else {
                p.put(name, new ArrayList<>(List.of(value.toString())));
            }
            return this;
        }

        public Builder ufs(String... values) {
            return add(UFS, values);
        }

        public Builder municipios(String... values) {
            return add(MUNICIPIOS, values);
        }

        public Builder bairros(String... values) {
            return add(BAIRROS, values);
        }

        public Builder ddds(String... values) {
            return add(DDDS, values);
        }

        public Builder cnaes(String... values) {
            return add(CNAES, values);
        }

        public Builder cnaesSecundarios(String... values) {
            return add(CNAES_SECUNDARIOS, values);
        }

        public Builder naturezas(String... values) {
            return add(NATUREZAS, values);
        }

        public Builder situacaoCadastral(String... values) {
            return add(SITUACAO_CADASTRAL, values);
        }

        public Builder portes(String... values) {
            return add(PORTES, values);
        }

        public Builder mei(Boolean value) {
            return set(MEI, value);
        }

        public Builder simples(Boolean value) {
            return set(SIMPLES, value);
        }

        public Builder aberturaDe(LocalDate value) {
            return set(ABERTURA_DE, value);
        }

        public Builder aberturaAte(LocalDate value) {
            return set(ABERTURA_ATE, value);
        }

        public Builder comTelefone(Boolean value) {
            return set(COM_TELEFONE, value);
        }

        public Builder comTelefoneMovel(Boolean value) {
            return set(COM_TELEFONE_MOVEL, value);
        }

        public Builder comEmail(Boolean value) {
            return set(COM_EMAIL, value);
        }

        public Builder divida(Boolean value) {
            return set(DIVIDA, value);
        }

        public Builder capitalMin(BigDecimal value) {
            return set(CAPITAL_MIN, value == null ? null : value.toPlainString());
        }

        public Builder capitalMax(BigDecimal value) {
            return set(CAPITAL_MAX, value == null ? null : value.toPlainString());
        }

        public Builder countOnly(boolean value) {
            return set(APENAS_TOTAL, value ? "true" : null);
        }

        public Builder limite(int value) {
            return set(LIMITE, value);
        }

        public Builder pagina(int value) {
            return set(PAGINA, value);
        }

        /** A raw parameter in its HTTP form (for callers holding parameter names). */
        public Builder parameter(String name, String... values) {
            return add(name, values);
        }

        /**
         * @throws InvalidParameterException as {@link RegisterQuery#parse(Map)}
         */
        public RegisterQuery build() {
            return parse(p);
        }
    }
}
