package dev.cadastro.http.internal;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request body read as a small JSON tree through jackson-core's streaming parser: objects as
 * ordered maps (a duplicate name is an error), arrays as lists, strings, booleans, integers as {@link
 * BigInteger}, other numbers as {@link BigDecimal}, and {@code null} as {@link #NULL}. Anything that is
 * not one JSON object is {@code PARAMETRO_INVALIDO} on the field {@code body}.
 */
public final class JsonBody {
    /** JSON {@code null}. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private static final int MAX_DEPTH = 16;

    private JsonBody() {}

    /**
     * Reads one JSON object and nothing after it. A value beyond jackson's read constraints (a number of
     * more than 1,000 digits, say) is {@code PARAMETRO_INVALIDO} naming the field that holds it, never
     * an internal error.
     */
    public static Map<String, Object> object(InputStream in) {
        try (JsonParser p = Json.factory().createParser(in)) {
            try {
                return object(p);
            } catch (StreamConstraintsException e) {
                throw InvalidParameterException.of(
                        field(p), "max-length", Message.BODY_VALUE_TOO_LONG.with(field(p), e.getOriginalMessage()));
            }
        } catch (JsonParseException e) {
            throw InvalidParameterException.of(
                    "body",
                    "json",
                    Message.BODY_NOT_JSON.with(
                            e.getLocation().getLineNr(), e.getLocation().getColumnNr()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("reading the request body failed", e);
        }
    }

    /** The field the parser stands in, as a dotted path ({@code filtros.capital_minimo}); {@code body} at the top. */
    private static String field(JsonParser p) {
        String pointer = p.getParsingContext().pathAsPointer().toString();
        return pointer.isEmpty() ? "body" : pointer.substring(1).replace('/', '.');
    }

    private static Map<String, Object> object(JsonParser p) throws IOException {
        p.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw InvalidParameterException.of("body", "json", Message.BODY_NOT_OBJECT.with());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) value(p, 0);
        if (p.nextToken() != null) {
            throw InvalidParameterException.of("body", "json", Message.BODY_TRAILING.with());
        }
        return object;
    }

    static Object value(JsonParser p, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw InvalidParameterException.of("body", "json", Message.BODY_TOO_DEEP.with(MAX_DEPTH));
        }
        JsonToken t = p.currentToken();
        return switch (t) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() != JsonToken.END_OBJECT) {
                    String name = p.currentName();
                    p.nextToken();
                    map.put(name, value(p, depth + 1));
                }
                yield map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(value(p, depth + 1));
                }
                yield list;
            }
            case VALUE_STRING -> p.getText();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NUMBER_INT -> p.getBigIntegerValue();
            case VALUE_NUMBER_FLOAT -> p.getDecimalValue();
            case VALUE_NULL -> NULL;
            default -> throw new JsonParseException(p, "unexpected " + t);
        };
    }
}
