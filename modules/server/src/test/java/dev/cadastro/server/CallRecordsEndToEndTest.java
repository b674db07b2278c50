package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.Headers;
import dev.cadastro.http.callrecords.CallJson;
import dev.cadastro.http.callrecords.CallRecordsApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The call-records service through real sockets against the embedded PostgreSQL: cursors refused when
 * tampered or reused across filters and integrations, the 7-day window's edges, 409 then 302 once archived,
 * the signed link's hour and its tampering, token rotation, integrations kept apart, a redirect that
 * does not carry the token to the recording host, a tolerant client across an added field, and every
 * error code of the service against its OpenAPI document. The whole class runs twice: on the JDK runtime
 * and on Jetty through the servlet bridge ({@link TestRuntime}).
 */
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class CallRecordsEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A client that ignores unknown fields, as the contract asks. */
    private static final ObjectMapper TOLERANT =
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static final Instant NOW = Instant.parse("2026-11-20T15:00:00Z");
    private static CallsStack stack;

    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static OpenApiContract contract;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void open(TestRuntime runtime) {
        stack = new CallsStack(NOW, runtime);
        contract = new OpenApiContract(new String(CallRecordsApi.openApiDocument(), StandardCharsets.UTF_8));
    }

    @org.junit.jupiter.params.AfterParameterizedClassInvocation
    static void close() {
        stack.close();
    }

    private static CallRecord ready(long integration, String id, Instant at) {
        return CallsStack.call(integration, id, at, at.plusSeconds(60), "vendas");
    }

    private static void assertError(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode body = ServerFixture.json(r);
        assertEquals(code, body.path("erro").asText(), r.body());
        assertTrue(body.path("mensagem").isTextual(), r.body());
    }

    private static String cursorOf(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        return ServerFixture.json(r).at("/paginacao/proximo_cursor").asText();
    }

    @Test
    void refusesTamperedCursorsAndCursorsOfOtherFiltersOrTokens() {
        CallTokens.Issued mine = stack.integration();
        CallTokens.Issued theirs = stack.integration();
        Instant at = stack.clock.instant().minusSeconds(600);
        stack.ingest(List.of(
                ready(mine.integration().id(), "T1", at),
                ready(mine.integration().id(), "T2", at)));
        stack.ingest(List.of(
                ready(theirs.integration().id(), "T1", at),
                ready(theirs.integration().id(), "T2", at)));
        String cursor = cursorOf(stack.get("/v1/ligacoes?limite=1", mine.token()));
        assertEquals(
                200,
                stack.get("/v1/ligacoes?limite=1&cursor=" + cursor, mine.token())
                        .statusCode());
        char last = cursor.charAt(cursor.length() - 1);
        String tampered = cursor.substring(0, cursor.length() - 1) + (last == 'A' ? 'B' : 'A');
        List<HttpResponse<String>> refused = List.of(
                stack.get("/v1/ligacoes?limite=1&cursor=" + tampered, mine.token()),
                stack.get("/v1/ligacoes?limite=1&cursor=" + cursor.substring(0, cursor.length() - 2), mine.token()),
                stack.get("/v1/ligacoes?limite=1&fila=vendas&cursor=" + cursor, mine.token()),
                stack.get("/v1/ligacoes?limite=1&desde=2026-11-01T00:00:00&cursor=" + cursor, mine.token()),
                stack.get("/v1/ligacoes?limite=1&cursor=" + cursor, theirs.token()));
        for (HttpResponse<String> r : refused) {
            assertError(r, 400, "parametro_invalido");
            assertTrue(ServerFixture.json(r).path("mensagem").asText().startsWith("cursor "), r.body());
            contract.check("/v1/ligacoes", r);
        }
        // The page size is not part of the query a cursor binds to.
        assertEquals(
                200,
                stack.get("/v1/ligacoes?limite=5&cursor=" + cursor, mine.token())
                        .statusCode());
    }

    @Test
    void aListWithoutLimiteAnswersPagesOfFifty() {
        CallTokens.Issued mine = stack.integration();
        Instant base = stack.clock.instant().minusSeconds(3_600);
        List<CallRecord> calls = new ArrayList<>();
        for (int i = 0; i < 73; i++) {
            calls.add(ready(mine.integration().id(), String.format("P%03d", i), base.plusSeconds(i)));
        }
        stack.ingest(calls);

        HttpResponse<String> first = stack.get("/v1/ligacoes", mine.token());
        assertEquals(200, first.statusCode(), first.body());
        contract.check("/v1/ligacoes", first);
        JsonNode body = ServerFixture.json(first);
        assertEquals(50, body.path("ligacoes").size(), "the default page size");
        assertEquals(50, body.at("/paginacao/limite").asInt());
        assertEquals(50, body.at("/paginacao/retornados").asInt());
        assertTrue(body.at("/paginacao/proximo_cursor").isTextual(), "more calls follow: " + body.at("/paginacao"));

        HttpResponse<String> rest = stack.get("/v1/ligacoes?cursor=" + cursorOf(first), mine.token());
        assertEquals(200, rest.statusCode(), rest.body());
        JsonNode second = ServerFixture.json(rest);
        assertEquals(23, second.path("ligacoes").size());
        assertTrue(second.at("/paginacao/proximo_cursor").isNull(), "the walk ends: " + second.at("/paginacao"));
        Set<String> seen = new HashSet<>(ids(body));
        seen.addAll(ids(second));
        assertEquals(73, seen.size(), "every call once across the two pages");
    }

    @Test
    void theWindowKeepsExactlySevenDaysOfMetadataAndAudioOutlivesIt() {
        CallTokens.Issued mine = stack.integration();
        long id = mine.integration().id();
        Instant edge = stack.clock.instant().minus(Duration.ofDays(7));
        stack.ingest(List.of(ready(id, "EDGE", edge), ready(id, "OLD", edge.minusNanos(1_000))));
        JsonNode list = ServerFixture.json(stack.get("/v1/ligacoes", mine.token()));
        assertEquals(List.of("EDGE"), ids(list));
        assertEquals(200, stack.get("/v1/ligacoes/EDGE", mine.token()).statusCode());
        assertError(stack.get("/v1/ligacoes/OLD", mine.token()), 404, "nao_encontrada");
        assertEquals(302, stack.get("/v1/ligacoes/OLD/audio", mine.token()).statusCode());
        stack.clock.advance(Duration.ofNanos(1_000));
        try {
            assertEquals(List.of(), ids(ServerFixture.json(stack.get("/v1/ligacoes", mine.token()))));
            assertError(stack.get("/v1/ligacoes/EDGE", mine.token()), 404, "nao_encontrada");
            assertEquals(302, stack.get("/v1/ligacoes/EDGE/audio", mine.token()).statusCode());
        } finally {
            stack.clock.set(NOW);
        }
    }

    @Test
    void audioIsUnavailableWhileArchivingThenRedirects() {
        CallTokens.Issued mine = stack.integration();
        long id = mine.integration().id();
        Instant at = stack.clock.instant().minusSeconds(120);
        stack.ingest(List.of(CallsStack.call(id, "ARQ", at, null, "vendas")));
        HttpResponse<String> pending = stack.get("/v1/ligacoes/ARQ/audio", mine.token());
        assertError(pending, 409, "indisponivel");
        contract.check("/v1/ligacoes/{id}/audio", pending);
        assertError(stack.get("/v1/ligacoes/ARQ", mine.token()), 404, "nao_encontrada");
        stack.ingest(List.of(CallsStack.call(id, "ARQ", at, at.plusSeconds(90), "vendas")));
        HttpResponse<String> moved = stack.get("/v1/ligacoes/ARQ/audio", mine.token());
        assertEquals(302, moved.statusCode());
        assertEquals("no-store", moved.headers().firstValue("Cache-Control").orElseThrow());
        assertTrue(moved.headers().firstValue("Location").orElseThrow().contains("/calls/" + id + "/ARQ.wav?"));
        assertFalse(moved.headers().map().keySet().stream()
                .anyMatch(h -> h.toLowerCase().startsWith("x-ratelimit")));
        assertFalse(moved.headers().firstValue("Set-Cookie").isPresent());
    }

    @Test
    void theSignedLinkWorksForOneHourAndRefusesTampering() {
        CallTokens.Issued mine = stack.integration();
        long id = mine.integration().id();
        stack.ingest(List.of(ready(id, "LNK", stack.clock.instant().minusSeconds(300))));
        String location = stack.get("/v1/ligacoes/LNK/audio", mine.token())
                .headers()
                .firstValue("Location")
                .orElseThrow();
        assertNotEquals(
                location,
                stack.get("/v1/ligacoes/LNK/audio", mine.token())
                        .headers()
                        .firstValue("Location")
                        .orElseThrow());
        HttpResponse<String> wav = fetch(location);
        assertEquals(200, wav.statusCode());
        assertEquals("audio/wav", wav.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("RIFFLNK", wav.body());
        String tampered = location.replace("/LNK.wav", "/LNK2.wav");
        assertEquals(403, fetch(tampered).statusCode());
        String otherExpiry = location.replaceFirst("e=([0-9]+)", "e=1$1");
        assertEquals(403, fetch(otherExpiry).statusCode());
        try {
            stack.clock.advance(Duration.ofHours(1).minusSeconds(1));
            assertEquals(200, fetch(location).statusCode());
            stack.clock.advance(Duration.ofSeconds(1));
            assertEquals(403, fetch(location).statusCode());
            // url_gravacao is the permanent link: it still works.
            stack.clock.set(NOW);
            String permanent = ServerFixture.json(stack.get("/v1/ligacoes/LNK", mine.token()))
                    .at("/metadata/url_gravacao")
                    .asText();
            stack.clock.advance(Duration.ofDays(400));
            assertEquals(200, fetch(permanent).statusCode());
        } finally {
            stack.clock.set(NOW);
        }
    }

    @Test
    void aCursorIsBoundToTheIntegrationSoAWalkSurvivesATokenRotation() {
        CallTokens.Issued first = stack.integration();
        Instant at = stack.clock.instant().minusSeconds(50);
        stack.ingest(List.of(
                ready(first.integration().id(), "GIRO1", at),
                ready(first.integration().id(), "GIRO2", at)));
        String cursor = cursorOf(stack.get("/v1/ligacoes?limite=1", first.token()));
        CallTokens.Issued second =
                stack.store.callTokens().rotate(first.integration().name());
        HttpResponse<String> next = stack.get("/v1/ligacoes?limite=1&cursor=" + cursor, second.token());
        assertEquals(200, next.statusCode(), next.body());
        assertEquals(List.of("GIRO1"), ids(ServerFixture.json(next)));
    }

    @Test
    void rotationRefusesTheOldTokenAtOnceAndTheNewOneWorks() {
        CallTokens.Issued first = stack.integration();
        stack.ingest(List.of(
                ready(first.integration().id(), "ROT", stack.clock.instant().minusSeconds(30))));
        assertEquals(200, stack.get("/v1/ligacoes/ROT", first.token()).statusCode());
        CallTokens.Issued second =
                stack.store.callTokens().rotate(first.integration().name());
        HttpResponse<String> old = stack.get("/v1/ligacoes/ROT", first.token());
        assertError(old, 401, "nao_autorizado");
        contract.check("/v1/ligacoes/{id}", old);
        assertEquals(200, stack.get("/v1/ligacoes/ROT", second.token()).statusCode());
        assertTrue(stack.store.callTokens().revoke(second.tokenId()));
        assertError(stack.get("/v1/ligacoes", second.token()), 401, "nao_autorizado");
    }

    @Test
    void refusesMissingTokensAndCompanyDataKeys() {
        String apiKey = stack.f.key(stack.f.account(0, 1_000));
        for (HttpResponse<String> r : List.of(
                stack.get("/v1/ligacoes", null),
                stack.get("/v1/ligacoes", apiKey),
                stack.get("/v1/ligacoes", "x".repeat(43)))) {
            assertError(r, 401, "nao_autorizado");
            contract.check("/v1/ligacoes", r);
        }
    }

    @Test
    void aFractionFinerThanAMicrosecondRoundsDesdeUpAndAteDown() {
        CallTokens.Issued mine = stack.integration();
        Instant at = stack.clock.instant().minusSeconds(40);
        stack.ingest(List.of(ready(mine.integration().id(), "FRACAO", at)));
        // 400 ns after the call: the store keeps microseconds, so desde must become at + 1 us, not at.
        assertEquals(
                List.of(), ids(ServerFixture.json(stack.get("/v1/ligacoes?desde=" + at.plusNanos(400), mine.token()))));
        assertEquals(
                List.of("FRACAO"),
                ids(ServerFixture.json(stack.get("/v1/ligacoes?desde=" + at.minusNanos(400), mine.token()))));
        // 400 ns before the call: ate must become at - 1 us, not be rounded to the call's microsecond.
        assertEquals(
                List.of(), ids(ServerFixture.json(stack.get("/v1/ligacoes?ate=" + at.minusNanos(400), mine.token()))));
        assertEquals(
                List.of("FRACAO"),
                ids(ServerFixture.json(stack.get(
                        "/v1/ligacoes?desde=" + at.minusSeconds(1) + "&ate=" + at.plusNanos(400), mine.token()))));
    }

    @Test
    void ateWithoutAFractionTakesTheWholeSecondItNamesAndWithOneTheExactInstant() {
        CallTokens.Issued mine = stack.integration();
        long id = mine.integration().id();
        // 14:58:00Z is 11:58:00 in Brasília time, the form datahistorico shows.
        Instant second = stack.clock.instant().minusSeconds(120);
        stack.ingest(List.of(
                ready(id, "INICIO", second),
                ready(id, "FIM", second.plusNanos(999_999_000)),
                ready(id, "SEGUINTE", second.plusSeconds(1))));
        JsonNode all = ServerFixture.json(stack.get("/v1/ligacoes", mine.token()));
        for (JsonNode item : all.path("ligacoes")) {
            String shown = item.at("/metadata/datahistorico").asText();
            assertEquals(
                    item.at("/metadata/id").asText().equals("SEGUINTE") ? "2026-11-20T11:58:01" : "2026-11-20T11:58:00",
                    shown);
        }
        // The second as shown: both calls shown at 11:58:00, not the next second's first microsecond.
        for (String q : List.of(
                "ate=2026-11-20T11:58:00",
                "desde=2026-11-20T11:58:00&ate=2026-11-20T11:58:00",
                "ate=2026-11-20T14:58:00Z",
                "ate=2026-11-20T11:58",
                "ate=2026-11-20T11:58:00.999999",
                "ate=2026-11-20T11:58:00.9999999")) {
            HttpResponse<String> r = stack.get("/v1/ligacoes?" + q, mine.token());
            contract.check("/v1/ligacoes", r);
            assertEquals(List.of("FIM", "INICIO"), ids(ServerFixture.json(r)), q);
        }
        // A fraction is the exact instant, even a zero one.
        assertEquals(
                List.of("INICIO"),
                ids(ServerFixture.json(stack.get("/v1/ligacoes?ate=2026-11-20T11:58:00.999998", mine.token()))));
        assertEquals(
                List.of("INICIO"),
                ids(ServerFixture.json(stack.get("/v1/ligacoes?ate=2026-11-20T11:58:00.000", mine.token()))));
        // desde without a fraction is the first microsecond of its second: already the whole second.
        assertEquals(
                List.of("SEGUINTE", "FIM", "INICIO"),
                ids(ServerFixture.json(stack.get("/v1/ligacoes?desde=2026-11-20T11:58:00", mine.token()))));
        assertEquals(
                List.of("SEGUINTE"),
                ids(ServerFixture.json(stack.get("/v1/ligacoes?desde=2026-11-20T11:58:01", mine.token()))));
        assertEquals(
                List.of("SEGUINTE"),
                ids(ServerFixture.json(
                        stack.get("/v1/ligacoes?desde=2026-11-20T11:58:01&ate=2026-11-20T11:58:01", mine.token()))));
    }

    @Test
    void farFutureOrPastDatesAreRefusedNamingTheParameterNotAnError500() {
        CallTokens.Issued mine = stack.integration();
        for (String q : List.of(
                "desde=%2B999999999-12-31T23:59:59Z",
                "ate=%2B999999999-12-31T23:59:59Z",
                "desde=0001-01-01T00:00:00",
                "ate=-999999999-01-01T00:00:00Z",
                "desde=10000-01-01T00:00:00",
                "ate=1969-12-31T23:59:59Z")) {
            HttpResponse<String> r = stack.get("/v1/ligacoes?" + q, mine.token());
            assertError(r, 400, "parametro_invalido");
            String message = ServerFixture.json(r).path("mensagem").asText();
            assertTrue(message.startsWith(q.substring(0, q.indexOf('='))), q + " -> " + message);
            assertTrue(message.contains("1970") && message.contains("9999"), q + " -> " + message);
        }
        assertEquals(
                200,
                stack.get("/v1/ligacoes?desde=1970-01-01T00:00:00Z&ate=9999-12-31T23:59:59", mine.token())
                        .statusCode());
    }

    @Test
    void aCallArchivedLateIsFoundBySyncingFromTheLastMarkMinusTheArchiveLag() {
        CallTokens.Issued mine = stack.integration();
        long id = mine.integration().id();
        Instant now = stack.clock.instant();
        Instant lateAt = now.minus(Duration.ofMinutes(9));
        stack.ingest(List.of(
                CallsStack.call(
                        id, "CEDO", now.minus(Duration.ofMinutes(10)), now.minus(Duration.ofMinutes(9)), "vendas"),
                CallsStack.call(id, "TARDIA", lateAt, null, "vendas"),
                CallsStack.call(
                        id, "NOVA", now.minus(Duration.ofMinutes(5)), now.minus(Duration.ofMinutes(4)), "vendas")));
        Set<String> processed = new HashSet<>();
        String mark = null;
        for (JsonNode call : syncFrom(mine.token(), null)) {
            processed.add(call.path("id").asText());
            mark = max(mark, call.path("datahistorico").asText());
        }
        assertEquals(Set.of("CEDO", "NOVA"), processed);
        assertEquals(CallJson.wireTime(now.minus(Duration.ofMinutes(5))), mark);

        // The recording is archived 9 minutes after the classification, at its old datahistorico,
        // behind the mark: a sync from the mark alone would never see it.
        stack.ingest(List.of(CallsStack.call(id, "TARDIA", lateAt, now, "vendas")));
        String desde = LocalDateTime.parse(mark).minusMinutes(15).toString();
        List<JsonNode> fresh = new ArrayList<>();
        for (JsonNode call : syncFrom(mine.token(), desde)) {
            if (processed.add(call.path("id").asText())) {
                fresh.add(call);
            }
        }
        assertEquals(1, fresh.size(), fresh.toString());
        JsonNode late = fresh.get(0);
        assertEquals("TARDIA", late.path("id").asText());
        assertTrue(late.path("datahistorico").asText().compareTo(mark) < 0, "it sorts behind the mark");
        assertEquals(CallJson.wireTime(now), late.path("disponivel_em").asText());
        assertEquals(CallJson.wireTime(lateAt), late.path("datahistorico").asText());
    }

    private static String max(String a, String b) {
        return a == null || b.compareTo(a) > 0 ? b : a;
    }

    /** Every page from {@code desde} (or the whole window), the metadata objects in order. */
    private static List<JsonNode> syncFrom(String token, String desde) {
        List<JsonNode> calls = new ArrayList<>();
        String cursor = null;
        do {
            String q = "/v1/ligacoes?limite=1" + (desde == null ? "" : "&desde=" + desde)
                    + (cursor == null ? "" : "&cursor=" + cursor);
            HttpResponse<String> r = stack.get(q, token);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode body = ServerFixture.json(r);
            body.path("ligacoes").forEach(item -> calls.add(item.path("metadata")));
            JsonNode next = body.at("/paginacao/proximo_cursor");
            cursor = next.isNull() ? null : next.asText();
        } while (cursor != null);
        return calls;
    }

    @Test
    void anotherIntegrationsCallsAreInvisible() {
        CallTokens.Issued mine = stack.integration();
        CallTokens.Issued theirs = stack.integration();
        stack.ingest(List.of(
                ready(theirs.integration().id(), "ALHEIA", stack.clock.instant().minusSeconds(30))));
        assertEquals(List.of(), ids(ServerFixture.json(stack.get("/v1/ligacoes", mine.token()))));
        assertError(stack.get("/v1/ligacoes/ALHEIA", mine.token()), 404, "nao_encontrada");
        assertError(stack.get("/v1/ligacoes/ALHEIA/audio", mine.token()), 404, "nao_encontrada");
        assertEquals(List.of("ALHEIA"), ids(ServerFixture.json(stack.get("/v1/ligacoes", theirs.token()))));
    }

    @Test
    void aClientFollowingTheRedirectSendsNoAuthorizationToTheRecordingHost() {
        CallTokens.Issued mine = stack.integration();
        stack.ingest(List.of(
                ready(mine.integration().id(), "REDIR", stack.clock.instant().minusSeconds(30))));
        stack.hostSaw.clear();
        HttpResponse<String> r = stack.send(
                stack.following,
                HttpRequest.newBuilder(stack.uri("/v1/ligacoes/REDIR/audio"))
                        .header("Authorization", "Bearer " + mine.token())
                        .build());
        assertEquals(200, r.statusCode());
        assertEquals("RIFFREDIR", r.body());
        assertEquals(1, stack.hostSaw.size(), "the recording host saw one request");
        Headers seen = stack.hostSaw.peek();
        assertFalse(seen.contains("Authorization"), "the recording host received " + seen);
        // The host needs no token: the signature alone is the credential.
        assertFalse(String.valueOf(seen).contains(mine.token()));
    }

    /** A client's model of a call: what it reads, ignoring whatever else the object carries. */
    record ClientCall(String id, String datahistorico, String url_gravacao, String ocorrencia_descricao) {}

    record ClientItem(ClientCall metadata) {}

    record ClientPaging(Integer limite, Integer retornados, String proximo_cursor) {}

    record ClientPage(List<ClientItem> ligacoes, ClientPaging paginacao) {}

    @Test
    void aClientIgnoringUnknownFieldsKeepsWorkingWhenAFieldIsAdded() throws Exception {
        CallTokens.Issued mine = stack.integration();
        long id = mine.integration().id();
        List<CallRecord> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            calls.add(ready(id, "U" + i, stack.clock.instant().minusSeconds(10 + i)));
        }
        stack.ingest(calls);
        // The same store behind a later server version that adds a field to every object it answers.
        try (CallsStack later = new CallsStack(NOW, runtime, CallRecordsEndToEndTest::withAddedFields)) {
            List<String> before = sync(stack, mine.token());
            List<String> after = sync(later, mine.token());
            assertEquals(List.of("U0", "U1", "U2", "U3", "U4"), before);
            assertEquals(before, after);
            JsonNode added = ServerFixture.json(later.get("/v1/ligacoes/U0", mine.token()));
            assertEquals("novo", added.at("/metadata/campo_novo").asText(), "the field was really added");
            // A client that refused unknown fields would have broken.
            ObjectMapper strict = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
            assertTrue(failsToRead(
                    strict, later.get("/v1/ligacoes/U0", mine.token()).body()));
            assertFalse(failsToRead(
                    strict, stack.get("/v1/ligacoes/U0", mine.token()).body()));
        }
    }

    private static boolean failsToRead(ObjectMapper strict, String body) {
        try {
            strict.readerFor(StrictItem.class).readValue(body);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** A client that maps exactly the fields served today (the call record's and disponivel_em) and refuses anything else. */
    record StrictCall(
            String id,
            String id_ocorrencia,
            String funcionario_id,
            String funcionario_nome,
            String funcionario_email,
            String url_gravacao,
            String datahistorico,
            String horario_inicio,
            String horario_fim,
            int duracao_gravacao,
            String ocorrencia_codigo,
            String ocorrencia_descricao,
            String disponivel_em) {}

    record StrictItem(StrictCall metadata) {}

    /** A client's sync: every page, read into its own model, ids in order. */
    private static List<String> sync(CallsStack on, String token) throws IOException {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            HttpResponse<String> r =
                    on.get("/v1/ligacoes?limite=2" + (cursor == null ? "" : "&cursor=" + cursor), token);
            assertEquals(200, r.statusCode(), r.body());
            ClientPage page = TOLERANT.readValue(r.body(), ClientPage.class);
            page.ligacoes().forEach(item -> ids.add(item.metadata().id()));
            cursor = page.paginacao().proximo_cursor();
        } while (cursor != null);
        return ids;
    }

    private static byte[] withAddedFields(byte[] body) {
        try {
            JsonNode tree = JSON.readTree(body);
            if (tree instanceof ObjectNode o) {
                o.put("campo_raiz_novo", 1);
                if (o.get("metadata") instanceof ObjectNode m) {
                    m.put("campo_novo", "novo");
                }
                o.path("ligacoes").forEach(item -> ((ObjectNode) item.get("metadata")).put("campo_novo", "novo"));
                if (o.get("paginacao") instanceof ObjectNode p) {
                    p.put("total_estimado", 5);
                }
            }
            return JSON.writeValueAsBytes(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyErrorCodeOfTheServiceIsAnsweredAsItsOpenApiDocumentSays() {
        CallTokens.Issued mine = stack.integration();
        long id = mine.integration().id();
        stack.ingest(List.of(
                ready(id, "DOC", stack.clock.instant().minusSeconds(30)),
                CallsStack.call(id, "DOC-PENDENTE", stack.clock.instant(), null, "receptiva")));
        String t = mine.token();
        contract.check("/v1/ligacoes", stack.get("/v1/ligacoes", t));
        contract.check("/v1/ligacoes/{id}", stack.get("/v1/ligacoes/DOC", t));
        Set<String> codes = new java.util.TreeSet<>();
        List<String[]> cases = List.of(
                new String[] {"/v1/ligacoes", "/v1/ligacoes", null},
                new String[] {"/v1/ligacoes", "/v1/ligacoes?limite=201", t},
                new String[] {"/v1/ligacoes", "/v1/ligacoes?desde=ontem", t},
                new String[] {"/v1/ligacoes", "/v1/ligacoes?agente=", t},
                new String[] {"/v1/ligacoes/{id}", "/v1/ligacoes/NADA", t},
                new String[] {"/v1/ligacoes/{id}", "/v1/ligacoes/DOC/outra/coisa", t},
                new String[] {"/v1/ligacoes/{id}/audio", "/v1/ligacoes/DOC-PENDENTE/audio", t},
                new String[] {"/v1/ligacoes/{id}/audio", "/v1/ligacoes/NADA/audio", t},
                new String[] {"/v1/ligacoes/{id}/audio", "/v1/ligacoes/DOC/audio?x=1", t});
        for (String[] c : cases) {
            HttpResponse<String> r = stack.get(c[1], c[2]);
            contract.check(c[0], r);
            codes.add(ServerFixture.json(r).path("erro").asText());
        }
        Set<String> catalogue = EnumSet.allOf(ErrorCode.class).stream()
                .filter(code -> code.service() == Service.CALL_RECORDS)
                .map(ErrorCode::wire)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
        assertEquals(catalogue, codes, "every code of the call-records catalogue was answered and checked");
        JsonNode documented = contract.document().at("/components/schemas/Erro/properties/erro/enum");
        catalogue.forEach(code -> assertTrue(documented.toString().contains("\"" + code + "\""), code));
        // The 302 is documented with its headers.
        assertFalse(contract.document()
                .at("/paths/~1v1~1ligacoes~1{id}~1audio/get/responses/302/headers/Location")
                .isMissingNode());
        HttpResponse<String> openapi = stack.get("/v1/openapi.json", null);
        assertEquals(200, openapi.statusCode());
    }

    private HttpResponse<String> fetch(String url) {
        return stack.send(stack.client, HttpRequest.newBuilder(URI.create(url)).build());
    }

    private static List<String> ids(JsonNode list) {
        List<String> ids = new ArrayList<>();
        list.path("ligacoes").forEach(item -> ids.add(item.at("/metadata/id").asText()));
        return ids;
    }
}
