package dev.cadastro.http.companydata;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingEstimate;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingRequest;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.http.IdempotentResponses;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.internal.Json;
import dev.cadastro.http.internal.JsonBody;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code POST /v1/mailing}, {@code POST /v1/mailing/estimativa}, {@code GET /v1/mailing/{job_id}} and {@code
 * GET /v1/mailing/{job_id}/arquivo},
 * called by {@link CompanyDataApi} after admission and the scope check.
 *
 * <p>The body's {@code filtros} take every filter of {@code GET /v1/empresas} by the same names and
 * rules, typed as JSON: the repeatable filters as arrays of strings (one value also as a bare string), the flags as booleans, the
 * capital bounds as numbers, the dates and {@code busca_textual} as strings. {@code apenas_total}, {@code limite} and {@code
 * pagina} are not filters here.
 */
final class MailingEndpoints {
    /**
     * The multi-value filters, each with two values valid for it: the example of its refusal (one value,
     * then an array), so a client is never shown a state code as the example of a status.
     */
    private static final Map<String, List<String>> LISTS = Map.of(
            RegisterQuery.UFS, List.of("SP", "RJ"),
            RegisterQuery.MUNICIPIOS, List.of("Campinas", "Santos"),
            RegisterQuery.BAIRROS, List.of("Centro", "Boa Vista"),
            RegisterQuery.DDDS, List.of("11", "21"),
            RegisterQuery.CNAES, List.of("6201501", "4711302"),
            RegisterQuery.CNAES_SECUNDARIOS, List.of("6201501", "4711302"),
            RegisterQuery.NATUREZAS, List.of("2062", "2135"),
            RegisterQuery.SITUACAO_CADASTRAL, List.of("02", "08"),
            RegisterQuery.PORTES, List.of("01", "03"));

    private static final Set<String> FLAGS = Set.of(
            RegisterQuery.MEI,
            RegisterQuery.SIMPLES,
            RegisterQuery.COM_TELEFONE,
            RegisterQuery.COM_TELEFONE_MOVEL,
            RegisterQuery.COM_EMAIL,
            RegisterQuery.DIVIDA);
    private static final Set<String> NUMBERS = Set.of(RegisterQuery.CAPITAL_MIN, RegisterQuery.CAPITAL_MAX);
    private static final Set<String> NOT_FILTERS =
            Set.of(SearchParameters.APENAS_TOTAL, RegisterQuery.LIMITE, RegisterQuery.PAGINA);
    private static final Set<String> BODY_FIELDS = Set.of("filtros", "quantidade", "formato");

    private final MailingService mailing;
    private final IdempotentResponses idempotent;

    MailingEndpoints(MailingService mailing, IdempotentResponses idempotent) {
        this.mailing = Objects.requireNonNull(mailing, "mailing");
        this.idempotent = Objects.requireNonNull(idempotent, "idempotent");
    }

    Response create(Request request, Principal principal) {
        refuseQuery(request, "POST /v1/mailing");
        MailingRequest body = parse(JsonBody.object(request.body()));
        Map<String, List<String>> fingerprinted = new TreeMap<>(body.alteracoes()
                .map(SearchParameters::toParameters)
                .orElseGet(() -> SearchParameters.toParameters(body.filtros())));
        fingerprinted.put("$quantidade", List.of(Integer.toString(body.quantidade())));
        fingerprinted.put("$formato", List.of(body.formato().wire()));
        RequestFingerprint fingerprint = RequestFingerprint.of("POST /v1/mailing", fingerprinted);
        return idempotent.run(request, principal.accountId(), fingerprint, reference -> {
            MailingJob job = mailing.create(principal, body, reference);
            return Response.json(200, Json.bytes(g -> {
                g.writeStartObject();
                writeJob(g, job);
                g.writeStringField("acompanhar_em", statusPath(job));
                g.writeEndObject();
            }));
        });
    }

