package dev.cadastro.http.companydata;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterQuery.Filter;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The register search in its HTTP form ({@code GET /v1/empresas}, and the mailing body's {@code filtros}
 * once read from JSON): parameter name to the values given, in order, a repeated parameter carrying
 * several. {@link #parse} reads it into the core's typed {@link RegisterQuery}; {@link #toParameters}
 * writes a query back in its normal form (what a request fingerprint is taken of).
 *
 * <p>The rules of the form are here: unknown names, a non-repeatable parameter given twice, an empty
 * value, more than {@link RegisterQuery#MAX_VALUES} values, and the spelling of booleans, dates, reais
 * and whole numbers. The rules of the values (a state, a code, a range, a page size) are the core's,
 * applied as each filter is handed over in the contract's order, so the first broken rule is reported
 * as it always was.
 */
public final class SearchParameters {
    /** Count only: not a filter of the query but a switch of the answer. */
    public static final String APENAS_TOTAL = "apenas_total";

    /** Every accepted parameter, in the contract's order. */
    public static final List<String> PARAMETERS = Stream.concat(
                    Stream.of(Filter.values()).map(Filter::field),
                    Stream.of(APENAS_TOTAL, RegisterQuery.LIMITE, RegisterQuery.PAGINA))
            .toList();

    /** The parameters that take several values by repetition: the set filters. */
    public static final Set<String> REPEATABLE = Stream.of(Filter.values())
            .filter(f -> f.kind() == RegisterQuery.Kind.SET)
            .map(Filter::field)
            .collect(Collectors.toUnmodifiableSet());

    private SearchParameters() {}

    /**
     * Reads a query in its HTTP form.
     *
     * @throws InvalidParameterException naming the parameter, the value and the rule
     */
    public static RegisterQuery parse(Map<String, List<String>> params) {
        return parse(params, PARAMETERS, true);
    }

    /** The change feed's month ({@code GET /v1/empresas/alteracoes}, and {@code alteracoes} in a mailing). */
    public static final String REFERENCIA = "referencia";
    /** The change feed's types, repeatable. */
    public static final String TIPOS = "tipos";

    /** Every parameter of the change feed: its own two, then those of the search, in the contract's order. */
    public static final List<String> CHANGE_PARAMETERS =
            Stream.concat(Stream.of(REFERENCIA, TIPOS), PARAMETERS.stream()).toList();

    /**
     * Reads a change-feed query ({@code GET /v1/empresas/alteracoes}): {@code referencia} ({@code
     * YYYY-MM}, once), {@code tipos} (repeatable: {@code abertura}, {@code baixa}, {@code situacao},
     * {@code endereco}, {@code contato}, {@code cnae}, {@code porte}, {@code capital}), and every search
     * parameter by the search's own rules, except that no filter is required (the change is one).
     *
     * @throws InvalidParameterException naming the parameter, the value and the rule
     */
    public static ChangeQuery parseChanges(Map<String, List<String>> params) {
        Objects.requireNonNull(params, "params");
        Map<String, List<String>> rest = new LinkedHashMap<>(params);
        List<String> months = rest.remove(REFERENCIA);
        List<String> types = rest.remove(TIPOS);
        for (String name : rest.keySet()) {
            if (name == null || !PARAMETERS.contains(name)) {
                throw unknown(name, CHANGE_PARAMETERS);
            }
        }
        Optional<YearMonth> month = Optional.empty();
        if (months != null && !months.isEmpty()) {
            if (months.size() > 1) {
                throw InvalidParameterException.of(
                        REFERENCIA, "single-value", Message.SINGLE_VALUE.with(REFERENCIA, months.size()));
            }
            String m = months.get(0) == null ? "" : months.get(0);
            if (m.isBlank()) {
                throw InvalidParameterException.of(REFERENCIA, "empty-value", Message.EMPTY_VALUE.with(REFERENCIA));
            }
            try {
                if (m.length() != 7) {
                    throw new DateTimeParseException("length", m, 0);
                }
                month = Optional.of(YearMonth.parse(m));
            } catch (DateTimeParseException e) {
                throw InvalidParameterException.of(
                        REFERENCIA, "month", Message.QUERY_MONTH.with(REFERENCIA, Texts.quote(m)));
            }
        }
        EnumSet<ChangeType> tipos = EnumSet.noneOf(ChangeType.class);
        if (types != null) {
            if (types.size() > ChangeType.values().length) {
                throw InvalidParameterException.of(
                        TIPOS,
                        "too-many-values",
                        Message.TOO_MANY_VALUES.with(TIPOS, types.size(), ChangeType.values().length));
            }
            for (String t : types) {
                if (t == null || t.isBlank()) {
                    throw InvalidParameterException.of(TIPOS, "empty-value", Message.EMPTY_VALUE.with(TIPOS));
                }
                tipos.add(ChangeType.ofWire(t)
                        .orElseThrow(() -> InvalidParameterException.of(
                                TIPOS,
                                "code",
                                Message.QUERY_CHANGE_TYPE.with(
                                        Texts.quote(t),
                                        Stream.of(ChangeType.values())
                                                .map(ChangeType::wire)
                                                .collect(Collectors.joining(", "))))));
            }
        }
        return new ChangeQuery(parse(rest, PARAMETERS, false), tipos, month);
    }

    /** A change query back in its HTTP form (what a request fingerprint is taken of). */
    public static Map<String, List<String>> toParameters(ChangeQuery q) {
        Map<String, List<String>> p = new LinkedHashMap<>();
        q.referencia().ifPresent(m -> p.put(REFERENCIA, List.of(m.toString())));
        if (!q.tipos().isEmpty()) {
            p.put(
                    TIPOS,
                    EnumSet.copyOf(q.tipos()).stream().map(ChangeType::wire).toList());
        }
        p.putAll(toParameters(q.filtros()));
        return Collections.unmodifiableMap(p);
    }

    private static InvalidParameterException unknown(String name, List<String> accepted) {
        return InvalidParameterException.of(
                name == null ? "parametro" : name,
                "unknown-parameter",
                Message.UNKNOWN_PARAMETER.with(Texts.quote(String.valueOf(name)), String.join(", ", accepted)));
    }

    private static RegisterQuery parse(
            Map<String, List<String>> params, List<String> accepted, boolean filterRequired) {
        Objects.requireNonNull(params, "params");
        Map<String, List<String>> p = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : params.entrySet()) {
            String name = e.getKey();
            if (name == null || !accepted.contains(name)) {
                throw unknown(name, accepted);
            }
            List<String> values = e.getValue() == null ? List.of() : e.getValue();
            if (values.isEmpty()) {
                continue;
            }
            if (!REPEATABLE.contains(name) && values.size() > 1) {
                throw InvalidParameterException.of(
                        name, "single-value", Message.SINGLE_VALUE.with(name, values.size()));
            }
            if (values.size() > RegisterQuery.MAX_VALUES) {
                throw InvalidParameterException.of(
                        name,
                        "too-many-values",
                        Message.TOO_MANY_VALUES.with(name, values.size(), RegisterQuery.MAX_VALUES));
            }
            for (String v : values) {
                if (v == null || v.isBlank()) {
                    throw InvalidParameterException.of(name, "empty-value", Message.EMPTY_VALUE.with(name));
                }
            }
            p.put(name, List.copyOf(values));
        }
        RegisterQuery.Builder b = RegisterQuery.builder();
        LocalDate de = null;
        BigDecimal min = null;
        for (Filter f : Filter.values()) {
            List<String> values = p.get(f.field());
            if (values == null) {
                continue;
            }
            String one = values.get(0);
            switch (f) {
                case ABERTURA_DE -> b.aberturaDe(de = date(f.field(), one));
                // Both bounds at once: the range is checked here, before the filters that follow.
                case ABERTURA_ATE -> b.abertura(de, date(f.field(), one));
                case CAPITAL_MIN -> b.capitalMin(min = reais(f.field(), one));
                case CAPITAL_MAX -> b.capital(min, reais(f.field(), one));
                case BUSCA_TEXTUAL -> b.buscaTextual(one);
                default -> {
                    if (f.kind() == RegisterQuery.Kind.FLAG) {
                        b.flag(f, bool(f.field(), one));
                    } else {
                        b.values(f, values.toArray(String[]::new));
                    }
                }
            }
        }
        if (p.containsKey(APENAS_TOTAL)) {
            b.countOnly(bool(APENAS_TOTAL, p.get(APENAS_TOTAL).get(0)));
        }
        if (p.containsKey(RegisterQuery.LIMITE)) {
            b.limite(whole(RegisterQuery.LIMITE, p.get(RegisterQuery.LIMITE).get(0)));
        }
        if (p.containsKey(RegisterQuery.PAGINA)) {
            b.pagina(whole(RegisterQuery.PAGINA, p.get(RegisterQuery.PAGINA).get(0)));
        }
        return filterRequired ? b.build() : b.buildWithoutFilterRule();
    }

    /** The query back in its HTTP form (normalized values; the defaults of limite and pagina included). */
    public static Map<String, List<String>> toParameters(RegisterQuery q) {
        Map<String, List<String>> p = new LinkedHashMap<>();
        for (Map.Entry<Filter, List<String>> e : q.filterValues().entrySet()) {
            p.put(e.getKey().field(), e.getValue());
        }
        if (q.countOnly()) {
            p.put(APENAS_TOTAL, List.of("true"));
        }
        p.put(RegisterQuery.LIMITE, List.of(Integer.toString(q.limite())));
        p.put(RegisterQuery.PAGINA, List.of(Integer.toString(q.pagina())));
        return Collections.unmodifiableMap(p);
    }

    /**
     * Exactly {@code true} or {@code false}, as the contract's enum says: no other case, and nothing
     * around it (an unencoded {@code +true} arrives as {@code " true"} and is refused, not read as true).
     */
    private static boolean bool(String name, String s) {
        if (s.equals("true")) {
            return true;
        }
        if (s.equals("false")) {
            return false;
        }
        throw InvalidParameterException.of(name, "boolean", Message.BOOLEAN.with(name, Texts.quote(s)));
    }

    private static LocalDate date(String name, String value) {
        String s = value.strip();
        try {
            if (s.length() != 10) {
                throw new DateTimeParseException("length", s, 0);
            }
            return LocalDate.parse(s);
        } catch (DateTimeParseException e) {
            throw InvalidParameterException.of(name, "date", Message.DATE.with(name, Texts.quote(value)));
        }
    }

    /**
     * The OpenAPI pattern {@code ^[0-9]+([.][0-9]{1,2})?$}'s shape, checked by hand so that no sign, space,
     * exponent or non-ASCII digit (BigDecimal reads '\u0663' as 3) gets through; the scale and the
     * maximum are the core's rules.
     */
    private static BigDecimal reais(String name, String s) {
        int dot = s.indexOf('.');
        String whole = dot < 0 ? s : s.substring(0, dot);
        if (!Texts.isAsciiDigits(whole) || (dot >= 0 && !Texts.isAsciiDigits(s.substring(dot + 1)))) {
            throw InvalidParameterException.of(name, "number", Message.QUERY_REAIS.with(name, Texts.quote(s)));
        }
        return new BigDecimal(s);
    }

    /** As the OpenAPI document's pattern says: digits only, no sign, no spaces, no leading zero. */
    private static long whole(String name, String s) {
        if (s.isEmpty() || s.length() > 11 || !Texts.isAsciiDigits(s) || (s.length() > 1 && s.charAt(0) == '0')) {
            throw InvalidParameterException.of(name, "integer", Message.WHOLE_NUMBER.with(name, Texts.quote(s)));
        }
        return Long.parseLong(s);
    }
}
