package dev.cadastro.http;

import dev.cadastro.core.error.Service;
import dev.cadastro.core.telemetry.Telemetry;
import java.util.Objects;

/**
 * Measures every request a handler answers and reports it to the {@link RequestTelemetry} (count and
 * latency per service, method, route template and status), its rate-limit refusals to the core's {@link
 * Telemetry} port, and the request to the {@link AccessLog}. It wraps the handler a runtime mounts (the router behind {@link Health}), so the Jetty
 * runtime and any host bridge report alike: a host mounts {@code Observed.around(...)} and gets the same
 * metrics and log lines.
 *
 * <p>Labels come from {@link RequestFacts}, filled by the router (the template) and the authentication
 * (the account): never from the path or the query. A request no route matched is reported as {@value
 * #NO_ROUTE}. The time runs from the call of the handler to its answer; the copy of a streamed file is
 * outside it. What a runtime refuses before any handler runs (414, 431, 413 on a declared length, a
 * head the connection guard refuses) is reported through {@link #refusals}, which the runtime is
 * given: route {@value #NO_ROUTE}, the method as a label, no account.
 */
public final class Observed implements Handler {
    /** The route label of a request no template matched. */
    public static final String NO_ROUTE = "sem_rota";

    private final Handler next;
    private final String service;
    private final Telemetry telemetry;
    private final RequestTelemetry requests;
    private final AccessLog accessLog;

    private Observed(
            Handler next, Service service, Telemetry telemetry, RequestTelemetry requests, AccessLog accessLog) {
        this.next = Objects.requireNonNull(next, "next");
        this.service = label(Objects.requireNonNull(service, "service"));
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.accessLog = Objects.requireNonNull(accessLog, "accessLog");
    }

    /**
     * {@code next}, observed; {@code next} itself when there is nothing to report to (no telemetry of
     * either kind and no access log), so turning them off costs nothing.
     *
     * @param telemetry the domain's events: here, a request refused by a rate limit
     * @param requests each request answered, with its method, route and status
     */
    public static Handler around(
            Handler next, Service service, Telemetry telemetry, RequestTelemetry requests, AccessLog accessLog) {
        if (telemetry == Telemetry.NONE && requests == RequestTelemetry.NONE && !accessLog.enabled()) {
            return Objects.requireNonNull(next, "next");
        }
        return new Observed(next, service, telemetry, requests, accessLog);
    }

    /**
     * What a runtime reports of an answer it gave itself, before any handler ran: counted and logged as
     * any request, with the route {@value #NO_ROUTE}, so refused requests are seen too.
     */
    @FunctionalInterface
    public interface Refusals {
        /** Reports nothing. */
        Refusals NONE = (method, status, requestId, nanos) -> {};

        /**
         * @param method the request's method as sent, {@code null} when the request line was unreadable
         *     (reported as a label: {@code OTHER} unless one of {@link RequestTelemetry#METHODS})
         * @param nanos from the start of the runtime's work on the request to its answer
         */
        void refused(String method, int status, String requestId, long nanos);
    }

    /**
     * The refusals of a runtime serving {@code service}, reported like {@link #around}'s requests; {@link
     * Refusals#NONE} when there is nothing to report to.
     */
    public static Refusals refusals(Service service, RequestTelemetry requests, AccessLog accessLog) {
        String label = label(Objects.requireNonNull(service, "service"));
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(accessLog, "accessLog");
        if (requests == RequestTelemetry.NONE && !accessLog.enabled()) {
            return Refusals.NONE;
        }
        return (method, status, requestId, nanos) -> {
            String methodLabel = RequestTelemetry.methodLabel(method == null ? "" : method);
            try {
                requests.requestCompleted(label, methodLabel, NO_ROUTE, status, nanos);
            } catch (RuntimeException e) {
                // Monitoring never fails an answer.
            }
            accessLog.log(label, methodLabel, NO_ROUTE, status, nanos, requestId, new RequestFacts());
        };
    }

    /** The service's label in metrics and log lines. */
    public static String label(Service service) {
        return switch (service) {
            case COMPANY_DATA -> "company-data";
            case CALL_RECORDS -> "call-records";
        };
    }

    @Override
    public Response handle(Request request) throws Exception {
        long start = System.nanoTime();
        Response response;
        try {
            response = next.handle(request);
        } catch (Exception | Error e) {
            // The runtime renders it; report the status it will most likely send.
            report(request, e instanceof HttpStatusException h ? h.status() : 500, System.nanoTime() - start);
            throw e;
        }
        report(request, response.status(), System.nanoTime() - start);
        return response;
    }

    private void report(Request request, int status, long nanos) {
        RequestFacts facts = request.facts();
        String route = facts.route();
        if (route == null) {
            route = NO_ROUTE;
        }
        String method = RequestTelemetry.methodLabel(request.method());
        try {
            requests.requestCompleted(service, method, route, status, nanos);
            String refused = facts.refusedBy();
            if (refused != null) {
                telemetry.rateLimitRefused(service, refused);
            }
        } catch (RuntimeException e) {
            // Monitoring never fails a request.
        }
        accessLog.log(service, method, route, status, nanos, request.requestId(), facts);
    }
}
