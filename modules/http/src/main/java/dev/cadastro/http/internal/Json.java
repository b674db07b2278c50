package dev.cadastro.http.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * JSON output through jackson-core's streaming {@link JsonGenerator}: no data binding, no reflection,
 * UTF-8 bytes straight into the response buffer. The factory is thread-safe and shared.
 */
public final class Json {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.STRICT_DUPLICATE_DETECTION)
            // capital_social 1500000.00, never 1.5E+6
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private Json() {}

    /** Writes one JSON document. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    /**
     * A JSON document shipped as a resource in the package of {@code anchor} (a service's OpenAPI
     * document), as its bytes.
     */
    public static byte[] resource(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the module lacks its resource "
                        + anchor.getPackageName().replace('.', '/') + "/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The UTF-8 bytes of the document the body writes. */
    public static byte[] bytes(Body body) {
        return bytes(256, body);
    }

    /** The UTF-8 bytes of the document the body writes, with a buffer sized for the expected output. */
    public static byte[] bytes(int sizeHint, Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON into memory failed", e);
        }
        return out.toByteArray();
    }

    /** The shared factory, for readers (request bodies) and tests. */
    public static JsonFactory factory() {
        return FACTORY;
    }
}
