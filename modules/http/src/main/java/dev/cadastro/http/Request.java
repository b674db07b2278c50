package dev.cadastro.http;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP request as a handler sees it, independent of the server that received it.
 *
 * <p>The runtime builds it once per request: the method, the raw path (still percent-encoded, so an
 * encoded {@code /} inside a segment such as {@code 12.345.678%2F0001-95} stays one segment), the raw
 * query, the headers, the body (bounded by {@link Limits#maxBodyBytes()}) and an id that the response
 * and the logs both carry. The query is decoded on first use, strictly ({@link PercentDecoding}), so
 * a bad encoding surfaces as a {@code PARAMETRO_INVALIDO} inside the handler's error handling. The
 * {@link Router} adds the path parameters of the matched template.
 */
public final class Request {
    private final String method;
    private final String rawPath;
    private final String rawQuery;
    private final Headers headers;
    private final InputStream body;
    private final String requestId;
    private final InetSocketAddress remote;
    private final Limits limits;
    private final Map<String, String> pathParameters;
    private final RequestFacts facts;
    private volatile QueryParameters query;
    private volatile Locale locale;

    private Request(
            String method,
            String rawPath,
            String rawQuery,
            Headers headers,
            InputStream body,
            String requestId,
            InetSocketAddress remote,
            Limits limits,
            Map<String, String> pathParameters,
            RequestFacts facts) {
        this.method = Objects.requireNonNull(method, "method");
        this.rawPath = Objects.requireNonNull(rawPath, "rawPath");
        this.rawQuery = rawQuery;
        this.headers = Objects.requireNonNull(headers, "headers");
        this.body = body == null ? InputStream.nullInputStream() : body;
        this.requestId = Objects.requireNonNull(requestId, "requestId");
        this.remote = remote;
        this.limits = Objects.requireNonNull(limits, "limits");
        this.pathParameters = Map.copyOf(pathParameters);
        this.facts = facts;
    }

    /**
     * A request as a runtime or a host bridge receives it.
     *
     * @param rawPath the path, still percent-encoded, starting with {@code /}
     * @param rawQuery the text after {@code ?}, still encoded, or null
     * @param body the body, already bounded by the runtime, or null for none
     */
    public static Request of(
            String method,
            String rawPath,
            String rawQuery,
            Headers headers,
            InputStream body,
            String requestId,
            InetSocketAddress remote,
            Limits limits) {
        return new Request(
                method, rawPath, rawQuery, headers, body, requestId, remote, limits, Map.of(), new RequestFacts());
    }

    /** This request with the parameters of a matched path template. */
    public Request withPathParameters(Map<String, String> parameters) {
        Request r = new Request(method, rawPath, rawQuery, headers, body, requestId, remote, limits, parameters, facts);
        r.query = query;
        return r;
    }

    /** The method, upper case as sent ({@code GET}). */
    public String method() {
        return method;
    }

    /** The path, still percent-encoded. */
    public String rawPath() {
        return rawPath;
    }

    /** The query string after {@code ?}, still percent-encoded; empty when absent. */
    public String rawQuery() {
        return rawQuery == null ? "" : rawQuery;
    }

    /**
     * The decoded query parameters.
     *
     * @throws dev.cadastro.core.error.InvalidParameterException on a bad encoding or too many parameters
     */
    public QueryParameters query() {
        QueryParameters q = query;
        if (q == null) {
            q = QueryParameters.parse(rawQuery, limits.maxQueryParameters());
            query = q;
        }
        return q;
    }

    /** A decoded path parameter of the matched template, such as {@code cnpj} of {@code /v1/empresas/{cnpj}}. */
    public Optional<String> pathParameter(String name) {
        return Optional.ofNullable(pathParameters.get(name));
    }

    public Headers headers() {
        return headers;
    }

    /** The body; reading beyond {@link Limits#maxBodyBytes()} fails with a 413. */
    public InputStream body() {
        return body;
    }

    /**
     * The language of this request's messages, from its {@code Accept-Language}: English or Brazilian
     * Portuguese (the default); see {@link AcceptLanguage}.
     */
    public Locale locale() {
        Locale l = locale;
        if (l == null) {
            l = AcceptLanguage.resolve(headers.all(AcceptLanguage.HEADER));
            locale = l;
        }
        return l;
    }

    /** The id of this request, echoed in {@code X-Request-Id} and in the logs. */
    public String requestId() {
        return requestId;
    }

    /** The peer address, when the runtime knows it. */
    public Optional<InetSocketAddress> remote() {
        return Optional.ofNullable(remote);
    }

    public Limits limits() {
        return limits;
    }

    /** The route and account learned while answering, shared with the copies of this request. */
    public RequestFacts facts() {
        return facts;
    }

    @Override
    public String toString() {
        return method + " " + rawPath + (rawQuery == null ? "" : "?" + rawQuery) + " [" + requestId + "]";
    }
}
