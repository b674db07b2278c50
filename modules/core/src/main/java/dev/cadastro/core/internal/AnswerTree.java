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

    public AnswerTree list(String key, List<Map<String, Object>> items) {
        map.put(key, items);
        return this;
    }

    public Map<String, Object> map() {
        return map;
    }
}
