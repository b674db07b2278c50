package dev.cadastro.http;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One HTTP response: a status, header fields and a body held in memory (the company-data answers are
 * at most a page of 200 records, a few hundred kilobytes).
 */
public record Response(int status, Headers headers, byte[] body) {
    /** The media type of every JSON answer; the charset is stated so no client has to guess. */
    public static final String JSON = "application/json; charset=utf-8";

    public Response {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status " + status + " is outside 100..599");
        }
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
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
        return new Response(status, headers.with(more), body);
    }

    /** This response with one header field set. */
    public Response withHeader(String name, String value) {
        return new Response(status, headers.with(name, value), body);
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
                && java.util.Arrays.equals(r.body, body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * status + headers.hashCode()) + java.util.Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "Response[" + status + ", " + headers + ", " + body.length + " bytes]";
    }
}
