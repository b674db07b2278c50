package dev.cadastro.http.callrecords;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallParameterException;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallRecords;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.CallsUnauthorizedException;
import dev.cadastro.core.calls.FeedEntry;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.http.Headers;
import dev.cadastro.http.QueryParameters;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.Router;
import dev.cadastro.http.internal.Json;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The call-records service (its OpenAPI document, docs/rules.md) as a {@link Router} with its own envelope
 * ({@code {"erro": "code", "mensagem": "..."}}), for its own listener:
 *
 * <ul>
 *   <li>{@code GET /v1/ligacoes}: the list by signed cursor; with {@code ordem=disponibilidade}, an
 *       extension, the feed: calls in the order they became listable or were reclassified, oldest first,
 *       each with {@code atualizado_em}, and a cursor that is never null once a poll has one (ADR 0048);
 *   <li>{@code GET /v1/ligacoes/{id}}: one call;
 *   <li>{@code GET /v1/ligacoes/{id}/audio}: 302 to a new one-hour signed link on the recording host,
 *       {@code Cache-Control: no-store};
 *   <li>{@code GET /v1/openapi.json}: the OpenAPI 3.1 document of these, without a token.
 * </ul>
 *
 * <p>Every data endpoint first authenticates {@code Authorization: Bearer <token>} through {@link
 * CallTokens#authenticate}: a missing, malformed, unknown or revoked token, or a company-data API key,
 * is 401 {@code nao_autorizado}, before any parameter is read. Bad parameters (an unknown or repeated
 * one, a {@code limite} outside 1-200, a malformed date, a refused cursor, an unknown {@code ordem}, a
 * parameter of one order given with the other) are 400 {@code parametro_invalido}, a code the contract's catalogue lacks and the OpenAPI document adds. The service is
 * free: no rate-limit headers, no idempotency keys, no charges.
 */
public final class CallRecordsApi {
    private static final String OPENAPI_RESOURCE = "openapi.json";

    /** The parameters {@code GET /v1/ligacoes} accepts. */
    static final Set<String> LIST_PARAMETERS =
            Set.of("limite", "cursor", "desde", "ate", "agente", "fila", "resultado", "ordem", "disponivel_desde");

    /** {@code ordem}'s values: the contract's order (the default) and the feed, an extension (ADR 0048). */
    static final String ORDER_CLASSIFIED = "datahistorico";

    static final String ORDER_AVAILABLE = "disponibilidade";

    private final CallTokens tokens;
    private final CallRecords records;
    private final byte[] openApi;

    private CallRecordsApi(CallTokens tokens, CallRecords records) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.records = Objects.requireNonNull(records, "records");
        this.openApi = openApiDocument();
    }

    /** The router of the call-records service. */
    public static Router router(CallTokens tokens, CallRecords records) {
        CallRecordsApi api = new CallRecordsApi(tokens, records);
        return Router.builder(Service.CALL_RECORDS)
                .get("/v1/ligacoes", api::list)
                .get("/v1/ligacoes/{id}", api::one)
                .get("/v1/ligacoes/{id}/audio", api::audio)
                .get("/v1/openapi.json", r -> Response.json(200, api.openApi))
                .build();
    }

    /** The OpenAPI 3.1 document served at {@code /v1/openapi.json} on the call-records listener. */
    public static byte[] openApiDocument() {
        return Json.resource(CallRecordsApi.class, OPENAPI_RESOURCE);
    }

    private Response list(Request request) {
        Integration integration = authenticate(request);
        QueryParameters query = query(request);
        for (var e : query.asMap().entrySet()) {
            if (!LIST_PARAMETERS.contains(e.getKey())) {
                throw new CallParameterException(
                        e.getKey(),
                        Message.PARAMETER_NOT_ACCEPTED_LIST.with(
                                Texts.quote(e.getKey()),
                                "GET /v1/ligacoes",
                                "limite, cursor, desde, ate, agente, fila, resultado, ordem, disponivel_desde"));
            }
            if (e.getValue().size() > 1) {
                throw new CallParameterException(
                        e.getKey(),
                        Message.SINGLE_VALUE.with(e.getKey(), e.getValue().size()));
            }
        }
        int limit = query.first("limite").map(CallRecordsApi::limit).orElse(CallRecords.DEFAULT_LIMIT);
        String order = query.first("ordem").orElse(ORDER_CLASSIFIED);
        if (order.equals(ORDER_AVAILABLE)) {
            return feed(integration, query, limit);
        }
        if (!order.equals(ORDER_CLASSIFIED)) {
            throw new CallParameterException("ordem", Message.CALLS_ORDER.with(Texts.quote(order)));
        }
        if (query.first("disponivel_desde").isPresent()) {
            throw new CallParameterException("disponivel_desde", Message.CALLS_FEED_ONLY.with("disponivel_desde"));
        }
        Optional<Instant> since = query.first("desde").map(CallRecordsApi::since);
        Optional<Instant> until = query.first("ate").map(CallRecordsApi::until);
        if (since.isPresent() && until.isPresent() && since.get().isAfter(until.get())) {
            throw new CallParameterException(
                    "desde",
                    Message.CALLS_SINCE_AFTER_UNTIL.with(
                            query.first("desde").get(), query.first("ate").get()));
        }
        CallFilter filter =
                new CallFilter(since, until, text(query, "agente"), text(query, "fila"), text(query, "resultado"));
        CallRecords.Page page = records.list(integration, filter, limit, query.first("cursor"));
        return Response.json(200, listBody(page));
    }

    /**
     * {@code ordem=disponibilidade}: the feed, oldest first by when each call became listable or was last
     * reclassified. {@code desde} and {@code ate} bound {@code datahistorico}, which the feed does not
     * follow, so they are refused; {@code disponivel_desde} starts the feed, a cursor resumes it, not both.
     */
    private Response feed(Integration integration, QueryParameters query, int limit) {
        for (String bound : List.of("desde", "ate")) {
            if (query.first(bound).isPresent()) {
                throw new CallParameterException(bound, Message.CALLS_NOT_IN_FEED.with(bound));
            }
        }
        Optional<String> cursor = query.first("cursor");
        Optional<Instant> availableSince = query.first("disponivel_desde").map(t -> since("disponivel_desde", t));
        if (cursor.isPresent() && availableSince.isPresent()) {
            throw new CallParameterException("disponivel_desde", Message.CALLS_FEED_CURSOR_AND_SINCE.with());
        }
        CallFilter filter = new CallFilter(
                Optional.empty(),
                Optional.empty(),
                text(query, "agente"),
                text(query, "fila"),
                text(query, "resultado"));
        CallRecords.FeedPage page = records.feed(integration, filter, availableSince, limit, cursor);
        List<FeedEntry> entries = page.entries();
        return Response.json(200, Json.bytes(512 + 600 * entries.size(), g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("ligacoes");
            for (FeedEntry entry : entries) {
                g.writeStartObject();
                g.writeFieldName("metadata");
                CallJson.writeMetadata(g, entry.call(), records.recordingUrl(entry.call()), entry.availableAt());
                g.writeEndObject();
            }
            g.writeEndArray();
            writePageEnd(g, page.limit(), entries.size(), page.nextCursor());
        }));
    }

    private byte[] listBody(CallRecords.Page page) {
        List<CallRecord> calls = page.calls();
        return Json.bytes(512 + 560 * calls.size(), g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("ligacoes");
            for (CallRecord call : calls) {
                g.writeStartObject();
                CallJson.writeMetadataField(g, call, records.recordingUrl(call));
                g.writeEndObject();
            }
            g.writeEndArray();
            writePageEnd(g, page.limit(), calls.size(), page.nextCursor());
        });
    }

    /** What closes a listing's body after its {@code ligacoes}: {@code paginacao} and {@code retencao_dias}. */
    private static void writePageEnd(JsonGenerator g, int limit, int returned, Optional<String> nextCursor)
            throws IOException {
        g.writeObjectFieldStart("paginacao");
        g.writeNumberField("limite", limit);
        g.writeNumberField("retornados", returned);
        if (nextCursor.isPresent()) {
            g.writeStringField("proximo_cursor", nextCursor.get());
        } else {
            g.writeNullField("proximo_cursor");
        }
        g.writeEndObject();
        g.writeNumberField("retencao_dias", CallRecords.RETENTION_DAYS);
        g.writeEndObject();
    }

    private Response one(Request request) {
        Integration integration = authenticate(request);
        refuseQuery(request, "GET /v1/ligacoes/{id}");
        CallRecord call = records.find(integration, request.pathParameter("id").orElse(""));
        return Response.json(200, CallJson.wrapped(call, records.recordingUrl(call)));
    }

    private Response audio(Request request) {
        Integration integration = authenticate(request);
        refuseQuery(request, "GET /v1/ligacoes/{id}/audio");
        String link = records.audio(integration, request.pathParameter("id").orElse(""));
        // The link is a bearer credential for one hour: no cache may keep it.
        return new Response(302, Headers.of("Location", link, "Cache-Control", "no-store"), new byte[0]);
    }

    /** The integration of the request's bearer token; 401 for anything else. */
    private Integration authenticate(Request request) {
        List<String> values = request.headers().all("Authorization");
        if (values.isEmpty()) {
            throw new CallsUnauthorizedException(Message.CALLS_NO_TOKEN.with());
        }
        if (values.stream().map(String::trim).distinct().count() > 1) {
            // Two different tokens: which one is meant is not ours to guess. The same one twice is one.
            throw new CallsUnauthorizedException(Message.CALLS_AUTHORIZATION_TWICE.with());
        }
        String value = values.get(0).trim();
        int space = value.indexOf(' ');
        if (space < 0 || !value.substring(0, space).equalsIgnoreCase("Bearer")) {
            throw new CallsUnauthorizedException(Message.CALLS_NOT_BEARER.with());
        }
        String token = value.substring(space + 1).trim();
        if (token.isEmpty() || token.length() > 512) {
            throw new CallsUnauthorizedException(Message.CALLS_TOKEN_INVALID.with());
        }
        Integration integration = tokens.authenticate(token)
                .orElseThrow(() -> new CallsUnauthorizedException(Message.CALLS_TOKEN_INVALID.with()));
        request.facts().account(integration.id());
        return integration;
    }

    /** The decoded query; a bad encoding is this service's 400, not the company-data 422. */
    private static QueryParameters query(Request request) {
        try {
            return request.query();
        } catch (InvalidParameterException e) {
            throw new CallParameterException(e.violation().field(), e.text());
        }
    }

    private static void refuseQuery(Request request, String route) {
        QueryParameters q = query(request);
        if (!q.isEmpty()) {
            String name = q.asMap().keySet().iterator().next();
            throw new CallParameterException(
                    name, Message.PARAMETER_NOT_ACCEPTED_BY.with(Texts.quote(name), route, Message.TAKES_NONE.with()));
        }
    }

    static int limit(String text) {
        if (!text.matches("[0-9]{1,9}")) {
            throw new CallParameterException(
                    "limite", Message.CALLS_LIMIT_NUMBER.with(Texts.quote(text), CallRecords.MAX_LIMIT));
        }
        return Integer.parseInt(text);
    }

    private static Optional<String> text(QueryParameters query, String name) {
        Optional<String> v = query.first(name);
        if (v.isPresent() && v.get().isEmpty()) {
            throw new CallParameterException(name, Message.CALLS_EMPTY.with(name));
        }
        return v;
    }

    /** The earliest and latest years {@code desde} and {@code ate} accept. */
    static final int MIN_YEAR = 1970;

    static final int MAX_YEAR = 9999;

    private static final java.util.regex.Pattern DATE_TIME = java.util.regex.Pattern.compile(
            "([+-]?[0-9]{4,10}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,9})?)?)"
                    + "(Z|z|[+-][0-9]{2}(?::?[0-9]{2})?)?");

    /** {@code desde}: the first moment, a fraction finer than the store's microsecond rounded up. */
    static Instant since(String text) {
        return since("desde", text);
    }

    /** A lower bound ({@code desde}, {@code disponivel_desde}) read as {@link #since(String)} reads {@code desde}. */
    static Instant since(String parameter, String text) {
        Instant t = time(parameter, text);
        Instant micros = t.truncatedTo(ChronoUnit.MICROS);
        return micros.equals(t) ? t : micros.plus(1, ChronoUnit.MICROS);
    }

    /**
     * {@code ate}: the last moment. Calls are shown to the second, so a value without a fraction names
     * a second as shown and takes all of it, to its last microsecond ({@code 10:00:14} keeps a call at
     * {@code 10:00:14.999999}, shown as {@code 10:00:14}; {@code 10:00} is {@code 10:00:00}); a value
     * with a fraction is that instant, a fraction finer than the store's microsecond rounded down.
     * {@code desde} needs no such widening: the start of its second is already its first moment.
     */
    static Instant until(String text) {
        Instant t = time("ate", text).truncatedTo(ChronoUnit.MICROS);
        return hasFraction(text) ? t : t.plus(1, ChronoUnit.SECONDS).minus(1, ChronoUnit.MICROS);
    }

    /** Whether a value {@link #time} accepted carries a fraction of the second. */
    private static boolean hasFraction(String text) {
        java.util.regex.Matcher m = DATE_TIME.matcher(normalized(text));
        return m.matches() && (m.group(1).indexOf('.') >= 0 || m.group(1).indexOf(',') >= 0);
    }

    /** The text trimmed, with an offset's {@code +} that arrived as a space put back. */
    private static String normalized(String text) {
        String t = text.trim();
        if (t.matches(".*T.* [0-9]{2}(:?[0-9]{2})?")) {
            int space = t.lastIndexOf(' ');
            t = t.substring(0, space) + '+' + t.substring(space + 1);
        }
        return t;
    }

    /**
     * An ISO 8601 date and time with an offset ({@code Z}, {@code ±hh:mm}, {@code ±hhmm} or {@code ±hh}:
     * {@code 2026-03-10T12:00:00-03:00}, {@code -0300}, {@code -03}) or without one, then in Brasília
     * time (UTC-3), as the contract says; years from {@value #MIN_YEAR} to {@value #MAX_YEAR}. A {@code +}
     * sent unencoded in a query arrives as a space; an offset after a space is read as {@code +}.
     */
    static Instant time(String parameter, String text) {
        String t = normalized(text);
        java.util.regex.Matcher m = DATE_TIME.matcher(t);
        LocalDateTime local;
        ZoneOffset offset;
        try {
            if (!m.matches()) {
                throw new DateTimeParseException("not an ISO 8601 date and time", t, 0);
            }
            String date = m.group(1).replace(',', '.');
            int year = Integer.parseInt(date.substring(0, date.indexOf('-', 1)).replace("+", ""));
            if (year < MIN_YEAR || year > MAX_YEAR) {
                throw new CallParameterException(
                        parameter, Message.CALLS_YEAR.with(parameter, Texts.quote(text), year, MIN_YEAR, MAX_YEAR));
            }
            local = LocalDateTime.parse(date, DateTimeFormatter.ISO_LOCAL_DATE_TIME);
            String zone = m.group(2);
            offset = zone == null ? CallJson.BRASILIA : ZoneOffset.of(zone.equals("z") ? "Z" : zone);
        } catch (java.time.DateTimeException | NumberFormatException e) {
            throw new CallParameterException(parameter, Message.CALLS_DATE.with(parameter, Texts.quote(text)));
        }
        return local.toInstant(offset);
    }
}
