package dev.cadastro.core.internal;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the JSON-like tree of a typed answer: keys in the order they are put, null values omitted,
 * dates as ISO strings, {@link BigDecimal} kept as it is, lists always present.
 */
public final class AnswerTree {
    private final Map<String, Object> map = new LinkedHashMap<>();

    public AnswerTree put(String key, Object value) {
        if (value == null) {
            return this;
        }
        map.put(key, value instanceof LocalDate d ? d.toString() : value);
        return this;
    }

    public AnswerTree put(String key, AnswerTree child) {
        if (child != null) {
            map.put(key, child.map);
        }
        return this;
    }

    /** Each value written as a tree, in order: the items of {@link #list}. */
    public static <T> List<Map<String, Object>> items(
            List<T> values, java.util.function.Function<T, AnswerTree> write) {
        List<Map<String, Object>> out = new java.util.ArrayList<>(values.size());
        for (T v : values) {
            out.add(write.apply(v).map());
        }
        return out;
    }

    public AnswerTree list(String key, List<Map<String, Object>> items) {
        map.put(key, items);
        return this;
    }

    public Map<String, Object> map() {
        return map;
    }
}
