package dev.cadastro.http.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Writes a JSON-like tree, as the provider codecs build them, through the streaming generator: maps
 * with string keys as objects (in their iteration order), lists as arrays, strings, booleans, numbers
 * ({@link BigDecimal} in plain notation, so {@code 1500.00} keeps its scale) and {@code null}. Anything
 * else is a programming error and fails loudly rather than being written as {@code toString()}.
 */
public final class JsonTree {
    private JsonTree() {}

    /** Writes one value and everything under it. */
    public static void write(JsonGenerator g, Object value) throws IOException {
        switch (value) {
            case null -> g.writeNull();
            case Map<?, ?> map -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!(e.getKey() instanceof String name)) {
                        throw new IllegalArgumentException("a JSON object key must be a string, not " + e.getKey());
                    }
                    g.writeFieldName(name);
                    write(g, e.getValue());
                }
                g.writeEndObject();
            }
            case List<?> list -> {
                g.writeStartArray();
                for (Object element : list) {
                    write(g, element);
                }
                g.writeEndArray();
            }
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case BigDecimal d -> g.writeNumber(d);
            case BigInteger i -> g.writeNumber(i);
            case Long l -> g.writeNumber(l);
            case Integer i -> g.writeNumber(i);
            case Short s -> g.writeNumber(s);
            case Byte b -> g.writeNumber(b);
            case Double d when Double.isFinite(d) -> g.writeNumber(d);
            case Float f when Float.isFinite(f) -> g.writeNumber(f);
            default ->
                throw new IllegalArgumentException("a JSON tree holds maps, lists, strings, booleans, finite numbers"
                        + " and null, not " + value.getClass().getName());
        }
    }
}
