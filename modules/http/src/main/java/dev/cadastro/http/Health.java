package dev.cadastro.http;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The health endpoints of a listener, answered before the wrapped handler (so without a key or token,
 * outside rate limits and of no account): {@code GET}/{@code HEAD} {@value #LIVE} answers 200 {@code
 * {"status":"ok"}} while the process answers; {@value #READY} answers the same when the readiness
 * check finds no problem, otherwise 503 {@code {"status":"indisponivel","motivos":[...]}} with the
 * problems' codes (docs/http.md lists them). Every other request goes to the wrapped handler.
 */
public final class Health implements Handler {
    public static final String LIVE = "/health/live";
    public static final String READY = "/health/ready";

    private static final byte[] OK = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);

    private final Handler next;
    private final Supplier<List<String>> problems;
    private final BooleanSupplier alive;
    private final Supplier<Optional<String>> dataReference;

    private Health(
            Handler next,
            Supplier<List<String>> problems,
            BooleanSupplier alive,
            Supplier<Optional<String>> dataReference) {
        this.next = Objects.requireNonNull(next, "next");
        this.problems = Objects.requireNonNull(problems, "problems");
        this.alive = Objects.requireNonNull(alive, "alive");
        this.dataReference = Objects.requireNonNull(dataReference, "dataReference");
    }

    /** The field and header of {@value #READY} that name the register's reference month, for operators. */
    public static final String DATA_REFERENCE_FIELD = "dados_referencia";

    public static final String DATA_REFERENCE_HEADER = "X-Dados-Referencia";

    /**
     * {@code next} behind the health endpoints.
     *
     * @param problems the readiness check: the codes of what is not ready, empty when ready
     */
    public static Handler around(Handler next, Supplier<List<String>> problems) {
        return new Health(next, problems, () -> true, Optional::empty);
    }

    /**
     * {@code next} behind the health endpoints, with a liveness check: {@value #LIVE} answers 503 {@code
     * {"status":"indisponivel","motivos":["nao_vivo"]}} while {@code alive} is false (a part the process
     * cannot mend by itself, such as an embedded database whose restarts keep failing), so that a
     * supervisor restarts the process.
     */
    public static Handler around(Handler next, Supplier<List<String>> problems, BooleanSupplier alive) {
        return new Health(next, problems, alive, Optional::empty);
    }

    /**
     * As {@link #around(Handler, Supplier, BooleanSupplier)}; {@value #READY} also names the served
     * register's reference month ({@code 2026-11}), when {@code dataReference} gives one, as {@value
     * #DATA_REFERENCE_FIELD} in its body and {@value #DATA_REFERENCE_HEADER} in its header.
     */
    public static Handler around(
            Handler next,
            Supplier<List<String>> problems,
            BooleanSupplier alive,
            Supplier<Optional<String>> dataReference) {
        return new Health(next, problems, alive, dataReference);
    }

    /** The reason {@value #LIVE} gives when the liveness check fails. */
    public static final String NOT_ALIVE = "nao_vivo";

    @Override
    public Response handle(Request request) throws Exception {
        String path = request.rawPath();
        boolean live = LIVE.equals(path);
        if (!live && !READY.equals(path)) {
            return next.handle(request);
        }
        request.facts().route(path);
        String method = request.method();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return Response.of(405, Response.JSON, new byte[0]).withHeader("Allow", "GET, HEAD");
        }
        Response answer;
        if (live) {
            answer =
                    alive.getAsBoolean() ? Response.json(200, OK) : Response.json(503, unavailable(List.of(NOT_ALIVE)));
        } else {
            List<String> found = problems.get();
            Optional<String> month = found.contains("indice_indisponivel") ? Optional.empty() : month();
            answer = found.isEmpty()
                    ? Response.json(200, month.isEmpty() ? OK : ok(month.get()))
                    : Response.json(503, unavailable(found));
            if (month.isPresent()) {
                answer = answer.withHeader(DATA_REFERENCE_HEADER, month.get());
            }
        }
        return answer.withHeader("Cache-Control", "no-store");
    }

    /** Only a {@code YYYY-MM}: anything else is left out rather than written into the answer. */
    private Optional<String> month() {
        try {
            return dataReference.get().filter(m -> m.matches("\\d{4}-\\d{2}"));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static byte[] ok(String month) {
        return ("{\"status\":\"ok\",\"" + DATA_REFERENCE_FIELD + "\":\"" + month + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] unavailable(List<String> problems) {
        StringBuilder json = new StringBuilder("{\"status\":\"indisponivel\",\"motivos\":[");
        for (int i = 0; i < problems.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append('"');
            for (char c : problems.get(i).toCharArray()) {
                if (c == '"' || c == '\\') {
                    json.append('\\').append(c);
                } else if (c >= 0x20) {
                    json.append(c);
                }
            }
            json.append('"');
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
