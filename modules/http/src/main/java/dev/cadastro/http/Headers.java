package dev.cadastro.http;

import dev.cadastro.core.internal.Texts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An immutable multi-map of HTTP header fields whose names compare case-insensitively (RFC 9110,
 * section 5.1). The order of the values of one name is kept.
 */
public final class Headers {
    private static final Headers EMPTY = new Headers(new TreeMap<>(String.CASE_INSENSITIVE_ORDER));

    private final TreeMap<String, List<String>> fields;

    private Headers(TreeMap<String, List<String>> fields) {
        this.fields = fields;
    }

    public static Headers empty() {
        return EMPTY;
    }

    /** Headers with one value per name, in the given order of names. */
    public static Headers of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("need name/value pairs, got " + namesAndValues.length + " strings");
        }
        Builder b = builder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            b.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return b.build();
    }

    /** A copy of a map such as {@code com.sun.net.httpserver.Headers} or a servlet's header map. */
    public static Headers copyOf(Map<String, ? extends List<String>> map) {
        Builder b = builder();
        map.forEach((name, values) -> {
            if (name != null && values != null) {
                values.forEach(v -> b.add(name, v));
            }
        });
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The first value of the field, if present. */
    public Optional<String> first(String name) {
        List<String> values = fields.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** Every value of the field, in order; empty when absent. */
    public List<String> all(String name) {
        List<String> values = fields.get(name);
        return values == null ? List.of() : values;
    }

    public boolean contains(String name) {
        return fields.containsKey(name);
    }

    /** The field names, in case-insensitive order, as first seen. */
    public Iterable<String> names() {
        return Collections.unmodifiableSet(fields.keySet());
    }

    /** The number of field lines (a name repeated counts each time). */
    public int lineCount() {
        int n = 0;
        for (List<String> v : fields.values()) {
            n += v.size();
        }
        return n;
    }

    /** The size in bytes the fields take on the wire in HTTP/1.1: {@code name: value CRLF}. */
    public long wireSize() {
        long size = 0;
        for (Map.Entry<String, List<String>> e : fields.entrySet()) {
            for (String v : e.getValue()) {
                size += e.getKey().length() + 2 + v.length() + 2;
            }
        }
        return size;
    }

    /** These headers plus the other's; a name present in both keeps the values of {@code other}. */
    public Headers with(Headers other) {
        if (other.fields.isEmpty()) {
            return this;
        }
        if (fields.isEmpty()) {
            return other;
        }
        TreeMap<String, List<String>> merged = new TreeMap<>(fields);
        merged.putAll(other.fields);
        return new Headers(merged);
    }

    /** These headers with one field set to a single value, replacing earlier values. */
    public Headers with(String name, String value) {
        return with(builder().add(name, value).build());
    }

    /** Visits every field line. */
    public void forEach(java.util.function.BiConsumer<String, String> line) {
        fields.forEach((name, values) -> values.forEach(v -> line.accept(name, v)));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Headers h && h.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return fields.toString();
    }

    /** Collects fields; names are validated as HTTP tokens and values must not contain CR or LF. */
    public static final class Builder {
        private final TreeMap<String, List<String>> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

        private Builder() {}

        public Builder add(String name, String value) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (!Texts.isHttpToken(name)) {
                throw new IllegalArgumentException("header name " + quote(name) + " is not an HTTP token");
            }
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("header " + name + " value must not contain CR or LF");
            }
            fields.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            return this;
        }

        public Builder set(String name, String value) {
            fields.remove(name);
            return add(name, value);
        }

        public Headers build() {
            TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            fields.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            return new Headers(copy);
        }
    }

    private static String quote(String s) {
        return Texts.quote(s);
    }
}
