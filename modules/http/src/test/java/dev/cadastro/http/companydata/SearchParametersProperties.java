package dev.cadastro.http.companydata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.RegisterQuery;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link SearchParameters#parse} over generated queries that are mostly valid: each query holds one to five
 * parameters, each value drawn with its expected normal form; some queries also carry one value that
 * breaks a named rule (the statistics require at least half of the inputs to parse and 15% to be
 * broken). The oracle is this class's model of the search parameters' rules (docs/register.md, the OpenAPI document) and of the
 * documented normalization, not the parser: a query without a broken value must parse
 * to exactly the expected values (or, without a filter, be refused as {@code filter-required}); a query
 * with one broken value must be refused naming that parameter and that rule.
 */
class SearchParametersProperties {

    /** One parameter value as sent, what the parser must make of it, or the rule it breaks. */
    record Value(String name, String raw, String normal, String brokenRule) {
        static Value ok(String name, String raw, String normal) {
            return new Value(name, raw, normal, null);
        }

        static Value broken(String name, String raw, String rule) {
            return new Value(name, raw, null, rule);
        }
    }

    private static final List<String> STATES = List.of(
            "AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE", "PI", "PR",
            "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO", "EX");
    /** Area codes in service (Anatel), a few of each region. */
    private static final List<String> DDDS_IN_SERVICE =
            List.of("11", "19", "21", "27", "31", "41", "48", "51", "61", "62", "71", "81", "85", "91", "92", "98");

    private static final List<String> BOOLEANS = List.of(
            RegisterQuery.MEI,
            RegisterQuery.SIMPLES,
            RegisterQuery.COM_TELEFONE,
            RegisterQuery.COM_TELEFONE_MOVEL,
            RegisterQuery.COM_EMAIL,
            RegisterQuery.DIVIDA);

    // ---- valid values, with their normal form

    private static Arbitrary<Value> uf() {
        return Combinators.combine(Arbitraries.of(STATES), Arbitraries.of(true, false))
                .as((s, lower) -> Value.ok(RegisterQuery.UFS, lower ? s.toLowerCase(Locale.ROOT) : s, s));
    }

    private static Arbitrary<Value> ddd() {
        return Arbitraries.of(DDDS_IN_SERVICE).map(d -> Value.ok(RegisterQuery.DDDS, d, d));
    }

    private static Arbitrary<Value> digitCode(String name, int digits, boolean punctuated) {
        return Combinators.combine(Arbitraries.strings().numeric().ofLength(digits), Arbitraries.of(true, false))
                .as((d, punct) -> {
                    String raw = !punct || !punctuated
                            ? d
                            : digits == 7
                                    ? d.substring(0, 4) + "-" + d.charAt(4) + "/" + d.substring(5)
                                    : d.substring(0, 3) + "-" + d.charAt(3);
                    return Value.ok(name, raw, d);
                });
    }

    private static Arbitrary<Value> municipio() {
        return Arbitraries.of("7107", "São Paulo", "  Campinas ", "3550308", "Rio de Janeiro")
                .map(m -> Value.ok(RegisterQuery.MUNICIPIOS, m, m.strip()));
    }

    private static Arbitrary<Value> bairro() {
        return Arbitraries.of(
                        new String[] {"Centro", "CENTRO"},
                        new String[] {"  vila   mariana ", "VILA MARIANA"},
                        new String[] {"São João", "SAO JOAO"},
                        new String[] {"Jardim Paulistano", "JARDIM PAULISTANO"})
                .map(b -> Value.ok(RegisterQuery.BAIRROS, b[0], b[1]));
    }

    private static Arbitrary<Value> bool(String name) {
        return Arbitraries.of("true", "false").map(b -> Value.ok(name, b, b));
    }

    /** Opening dates: "de" bounds before 2005, "ate" bounds after, so a range is never empty by chance. */
    private static Arbitrary<Value> date(String name) {
        int from = name.equals(RegisterQuery.ABERTURA_DE) ? 1950 : 2006;
        return Arbitraries.integers().between(0, 365 * 50 / 3).map(days -> {
            String d = LocalDate.of(from, 1, 1).plusDays(days).toString();
            return Value.ok(name, d, d);
        });
    }

    /** Capital bounds in centavos: "min" below 1,000,000.00, "max" above, so the range is never empty. */
    private static Arbitrary<Value> capital(String name) {
        boolean min = name.equals(RegisterQuery.CAPITAL_MIN);
        return Combinators.combine(
                        Arbitraries.longs().between(min ? 0 : 100_000_000, min ? 99_999_999 : 9_999_999_999L),
                        Arbitraries.integers().between(0, 2))
                .as((centavos, decimals) -> {
                    long c = decimals == 0 ? centavos / 100 * 100 : decimals == 1 ? centavos / 10 * 10 : centavos;
                    String normal = String.format(Locale.ROOT, "%d.%02d", c / 100, c % 100);
                    String raw = decimals == 0
                            ? Long.toString(c / 100)
                            : decimals == 1 ? normal.substring(0, normal.length() - 1) : normal;
                    return Value.ok(name, raw, normal);
                });
    }

