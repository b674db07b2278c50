package dev.cadastro.http;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;

/**
 * Request size limits the adapter enforces before a handler runs, each answered with the envelope:
 * a request target longer than {@link #maxUriLength()} gets 414, header fields beyond {@link
 * #maxHeaderBytes()} or {@link #maxHeaderCount()} get 431, a body beyond {@link #maxBodyBytes()} gets
 * 413, more than {@link #maxQueryParameters()} query parameters get 422. Immutable; validated when
 * built.
 *
 * @param maxUriLength the longest request target (path and query, still encoded) accepted, in characters
 * @param maxHeaderBytes the most bytes of header fields accepted, counted as {@code name: value CRLF}
 * @param maxHeaderCount the most header field lines accepted
 * @param maxBodyBytes the largest request body accepted, in bytes
 * @param maxQueryParameters the most name=value pairs accepted in the query string
 */
public record Limits(
        int maxUriLength, int maxHeaderBytes, int maxHeaderCount, long maxBodyBytes, int maxQueryParameters) {
    private static final Limits DEFAULTS = builder().build();

    /** Every limit must be positive, and the URI limit at least 256. */
    public Limits {
        if (maxUriLength < 256) {
            throw new IllegalArgumentException("maxUriLength " + maxUriLength + " is below the minimum 256");
        }
        if (maxHeaderBytes < 1024) {
            throw new IllegalArgumentException("maxHeaderBytes " + maxHeaderBytes + " is below the minimum 1024");
        }
        if (maxHeaderCount < 8) {
            throw new IllegalArgumentException("maxHeaderCount " + maxHeaderCount + " is below the minimum 8");
        }
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes " + maxBodyBytes + " must not be negative");
        }
        if (maxQueryParameters < 1) {
            throw new IllegalArgumentException("maxQueryParameters " + maxQueryParameters + " must be at least 1");
        }
    }

    /**
     * Checks a request's head against these limits, as every runtime does before a handler runs: a
     * target of {@code targetLength} characters (path and query, still encoded) beyond {@link
     * #maxUriLength()} is a 414, header fields beyond {@link #maxHeaderCount()} or {@link
     * #maxHeaderBytes()} a 431, each in the envelope with its field and rule.
     */
    public void checkHead(int targetLength, Headers headers) {
        if (targetLength > maxUriLength) {
            throw refused(
                    414,
                    Message.TARGET_TOO_LONG.with(targetLength, maxUriLength),
                    Message.FIELD_RULE.with("uri", "max-length"));
        }
        if (headers.lineCount() > maxHeaderCount) {
            throw refused(
                    431,
                    Message.TOO_MANY_HEADERS.with(headers.lineCount(), maxHeaderCount),
                    Message.FIELD_RULE.with("headers", "max-count"));
        }
        long headerBytes = headers.wireSize();
        if (headerBytes > maxHeaderBytes) {
            throw refused(
                    431,
                    Message.HEADERS_TOO_LARGE.with(headerBytes, maxHeaderBytes),
                    Message.FIELD_RULE.with("headers", "max-bytes"));
        }
    }

    /** The 413 for a body that {@code what} (declares or has more than the maximum). */
    public HttpStatusException bodyTooLarge(LocalizedText what) {
        return refused(
                413, Message.BODY_TOO_LARGE.with(what, maxBodyBytes), Message.FIELD_RULE.with("body", "max-bytes"));
    }

    /**
     * What a runtime makes of a body read that failed after {@code bytesRead} bytes: it may throw
     * something else in its place (the servlet bridge throws its 400); when it returns, the read's
     * own {@link java.io.IOException} is thrown.
     */
    @FunctionalInterface
    public interface ReadFailure {
        void failed(java.io.IOException failure, long bytesRead) throws java.io.IOException;
    }

    /** {@code in} read through these limits: a 413 once more than {@link #maxBodyBytes()} bytes are read. */
    public java.io.InputStream boundedBody(java.io.InputStream in) {
        return boundedBody(in, (failure, bytesRead) -> {});
    }

    /** {@link #boundedBody(java.io.InputStream)}, a failed read handed to {@code onFailure} first. */
    public java.io.InputStream boundedBody(java.io.InputStream in, ReadFailure onFailure) {
        return new BoundedBody(in, this, onFailure);
    }

    /** How much of a refused body a runtime reads and drops around its 413 (as Tomcat's maxSwallowSize). */
    public static final int SWALLOW_BYTES = 2 * 1024 * 1024;

    /**
     * Reads and drops up to {@link #SWALLOW_BYTES} of what is left of a refused body, for a runtime to call
     * before the connection that carried a 413 closes, once the answer is on the wire (both runtimes). A connection closed with request bytes still unread is
     * reset rather than closed, and a reset makes the client's system drop the answer it had received: a
     * client that writes its whole body after the head (most do) would see the connection fail instead of
     * the 413. A longer body is still cut by the close that follows the 413.
     */
    public static void swallow(java.io.InputStream in) throws java.io.IOException {
        byte[] buf = new byte[16 * 1024];
        long left = SWALLOW_BYTES;
        int n;
        while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
            left -= n;
        }
    }

    private static HttpStatusException refused(int status, LocalizedText message, LocalizedText detail) {
        return new HttpStatusException(status, ErrorCode.PARAMETRO_INVALIDO, message, detail, Headers.empty());
    }

    /** 8 KiB URIs, 16 KiB and 64 fields of headers, 1 MiB bodies, 100 query parameters. */
    public static Limits defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .maxUriLength(maxUriLength)
                .maxHeaderBytes(maxHeaderBytes)
                .maxHeaderCount(maxHeaderCount)
                .maxBodyBytes(maxBodyBytes)
                .maxQueryParameters(maxQueryParameters);
    }

    public static final class Builder {
        private int maxUriLength = 8 * 1024;
        private int maxHeaderBytes = 16 * 1024;
        private int maxHeaderCount = 64;
        private long maxBodyBytes = 1024 * 1024;
        private int maxQueryParameters = 100;

        private Builder() {}

        public Builder maxUriLength(int chars) {
            this.maxUriLength = chars;
            return this;
        }

        public Builder maxHeaderBytes(int bytes) {
            this.maxHeaderBytes = bytes;
            return this;
        }

        public Builder maxHeaderCount(int lines) {
            this.maxHeaderCount = lines;
            return this;
        }

        public Builder maxBodyBytes(long bytes) {
            this.maxBodyBytes = bytes;
            return this;
        }

        public Builder maxQueryParameters(int count) {
            this.maxQueryParameters = count;
            return this;
        }

        /** Validates and builds; every limit must be positive, and the URI limit at least 256. */
        public Limits build() {
            return new Limits(maxUriLength, maxHeaderBytes, maxHeaderCount, maxBodyBytes, maxQueryParameters);
        }
    }
}