    Response status(Request request, Principal principal) {
        refuseQuery(request, "GET /v1/mailing/{job_id}");
        MailingJob job = mailing.status(principal, jobId(request));
        return withFileReference(job, Response.json(200, Json.bytes(g -> {
            g.writeStartObject();
            writeJob(g, job);
            g.writeStringField("criado_em", time(job.createdAt()));
            switch (job.outcome().orElse(null)) {
                case null -> {}
                case MailingJob.Delivered d -> {
                    g.writeNumberField("quantidade_entregue", d.delivered());
                    g.writeNumberField("creditos_consumidos", d.charged());
                    g.writeStringField("concluido_em", time(d.finishedAt()));
                    g.writeStringField("arquivo_url", statusPath(job) + "/arquivo");
                    g.writeStringField("expira_em", time(d.expiresAt()));
                }
                case MailingJob.Failed f -> {
                    g.writeStringField("concluido_em", time(f.finishedAt()));
                    g.writeNumberField("creditos_consumidos", 0);
                    g.writeObjectFieldStart("erro");
                    g.writeStringField("code", f.code().name());
                    g.writeStringField("mensagem", f.message().render(request.locale()));
                    g.writeEndObject();
                }
            }
            g.writeEndObject();
        })));
    }

    /**
     * A done job's answers name the month its file was read from, not the one served now; the others (still
     * processing, failed, or done before the month was recorded) get the served month from the router.
     */
    private static Response withFileReference(MailingJob job, Response response) {
        return job.outcome().orElse(null) instanceof MailingJob.Delivered d
                        && d.reference().isPresent()
                ? response.withHeader(DataReference.HEADER, d.reference().get().wire())
                : response;
    }