    private static Arbitrary<Value> whole(String name, int min, int max) {
        return Arbitraries.integers().between(min, max).map(n -> Value.ok(name, Integer.toString(n), n.toString()));
    }

    private static Arbitrary<Value> validValue() {
        return Arbitraries.oneOf(
                uf(),
                municipio(),
                bairro(),
                ddd(),
                digitCode(RegisterQuery.CNAES, 7, true),
                digitCode(RegisterQuery.CNAES_SECUNDARIOS, 7, true),
                digitCode(RegisterQuery.NATUREZAS, 4, true),
                Arbitraries.of(RegisterQuery.SITUACAO_CODES.toArray(String[]::new))
                        .map(s -> Value.ok(RegisterQuery.SITUACAO_CADASTRAL, s, s)),
                Arbitraries.of("00", "01", "03", "05").map(s -> Value.ok(RegisterQuery.PORTES, s, s)),
                Arbitraries.of(BOOLEANS).flatMap(SearchParametersProperties::bool),
                date(RegisterQuery.ABERTURA_DE),
                date(RegisterQuery.ABERTURA_ATE),
                capital(RegisterQuery.CAPITAL_MIN),
                capital(RegisterQuery.CAPITAL_MAX),
                bool(SearchParameters.APENAS_TOTAL),
                whole(RegisterQuery.LIMITE, 1, 200),
                whole(RegisterQuery.PAGINA, 1, 100_000));
    }

    // ---- values that break one named rule

    private static Arbitrary<Value> brokenValue() {
        return Arbitraries.oneOf(
                Arbitraries.of("XX", "S", "SPX", "12", "São").map(v -> Value.broken(RegisterQuery.UFS, v, "uf")),
                Arbitraries.of("1", "100", "20", "25", "ab", "00").map(v -> Value.broken(RegisterQuery.DDDS, v, "ddd")),
                Arbitraries.of("471130", "47113021", "4711X02", "CNAE")
                        .map(v -> Value.broken(RegisterQuery.CNAES, v, "code")),
                Arbitraries.of("213", "21355", "2A35").map(v -> Value.broken(RegisterQuery.NATUREZAS, v, "code")),
                Arbitraries.of("2", "05", "1", "ativa")
                        .map(v -> Value.broken(RegisterQuery.SITUACAO_CADASTRAL, v, "code")),
                Arbitraries.of("02", "1", "ME").map(v -> Value.broken(RegisterQuery.PORTES, v, "code")),
                Combinators.combine(
                                Arbitraries.of(BOOLEANS),
                                Arbitraries.of("sim", "1", "yes", "verdadeiro", "TRUE", "False", " true", "false "))
                        .as((name, v) -> Value.broken(name, v, "boolean")),
                Arbitraries.of("2020-13-01", "01/02/2020", "2020-1-1", "2021-02-30", "ontem")
                        .map(v -> Value.broken(RegisterQuery.ABERTURA_DE, v, "date")),
                Arbitraries.of("abc", "-1", "1e5", "1.000,00")
                        .map(v -> Value.broken(RegisterQuery.CAPITAL_MIN, v, "number")),
                Arbitraries.of("10.001", "2500.505").map(v -> Value.broken(RegisterQuery.CAPITAL_MAX, v, "scale")),
                Arbitraries.of("100000000000000", "123456789012345.5")
                        .map(v -> Value.broken(RegisterQuery.CAPITAL_MAX, v, "maximum")),
                Arbitraries.of("0").map(v -> Value.broken(RegisterQuery.LIMITE, v, "minimum")),
                Arbitraries.of("201", "500", "99999").map(v -> Value.broken(RegisterQuery.LIMITE, v, "maximum")),
                Arbitraries.of("abc", "1.5", "dez").map(v -> Value.broken(RegisterQuery.PAGINA, v, "integer")),
                Arbitraries.of("0").map(v -> Value.broken(RegisterQuery.PAGINA, v, "minimum")),
                Arbitraries.strings()
                        .alpha()
                        .ofLength(RegisterQuery.MAX_TEXT + 1)
                        .map(v -> Value.broken(RegisterQuery.MUNICIPIOS, v, "too-long")),
                Arbitraries.of("CEN\u0000TRO", "VILA\u0007")
                        .map(v -> Value.broken(RegisterQuery.BAIRROS, v, "characters")),
                Arbitraries.of("bogus", "uf", "limit", "cnpj").map(v -> Value.broken(v, "1", "unknown-parameter")));
    }

