package dev.cadastro.http;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.internal.Texts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Routes requests by method and path template ({@code /v1/empresas/{cnpj}}) to handlers, and is
 * itself the {@link Handler} a runtime mounts. A {@code HEAD} request runs the {@code GET} route of
 * its path; the runtime sends the same status and headers without the body. A GET route that charges
 * ({@link Builder#getCharged}) does not answer {@code HEAD} (405, {@code Allow: GET}): running it would
 * charge for a body the client never receives.
 *
 * <p>Templates match raw (still encoded) path segments, so an encoded slash stays inside its segment;
 * a path parameter is then decoded strictly (a bad encoding is 422, except on the call-records
 * service, whose handler finds the parameter absent). Literal segments win over parameters. A path no template
 * matches answers 404; a path that matches with another method answers 405 with {@code Allow} (the
 * call-records service answers both with its own 404 {@code rota_inexistente}, as its contract says).
 * Every answer, errors included, carries {@code X-Request-Id}; a handler's exception becomes its
 * envelope through {@link ErrorResponses}.
 */
public final class Router implements Handler {
    private final Service envelope;
    private final List<Route> routes;

    private Router(Service envelope, List<Route> routes) {
        this.envelope = envelope;
        this.routes = List.copyOf(routes);
    }

    /** A router answering with the envelope of the given service. */
    public static Builder builder(Service envelope) {
        return new Builder(envelope);
    }

    /** The service whose envelope this router's errors use. */
    public Service envelope() {
        return envelope;
    }

    @Override
    public Response handle(Request request) {
        Response response;
        try {
            response = dispatch(request);
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError vme && !(t instanceof StackOverflowError)) {
                throw vme;
            }
            response = ErrorResponses.render(envelope, t, request.requestId(), request.locale());
        }
        return response.headers().contains(ErrorResponses.REQUEST_ID)
                ? response
                : response.withHeader(ErrorResponses.REQUEST_ID, request.requestId());
    }

    private Response dispatch(Request request) throws Exception {
        String[] segments = split(request.rawPath());
        Route best = null;
        Map<String, String> bestParams = null;
        Set<String> allowed = new LinkedHashSet<>();
        int bestLiterals = -1;
        Route pathOnly = null;
        // HEAD is answered wherever GET is (RFC 9110, section 9.3.2): the runtime drops the body.
        boolean head = "HEAD".equals(request.method());
        for (Route r : routes) {
            if (!r.template.matches(segments)) {
                continue;
            }
            boolean sameMethod = r.method.equals(request.method()) || (head && r.method.equals("GET") && r.headAllowed);
            if (!sameMethod) {
                if (pathOnly == null || r.template.literals > pathOnly.template.literals) {
                    pathOnly = r;
                }
                allowed.add(r.method);
                if (r.method.equals("GET") && r.headAllowed) {
                    allowed.add("HEAD");
                }
                continue;
            }
            if (r.template.literals > bestLiterals) {
                best = r;
                bestLiterals = r.template.literals;
            }
        }
        if (best == null) {
            if (pathOnly != null) {
                // The path is a known resource, answered 405 for this method: labelled by its template.
                request.facts().route(pathOnly.template.text);
            }
            throw noRoute(request, allowed);
        }
        // The call-records service authenticates before it reads anything: a path parameter that does
        // not decode is left out for its handler, which answers 401 or its own 404, never the
        // company-data 422 before the token is checked.
        request.facts().route(best.template.text);
        bestParams = best.template.parameters(segments, envelope == Service.CALL_RECORDS);
        return best.handler.handle(bestParams.isEmpty() ? request : request.withPathParameters(bestParams));
    }

    private HttpStatusException noRoute(Request request, Set<String> allowed) {
        String target = Texts.quote(request.rawPath());
        return switch (envelope) {
            case CALL_RECORDS ->
                new HttpStatusException(
                        404,
                        ErrorCode.ROTA_INEXISTENTE,
                        Message.NO_ROUTE.with(request.method() + " " + target),
                        null,
                        Headers.empty());
            case COMPANY_DATA ->
                allowed.isEmpty()
                        ? new HttpStatusException(
                                404,
                                ErrorCode.NAO_ENCONTRADO,
                                Message.NO_RESOURCE.with(target),
                                Message.PATH_IS.with(request.rawPath()),
                                Headers.empty())
                        : new HttpStatusException(
                                405,
                                ErrorCode.NAO_ENCONTRADO,
                                Message.METHOD_NOT_ALLOWED.with(request.method(), target, String.join(", ", allowed)),
                                Message.METHOD_IS.with(request.method()),
                                Headers.of("Allow", String.join(", ", allowed)));
        };
    }

    private static String[] split(String rawPath) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            return new String[] {rawPath};
        }
        return rawPath.substring(1).split("/", -1);
    }

    private record Route(String method, Template template, Handler handler, boolean headAllowed) {}

    /** A parsed template: literal segments and {@code {name}} parameters. */
    private static final class Template {
        private final String text;
        private final String[] literal;
        private final String[] parameter;
        private final int literals;

        Template(String text) {
            this.text = text;
            if (!text.startsWith("/")) {
                throw new IllegalArgumentException("path template " + text + " must start with /");
            }
            String[] parts = text.substring(1).split("/", -1);
            literal = new String[parts.length];
            parameter = new String[parts.length];
            int lits = 0;
            Set<String> names = new LinkedHashSet<>();
            for (int i = 0; i < parts.length; i++) {
                String p = parts[i];
                if (p.startsWith("{") && p.endsWith("}") && p.length() > 2) {
                    String name = p.substring(1, p.length() - 1);
                    if (!names.add(name)) {
                        throw new IllegalArgumentException("path template " + text + " repeats {" + name + "}");
                    }
                    parameter[i] = name;
                } else if (p.contains("{") || p.contains("}") || p.contains("%")) {
                    throw new IllegalArgumentException(
                            "path template " + text + " has a malformed segment '" + p + "'");
                } else {
                    literal[i] = p;
                    lits++;
                }
            }
            literals = lits;
        }

        boolean matches(String[] segments) {
            if (segments.length != literal.length) {
                return false;
            }
            for (int i = 0; i < segments.length; i++) {
                if (literal[i] != null ? !literal[i].equals(segments[i]) : segments[i].isEmpty()) {
                    return false;
                }
            }
            return true;
        }

        /** The decoded parameters; with {@code omitUndecodable}, one that does not decode is left out. */
        Map<String, String> parameters(String[] segments, boolean omitUndecodable) {
            Map<String, String> params = new LinkedHashMap<>();
            for (int i = 0; i < segments.length; i++) {
                if (parameter[i] != null) {
                    try {
                        params.put(parameter[i], PercentDecoding.decode(parameter[i], segments[i], false));
                    } catch (InvalidParameterException e) {
                        if (!omitUndecodable) {
                            throw e;
                        }
                    }
                }
            }
            return params;
        }
    }

    /** Collects routes; each method and template pair may be registered once. */
    public static final class Builder {
        private final Service envelope;
        private final List<Route> routes = new ArrayList<>();
        private final Set<String> seen = new LinkedHashSet<>();

        private Builder(Service envelope) {
            this.envelope = Objects.requireNonNull(envelope, "envelope");
        }

        public Builder get(String template, Handler handler) {
            return route("GET", template, handler);
        }

        /**
         * A GET route that charges credits: {@code HEAD} on its path is 405 with {@code Allow: GET}
         * instead of running it, because the runtime would drop the body the client paid for.
         */
        public Builder getCharged(String template, Handler handler) {
            return add("GET", template, handler, false);
        }

        public Builder post(String template, Handler handler) {
            return route("POST", template, handler);
        }

        public Builder route(String method, String template, Handler handler) {
            return add(method, template, handler, true);
        }

        private Builder add(String method, String template, Handler handler, boolean headAllowed) {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(handler, "handler");
            if (!seen.add(method + " " + template)) {
                throw new IllegalArgumentException("route " + method + " " + template + " is registered twice");
            }
            routes.add(new Route(method, new Template(template), handler, headAllowed));
            return this;
        }

        public Router build() {
            return new Router(envelope, routes);
        }
    }
}
