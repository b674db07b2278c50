package dev.cadastro.http;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One HTTP response: a status, header fields and a body held in memory (the company-data answers are
 * at most a page of 200 records, a few hundred kilobytes), or, for files, a {@link Streamed} body the
 * runtime copies to the connection without holding it.
 *
 * @param streamed the body to stream instead of {@code body} (then empty), or null
 */
public record Response(int status, Headers headers, byte[] body, Streamed streamed) {
    /** The media type of every JSON answer; the charset is stated so no client has to guess. */
    public static final String JSON = "application/json; charset=utf-8";

    public Response {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status " + status + " is outside 100..599");
        }
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        if (streamed != null && body.length > 0) {
            throw new IllegalArgumentException("a response has a body in memory or a streamed one, not both");
        }
    }

    /** A response whose body is in memory. */
    public Response(int status, Headers headers, byte[] body) {
        this(status, headers, body, null);
    }

    /** A body of known length written straight to the connection, then closed (a file). */
    public interface Streamed extends AutoCloseable {
        long length();

        void writeTo(java.io.OutputStream out) throws java.io.IOException;

        @Override
        void close() throws java.io.IOException;
    }

    /** A streamed answer with the given media type. */
    public static Response stream(int status, String contentType, Streamed body) {
        return new Response(status, Headers.of("Content-Type", contentType), new byte[0], Objects.requireNonNull(body));
    }

    /** A JSON answer. */
    public static Response json(int status, byte[] json) {
        return new Response(status, Headers.of("Content-Type", JSON), json);
    }

    /** A plain body with the given media type. */
    public static Response of(int status, String contentType, byte[] body) {
        return new Response(status, Headers.of("Content-Type", contentType), body);
    }

    /** This response with more header fields; a name already present is replaced. */
    public Response withHeaders(Headers more) {
        return new Response(status, headers.with(more), body, streamed);
    }

    /** This response with one header field set. */
    public Response withHeader(String name, String value) {
        return new Response(status, headers.with(name, value), body, streamed);
    }

    /** The body as UTF-8 text, for logs and tests. */
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Response r
                && r.status == status
                && r.headers.equals(headers)
                && java.util.Arrays.equals(r.body, body)
                && Objects.equals(r.streamed, streamed);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * status + headers.hashCode()) + java.util.Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "Response[" + status + ", " + headers + ", "
                + (streamed == null ? body.length : streamed.length()) + " bytes"
                + (streamed == null ? "" : ", streamed")
                + "]";
    }
}
