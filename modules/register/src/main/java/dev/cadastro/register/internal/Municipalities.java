package dev.cadastro.register.internal;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.RegisterQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * What a {@code municipios} value of {@code GET /empresas} names, as Receita municipality codes (the
 * numbers the index keys on, {@link Schema#municipioCode}): four digits are a Receita code, seven
 * digits an IBGE code, anything else a name compared case- and accent-insensitively and narrowed to
 * the query's {@code ufs}. Unknown values and a name shared by several states without {@code ufs} are
 * {@code PARAMETRO_INVALIDO}. The register resolves with it; the benchmark peers use it to ask the very
 * same question (they run on the class path; the package stays unexported and this is no API).
 */
public final class Municipalities {
    private final Lookups lookups;
    private final IntPredicate inIndex;
    private final Map<String, List<String>> byName = new HashMap<>();
    private final Map<String, String> receitaByIbge = new HashMap<>();

    /**
     * @param lookups the generation's tables (names, IBGE codes, states)
     * @param inIndex whether a Receita code occurs in the index: a four-digit code the tables lack is
     *     still accepted when the index has it
     */
    public Municipalities(Lookups lookups, IntPredicate inIndex) {
        this.lookups = Objects.requireNonNull(lookups, "lookups");
        this.inIndex = Objects.requireNonNull(inIndex, "inIndex");
        for (Map.Entry<String, String> e : lookups.municipios().entrySet()) {
            byName.computeIfAbsent(RegisterQuery.normalizeText(e.getValue()), k -> new ArrayList<>())
                    .add(e.getKey());
        }
        for (Map.Entry<String, String> e : lookups.municipiosIbge().entrySet()) {
            receitaByIbge.put(e.getValue(), e.getKey());
        }
    }

    /**
     * @param value one {@code municipios} value as sent
     * @param ufs the query's {@code ufs} (empty when none)
     * @throws InvalidParameterException unknown or ambiguous value
     */
    public List<Integer> resolve(String value, Set<String> ufs) {
        String v = value.strip();
        boolean digits = !v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9');
        if (digits && v.length() == 4) {
            int code = Schema.municipioCode(v);
            if (!lookups.municipios().containsKey(v) && !inIndex.test(code)) {
                throw InvalidParameterException.of(
                        RegisterQuery.MUNICIPIOS,
                        "unknown-municipality",
                        Message.MUNICIPALITY_RECEITA.with(quote(value)));
            }
            return List.of(code);
        }
        if (digits && v.length() == 7) {
            String receita = receitaByIbge.get(v);
            if (receita == null) {
                throw InvalidParameterException.of(
                        RegisterQuery.MUNICIPIOS, "unknown-municipality", Message.MUNICIPALITY_IBGE.with(quote(value)));
            }
            return List.of(Schema.municipioCode(receita));
        }
        List<String> named = byName.get(RegisterQuery.normalizeText(v));
        if (named == null || named.isEmpty()) {
            throw InvalidParameterException.of(
                    RegisterQuery.MUNICIPIOS, "unknown-municipality", Message.MUNICIPALITY_UNKNOWN.with(quote(value)));
        }
        List<Integer> out = new ArrayList<>();
        TreeMap<String, String> ufOf = new TreeMap<>();
        for (String code : named) {
            String uf = lookups.municipiosUf().get(code);
            ufOf.put(uf == null ? "?" : uf, code);
            if (ufs.isEmpty() || uf == null || ufs.contains(uf)) {
                out.add(Schema.municipioCode(code));
            }
        }
        if (ufs.isEmpty() && out.size() > 1) {
            throw InvalidParameterException.of(
                    RegisterQuery.MUNICIPIOS,
                    "ambiguous-municipality",
                    Message.MUNICIPALITY_AMBIGUOUS.with(quote(value), out.size(), String.join(", ", ufOf.keySet())));
        }
        return out;
    }

    private static String quote(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
    }
}