    @Provide
    Arbitrary<List<Value>> queries() {
        Arbitrary<List<Value>> valid =
                validValue().list().ofMinSize(1).ofMaxSize(5).edgeCases(edges -> {});
        return Arbitraries.frequencyOf(
                Tuple.of(9, valid),
                Tuple.of(
                        1,
                        Combinators.combine(
                                        valid,
                                        brokenValue(),
                                        Arbitraries.integers().between(0, 5))
                                .as((values, bad, at) -> {
                                    List<Value> all = new ArrayList<>(withoutParameter(values, bad.name()));
                                    all.add(Math.min(at, all.size()), bad);
                                    return all;
                                })));
    }

    /** Drops the values of a parameter, so the broken value is that parameter's only one. */
    private static List<Value> withoutParameter(List<Value> values, String name) {
        return values.stream().filter(v -> !v.name().equals(name)).toList();
    }

    @Property(tries = 2000)
    void parsesWhatIsValidToItsNormalFormAndRefusesEachBrokenValueByItsRule(@ForAll("queries") List<Value> query) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        Map<String, List<Value>> byName = new LinkedHashMap<>();
        for (Value v : query) {
            boolean single = !SearchParameters.REPEATABLE.contains(v.name()) && v.brokenRule() == null;
            if (single && byName.containsKey(v.name())) {
                continue; // a single-valued parameter is given once: the first draw stands
            }
            params.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(v.raw());
            byName.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(v);
        }
        Value broken =
                query.stream().filter(v -> v.brokenRule() != null).findFirst().orElse(null);
        boolean hasFilter = byName.keySet().stream()
                .anyMatch(n ->
                        SearchParameters.PARAMETERS.indexOf(n) >= 0 && SearchParameters.PARAMETERS.indexOf(n) < 19);
        String outcome = broken != null ? "broken " + broken.brokenRule() : hasFilter ? "parsed" : "no filter";
        Statistics.label("outcome").collect(outcome.startsWith("broken") ? "broken" : outcome);
        Statistics.label("outcome").coverage(c -> {
            c.check("parsed").percentage(p -> p >= 50);
            c.check("broken").percentage(p -> p >= 15);
        });
        RegisterQuery q;
        try {
            q = SearchParameters.parse(params);
        } catch (InvalidParameterException e) {
            String field = e.violation().field();
            String rule = e.violation().rule();
            if (broken != null) {
                assertEquals(broken.name() + " " + broken.brokenRule(), field + " " + rule, e.getMessage());
                assertTrue(
                        e.getMessage().startsWith(broken.name()) || rule.equals("unknown-parameter"), e.getMessage());
            } else if (!hasFilter) {
                assertEquals("filtro filter-required", field + " " + rule, e.getMessage());
            } else {
                fail("a valid query was refused: " + params + " -> " + e.getMessage());
            }
            return;
        }
        assertTrue(broken == null, () -> "accepted " + broken + " in " + params);
        assertTrue(hasFilter, () -> "accepted a query without a filter: " + params);
        assertEquals(expectedParameters(byName), SearchParameters.toParameters(q), params::toString);
        assertEquals(
                q,
                SearchParameters.parse(SearchParameters.toParameters(q)),
                "the normal form parses to the same query");
    }

    /** The normal form the model predicts: sets sorted for codes and districts, defaults of limite and pagina. */
    private static Map<String, List<String>> expectedParameters(Map<String, List<Value>> byName) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String name : SearchParameters.PARAMETERS) {
            List<Value> values = byName.get(name);
            if (values == null) {
                continue;
            }
            List<String> normals = values.stream().map(Value::normal).toList();
            if (name.equals(RegisterQuery.MUNICIPIOS)) {
                out.put(name, List.copyOf(new LinkedHashSet<>(normals)));
            } else if (SearchParameters.REPEATABLE.contains(name)) {
                out.put(name, List.copyOf(new TreeSet<>(normals)));
            } else if (name.equals(SearchParameters.APENAS_TOTAL)) {
                if (normals.get(0).equals("true")) {
                    out.put(name, List.of("true"));
                }
            } else {
                out.put(name, List.of(normals.get(0)));
            }
        }
        out.putIfAbsent(RegisterQuery.LIMITE, List.of(Integer.toString(RegisterQuery.DEFAULT_LIMITE)));
        out.putIfAbsent(RegisterQuery.PAGINA, List.of(Integer.toString(RegisterQuery.DEFAULT_PAGINA)));
        return out;
    }
}