    Response download(Request request, Principal principal) throws IOException {
        refuseQuery(request, "GET /v1/mailing/{job_id}/arquivo");
        MailingService.Download file = mailing.download(principal, jobId(request));
        Response.Streamed body = new Response.Streamed() {
            @Override
            public long length() {
                return file.file().size();
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                file.file().stream().transferTo(out);
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
        return withFileReference(
                file.job(),
                Response.stream(200, "application/zip", body)
                        .withHeader(
                                "Content-Disposition",
                                "attachment; filename=\"" + file.job().zipName() + "\"")
                        .withHeader("Cache-Control", "private, no-store"));
    }

    private static String jobId(Request request) {
        return request.pathParameter("job_id").orElse("");
    }

    /** The fields every answer about a job opens with. */
    private static void writeJob(JsonGenerator g, MailingJob job) throws IOException {
        g.writeStringField("job_id", job.id());
        g.writeStringField("status", job.state().wire());
        g.writeNumberField("quantidade_solicitada", job.quantidade());
        g.writeStringField("formato", job.formato().wire());
    }

    private static String statusPath(MailingJob job) {
        return "/v1/mailing/" + job.id();
    }

    private static String time(Instant instant) {
        return CompanyDataJson.time(instant);
    }

    private static void refuseQuery(Request request, String route) {
        if (!request.query().isEmpty()) {
            String name = request.query().asMap().keySet().iterator().next();
            throw InvalidParameterException.of(
                    name, "unknown-parameter", Message.PARAMETER_NOT_ACCEPTED.with(name, route));
        }
    }

    /**
     * {@code POST /v1/mailing/estimativa}: the body of {@code POST /v1/mailing}, read by the same parser,
     * with {@code quantidade} optional (the largest export when absent); answers the filter's count and
     * the credits the export's hold would take. Free, and it changes nothing, so an {@code
     * Idempotency-Key} is not read.
     */
    Response estimate(Request request, Principal principal) {
        refuseQuery(request, "POST /v1/mailing/estimativa");
        MailingEstimate estimate = mailing.estimate(principal, parse(JsonBody.object(request.body()), false));
        return Response.json(200, Json.bytes(g -> {
            g.writeStartObject();
            g.writeNumberField("total", estimate.count().total());
            g.writeBooleanField("aproximado", estimate.count().aproximado());
            g.writeNumberField("quantidade", estimate.quantidade());
            g.writeNumberField("creditos_reservados", estimate.creditsHeld());
            g.writeNumberField("creditos_consumidos", 0);
            g.writeEndObject();
        }));
    }

    /** The body of {@code POST /v1/mailing}, every rule naming its field. */
    static MailingRequest parse(Map<String, Object> body) {
        return parse(body, true);
    }

    /**
     * The body of {@code POST /v1/mailing}, every rule naming its field.
     *
     * @param quantityRequired false for an estimate: an absent {@code quantidade} is then the largest
     *     export, {@value MailingRequest#MAX_QUANTITY}
     */
    static MailingRequest parse(Map<String, Object> body, boolean quantityRequired) {
        for (String name : body.keySet()) {
            if (!BODY_FIELDS.contains(name)) {
                throw InvalidParameterException.of(
                        name,
                        "unknown-field",
                        Message.UNKNOWN_FIELD.with(Texts.quote(name), "[filtros, formato, quantidade]"));
            }
        }
        if (!(body.get("filtros") instanceof Map<?, ?> filters)) {
            throw InvalidParameterException.of(
                    "filtros", body.containsKey("filtros") ? "type" : "required", Message.MAILING_FILTERS_TYPE.with());
        }
        Object q = body.get("quantidade");
        if (q == null && !quantityRequired) {
            q = BigInteger.valueOf(MailingRequest.MAX_QUANTITY);
        }
        if (!(q instanceof BigInteger quantity)) {
            throw InvalidParameterException.of(
                    "quantidade",
                    q == null ? "required" : "type",
                    q == null
                            ? Message.MAILING_QUANTITY_TYPE.with(MailingRequest.MAX_QUANTITY)
                            : Message.MAILING_QUANTITY_NOT.with(MailingRequest.MAX_QUANTITY, q));
        }
        if (quantity.signum() < 1 || quantity.compareTo(BigInteger.valueOf(MailingRequest.MAX_QUANTITY)) > 0) {
            throw InvalidParameterException.of(
                    "quantidade", "range", Message.MAILING_QUANTITY.with(quantity, MailingRequest.MAX_QUANTITY));
        }
        Object f = body.get("formato");
        ExportFormat format;
        if (f == null) {
            format = ExportFormat.CSV;
        } else if (f instanceof String s) {
            format = ExportFormat.parse("formato", s);
        } else {
            throw InvalidParameterException.of("formato", "type", Message.MAILING_FORMAT_TYPE.with());
        }
        Map<String, List<String>> params = filterParameters(filters);
        if (params.containsKey(SearchParameters.REFERENCIA) || params.containsKey(SearchParameters.TIPOS)) {
            ChangeQuery changes;
            try {
                changes = SearchParameters.parseChanges(params);
            } catch (InvalidParameterException e) {
                throw InvalidParameterException.of(
                        "filtros." + e.violation().field(),
                        e.violation().rule(),
                        e.violation().text());
            }
            return new MailingRequest(changes.filtros(), quantity.intValue(), format, Optional.of(changes));
        }
        return new MailingRequest(filters(params), quantity.intValue(), format);
    }

    /** The name of the change selection inside {@code filtros}: an object of {@code referencia} and {@code tipos}. */
    static final String ALTERACOES = "alteracoes";

    /**
     * {@code filtros.alteracoes}: {@code {}} for every change of the current month, {@code referencia} a
     * string, {@code tipos} a string or an array of strings, as in {@code GET /v1/empresas/alteracoes}.
     */
    private static void changes(Object value, Map<String, List<String>> params) {
        String field = "filtros." + ALTERACOES;
        if (!(value instanceof Map<?, ?> map)) {
            throw InvalidParameterException.of(field, "type", Message.MUST_BE_OBJECT.with(field));
        }
        // Present even when empty: the marker that this is an export of changes.
        params.put(SearchParameters.TIPOS, new ArrayList<>());
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String name = (String) e.getKey();
            Object v = e.getValue();
            String sub = field + "." + name;
            if (name.equals(SearchParameters.REFERENCIA)) {
                if (!(v instanceof String s)) {
                    throw InvalidParameterException.of(sub, "type", Message.MUST_BE_STRING.with(sub));
                }
                params.put(SearchParameters.REFERENCIA, List.of(s));
            } else if (name.equals(SearchParameters.TIPOS)) {
                List<?> list = v instanceof String one ? List.of(one) : v instanceof List<?> l ? l : null;
                if (list == null) {
                    throw InvalidParameterException.of(sub, "type", Message.MUST_BE_STRING.with(sub));
                }
                for (Object t : list) {
                    if (!(t instanceof String s)) {
                        throw InvalidParameterException.of(sub, "type", Message.MUST_BE_STRING.with(sub));
                    }
                    params.get(SearchParameters.TIPOS).add(s);
                }
            } else {
                throw InvalidParameterException.of(
                        sub, "unknown-field", Message.UNKNOWN_FIELD.with(Texts.quote(name), "[referencia, tipos]"));
            }
        }
    }

    private static RegisterQuery filters(Map<String, List<String>> params) {
        if (params.isEmpty()) {
            throw InvalidParameterException.of("filtros", "required", Message.MAILING_FILTER_REQUIRED.with());
        }
        try {
            return SearchParameters.parse(params);
        } catch (InvalidParameterException e) {
            throw InvalidParameterException.of(
                    "filtros." + e.violation().field(),
                    e.violation().rule(),
                    e.violation().text());
        }
    }

    private static Map<String, List<String>> filterParameters(Map<?, ?> filters) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : filters.entrySet()) {
            String name = (String) e.getKey();
            String field = "filtros." + name;
            Object value = e.getValue();
            if (name.equals(ALTERACOES)) {
                changes(value, params);
                continue;
            }
            if (NOT_FILTERS.contains(name)) {
                throw InvalidParameterException.of(field, "not-a-filter", Message.MAILING_NOT_A_FILTER.with(name));
            }
            if (LISTS.containsKey(name)) {
                // One value may come as a string: the contract types these filters as strings and sends
                // several values as an array. An array of one and the bare string are the same filter.
                if (value instanceof String one) {
                    params.put(name, List.of(one));
                    continue;
                }
                if (!(value instanceof List<?> list) || list.isEmpty()) {
                    List<String> example = LISTS.get(name);
                    throw InvalidParameterException.of(
                            field,
                            "type",
                            Message.MAILING_LIST_TYPE.with(
                                    field,
                                    "\"" + example.get(0) + "\"",
                                    "[\"" + example.get(0) + "\", \"" + example.get(1) + "\"]"));
                }
                List<String> values = new ArrayList<>(list.size());
                for (Object v : list) {
                    if (!(v instanceof String s)) {
                        throw InvalidParameterException.of(field, "type", Message.MAILING_LIST_STRINGS.with(field, v));
                    }
                    values.add(s);
                }
                params.put(name, values);
            } else if (FLAGS.contains(name)) {
                if (!(value instanceof Boolean b)) {
                    throw InvalidParameterException.of(field, "type", Message.MUST_BE_BOOLEAN.with(field));
                }
                params.put(name, List.of(b.toString()));
            } else if (NUMBERS.contains(name)) {
                String number = switch (value) {
                    case BigInteger i when i.bitLength() <= 64 -> i.toString();
                    // Bounded before toPlainString, which would spell 1e999999999 out in full.
                    case BigDecimal d
                    when Math.abs(d.scale()) <= 20 && d.precision() - d.scale() <= 20 -> d.toPlainString();
                    case BigInteger i ->
                        throw InvalidParameterException.of(field, "range", Message.NUMBER_TOO_LARGE.with(field));
                    case BigDecimal d ->
                        throw InvalidParameterException.of(field, "range", Message.NUMBER_TOO_PRECISE.with(field));
                    default -> throw InvalidParameterException.of(field, "type", Message.MUST_BE_NUMBER.with(field));
                };
                params.put(name, List.of(number));
            } else if (name.equals(RegisterQuery.BUSCA_TEXTUAL)) {
                if (!(value instanceof String s)) {
                    throw InvalidParameterException.of(field, "type", Message.MUST_BE_STRING.with(field));
                }
                params.put(name, List.of(s));
            } else if (SearchParameters.PARAMETERS.contains(name)) {
                if (!(value instanceof String s)) {
                    throw InvalidParameterException.of(field, "type", Message.MUST_BE_DATE_STRING.with(field));
                }
                params.put(name, List.of(s));
            } else {
                throw InvalidParameterException.of(
                        field, "unknown-filter", Message.MAILING_UNKNOWN_FILTER.with(Texts.quote(name)));
            }
        }
        return params;
    }
}
