package dev.cadastro.servlet;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.http.Headers;
import dev.cadastro.http.HttpStatusException;
import dev.cadastro.http.Limits;
import dev.cadastro.http.Request;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.MappingMatch;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collections;

/**
 * One servlet request turned into a {@link Request}, with the runnable server's limits and answers: the
 * request target's length (414), the header fields' count and size (431), the declared and the read
 * body's size (413). It also keeps the 400 raised when reading the body failed (a client that went
 * away, a malformed chunk, a body shorter than its {@code Content-Length} until the idle timeout), so
 * the bridge answers it whatever the handler made of it.
 */
final class Exchange {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final int REPLACEMENT = 0xFFFD;

    private final Limits limits;
    private final Service envelope;
    private volatile HttpStatusException bodyFailure;

    Exchange(Limits limits, Service envelope) {
        this.limits = limits;
        this.envelope = envelope;
    }

    /** The 400 raised when reading the body failed, or null when it did not. */
    HttpStatusException bodyFailure() {
        return bodyFailure;
    }

    Request toRequest(HttpServletRequest req, String id, InetSocketAddress remote) throws IOException {
        String uri = rawBytesEncoded(req.getRequestURI() == null ? "" : req.getRequestURI());
        String query = req.getQueryString() == null ? null : rawBytesEncoded(req.getQueryString());
        int targetLength = uri.length() + (query == null ? 0 : query.length() + 1);
        Headers headers = headers(req);
        limits.checkHead(targetLength, headers);
        long declared = req.getContentLengthLong();
        if (declared > limits.maxBodyBytes()) {
            throw limits.bodyTooLarge(Message.BODY_DECLARES.with(declared));
        }
        String rawPath = belowMount(req, uri);
        if (rawPath == null) {
            throw notMounted(req.getMethod(), uri);
        }
        return Request.of(
                req.getMethod(),
                rawPath,
                query,
                headers,
                limits.boundedBody(req.getInputStream(), this::bodyCutShort),
                id,
                remote,
                limits);
    }

    /**
     * The path below the servlet's mount point, still encoded: the context path is removed, and so is
     * the servlet path of a prefix mapping ({@code /dados/*}); with {@code /*} or any other mapping the
     * path below the context. The servlet path is compared in its decoded form, as the container gives
     * it, so a mapping whose literal needs no encoding (every mapping of docs/embedding.md) is found.
     * Null when the raw target does not start with the mount point followed by {@code /} or nothing: a
     * target the container mapped here only once decoded or normalized ({@code /%64ados/v1/a}, {@code
     * /ligacoes/../dados/v1/a}, {@code /dados;x=1/v1/a}), which the bridge answers with 404.
     */
    static String belowMount(HttpServletRequest req, String uri) {
        String prefix = req.getContextPath() == null ? "" : req.getContextPath();
        HttpServletMapping mapping = req.getHttpServletMapping();
        if (mapping != null && mapping.getMappingMatch() == MappingMatch.PATH && req.getServletPath() != null) {
            prefix = prefix + req.getServletPath();
        }
        if (!uri.startsWith(prefix)) {
            return null;
        }
        String path = uri.substring(prefix.length());
        if (path.isEmpty()) {
            return "/";
        }
        return path.charAt(0) == '/' ? path : null;
    }

    /** The router's 404 for a target outside the mount point, in the envelope's form. */
    private HttpStatusException notMounted(String method, String uri) {
        String target = Texts.quote(uri);
        return switch (envelope) {
            case CALL_RECORDS ->
                new HttpStatusException(
                        404,
                        ErrorCode.ROTA_INEXISTENTE,
                        Message.NO_ROUTE.with(method + " " + target),
                        null,
                        Headers.empty());
            case COMPANY_DATA ->
                new HttpStatusException(
                        404,
                        ErrorCode.NAO_ENCONTRADO,
                        Message.NO_RESOURCE.with(target),
                        Message.PATH_IS.with(uri),
                        Headers.empty());
        };
    }

    /** Every header field line of the request, in the order the container gives them. */
    private static Headers headers(HttpServletRequest req) {
        Headers.Builder b = Headers.builder();
        for (String name : Collections.list(req.getHeaderNames())) {
            for (String value : Collections.list(req.getHeaders(name))) {
                b.add(name, value);
            }
        }
        return b.build();
    }

    /**
     * The target as the client sent it: a container that hands over a character above 0x7F (a raw
     * UTF-8 byte sequence in the request line, as curl sends {@code São}) gets it percent-encoded back
     * to its UTF-8 bytes, which {@link dev.cadastro.http.PercentDecoding} then decodes strictly.
     *
     * <p>The servlet API gives no raw bytes: a container decodes the request line's raw bytes as UTF-8
     * and replaces a malformed sequence with U+FFFD (Jetty does; its own {@code HttpURI} holds the
     * replaced text too). A raw U+FFFD is therefore taken for the malformed input it almost always
     * stands for and encoded as {@code %FF}, a byte UTF-8 never has, so that strict decoding refuses
     * it with 422, as strict decoding refuses the raw bytes. The cost: a client that sends U+FFFD
     * itself as raw bytes ({@code EF BF BD}) is refused too; percent-encoded ({@code %EF%BF%BD}) it
     * is accepted.
     */
    static String rawBytesEncoded(String raw) {
        int i = 0;
        while (i < raw.length() && raw.charAt(i) < 0x80) {
            i++;
        }
        if (i == raw.length()) {
            return raw;
        }
        StringBuilder sb = new StringBuilder(raw.length() + 16).append(raw, 0, i);
        while (i < raw.length()) {
            int cp = raw.codePointAt(i);
            i += Character.charCount(cp);
            if (cp < 0x80) {
                sb.append((char) cp);
                continue;
            }
            if (cp == REPLACEMENT) {
                sb.append("%FF");
                continue;
            }
            for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                sb.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
            }
        }
        return sb.toString();
    }

    /**
     * A failed read of the body (the container fails it before the body's end: the client went away,
     * sent a malformed chunk, or sent less than it declared and then nothing until the idle timeout)
     * is the 400, or the 408 when the container gave up waiting for it, recorded for the servlet to
     * answer, so no 500 and no error log.
     */
    private void bodyCutShort(IOException failure, long bytesRead) {
        HttpStatusException refused = timedOut(failure)
                ? new HttpStatusException(
                        408,
                        ErrorCode.PARAMETRO_INVALIDO,
                        Message.REQUEST_TIMEOUT.with(Message.BODY_CUT_SHORT.with(bytesRead)),
                        Message.FIELD_RULE.with("body", "timeout"),
                        Headers.empty())
                : new HttpStatusException(
                        400,
                        ErrorCode.PARAMETRO_INVALIDO,
                        Message.BODY_CUT_SHORT.with(bytesRead),
                        Message.FIELD_RULE.with("body", "complete"),
                        Headers.empty());
        if (bodyFailure == null) {
            bodyFailure = refused;
        }
        throw refused;
    }

    private static boolean timedOut(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException || t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
