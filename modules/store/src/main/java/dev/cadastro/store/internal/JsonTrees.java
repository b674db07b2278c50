package dev.cadastro.store.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text of the core's answer trees ({@code Map<String, ?>}, {@code List<?>}, {@code String},
 * {@code Number}, {@code Boolean}, null) for {@code jsonb} columns, on jackson-core's streaming API.
 * Numbers read back as {@code Integer} or {@code Long} when integral and {@code BigDecimal} otherwise,
 * so amounts keep their scale.
 */
final class JsonTrees {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonTrees() {}

    static String write(Map<String, ?> tree) {
        StringWriter out = new StringWriter(1024);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            value(g, tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> read(String json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            Object tree = value(p, p.nextToken());
            if (!(tree instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("stored JSON is not an object");
            }
            return (Map<String, Object>) map;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void value(JsonGenerator g, Object value) throws IOException {
        switch (value) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case BigDecimal d -> g.writeNumber(d);
            case Integer i -> g.writeNumber(i);
            case Long l -> g.writeNumber(l);
            case Number n -> g.writeNumber(new BigDecimal(n.toString()));
            case Map<?, ?> map -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    g.writeFieldName(String.valueOf(e.getKey()));
                    value(g, e.getValue());
                }
                g.writeEndObject();
            }
            case List<?> list -> {
                g.writeStartArray();
                for (Object element : list) {
                    value(g, element);
                }
                g.writeEndArray();
            }
            default -> g.writeString(value.toString());
        }
    }

    private static Object value(JsonParser p, JsonToken token) throws IOException {
        return switch (token) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    String name = p.currentName();
                    map.put(name, value(p, p.nextToken()));
                }
                yield map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    list.add(value(p, t));
                }
                yield list;
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT ->
                p.getNumberType() == JsonParser.NumberType.INT ? p.getIntValue() : p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDecimalValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IllegalArgumentException("unexpected JSON token " + token);
        };
    }
}
