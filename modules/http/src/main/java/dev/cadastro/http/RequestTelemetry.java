package dev.cadastro.http;

import java.util.Set;

/**
 * Where {@link Observed} reports each request answered: the edge's own event, with the HTTP method and
 * status the core never sees (ADR 0043). The core's {@link dev.cadastro.core.telemetry.Telemetry} port
 * carries the domain's events (credits charged, a request refused by a limit, a delivery's outcome).
 * The server hands the Prometheus telemetry's {@code requestCompleted} here, so the metrics module
 * needs no HTTP module.
 *
 * <p>Called on the request's thread: an implementation must be cheap and thread-safe and must never
 * throw. Labels are closed sets: a route is the template the router matched ({@code
 * /v1/empresas/{cnpj}}), never the path a client sent, since paths carry CNPJs and query strings carry
 * CPFs and phones.
 */
@FunctionalInterface
public interface RequestTelemetry {
    /** Reports nothing. */
    RequestTelemetry NONE = (service, method, route, status, nanos) -> {};

    /** The methods a request label keeps; any other method is counted as {@code OTHER}. */
    Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    /**
     * One request answered.
     *
     * @param service {@code company-data} or {@code call-records}
     * @param method the HTTP method, one of {@link #METHODS} or {@code OTHER}
     * @param route the matched template, or a fixed word when none matched ({@code sem_rota})
     * @param nanos from the handler's start to its answer (the body of a streamed file not included)
     */
    void requestCompleted(String service, String method, String route, int status, long nanos);

    /** The method as a label: itself when in {@link #METHODS}, otherwise {@code OTHER}. */
    static String methodLabel(String method) {
        return METHODS.contains(method) ? method : "OTHER";
    }
}
