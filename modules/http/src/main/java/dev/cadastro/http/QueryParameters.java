package dev.cadastro.http;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decoded query string: parameter names to their values in order of appearance, so a repeated
 * parameter ({@code ufs=SP&ufs=RJ}) keeps every value. Decoding is strict UTF-8 ({@link
 * PercentDecoding}).
 */
public final class QueryParameters {
    /** The field a badly encoded parameter name is reported under. */
    static final String NAME_FIELD = "query parameter name";

    private static final QueryParameters EMPTY = new QueryParameters(Map.of());

    private final Map<String, List<String>> values;

    private QueryParameters(Map<String, List<String>> values) {
        this.values = values;
    }

    public static QueryParameters empty() {
        return EMPTY;
    }

    /**
     * Parses a raw (still percent-encoded) query string.
     *
     * @param rawQuery the text after {@code ?}, or null
     * @param maxParameters the most name=value pairs accepted
     * @throws InvalidParameterException on a bad encoding, an empty name, or too many parameters
     */
    public static QueryParameters parse(String rawQuery, int maxParameters) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return EMPTY;
        }
        Map<String, List<String>> map = new LinkedHashMap<>();
        int count = 0;
        int start = 0;
        while (start <= rawQuery.length()) {
            int amp = rawQuery.indexOf('&', start);
            int end = amp < 0 ? rawQuery.length() : amp;
            if (end > start) {
                if (++count > maxParameters) {
                    throw InvalidParameterException.of(
                            "query", "max-parameters", Message.QUERY_MAX_PARAMETERS.with(maxParameters));
                }
                int eq = rawQuery.indexOf('=', start);
                boolean hasValue = eq >= 0 && eq < end;
                String rawName = rawQuery.substring(start, hasValue ? eq : end);
                String name = PercentDecoding.decode(NAME_FIELD, rawName, true);
                if (name.isEmpty()) {
                    throw InvalidParameterException.of(
                            "query",
                            "empty-name",
                            Message.QUERY_EMPTY_NAME.with(Texts.quote(rawQuery.substring(start, end))));
                }
                String value = hasValue ? PercentDecoding.decode(name, rawQuery.substring(eq + 1, end), true) : "";
                map.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            if (amp < 0) {
                break;
            }
            start = amp + 1;
        }
        map.replaceAll((k, v) -> List.copyOf(v));
        return new QueryParameters(Collections.unmodifiableMap(map));
    }

    /** Every parameter with its values, in order of first appearance. */
    public Map<String, List<String>> asMap() {
        return values;
    }

    public List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    public Optional<String> first(String name) {
        List<String> v = values.get(name);
        return v == null ? Optional.empty() : Optional.of(v.get(0));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
