package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.http.callrecords.CallRecordsApi;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The call feed ({@code GET /v1/ligacoes?ordem=disponibilidade}, ADR 0048) through a real socket and the
 * embedded PostgreSQL: its order (by when a call became listable or was reclassified, not by {@code
 * datahistorico}), its cursor kept across polls, resuming from {@code atualizado_em} with the id as
 * tie-break, its refusals in the call-records envelope against the OpenAPI document, and the default
 * listing left as it was.
 */
class CallFeedTest {
    private static final Instant NOW = Instant.parse("2026-11-20T15:00:00Z");
    private static final CallsStack stack = new CallsStack(NOW);
    private static final OpenApiContract contract =
            new OpenApiContract(new String(CallRecordsApi.openApiDocument(), StandardCharsets.UTF_8));

    @AfterAll
    static void close() {
        stack.close();
    }

    private static CallRecord call(long integration, String id, Instant classified, Instant archived, String result) {
        return new CallRecord(
                integration,
                id,
                id,
                "F1",
                "agente.a",
                "Agente A",
                id.startsWith("R") ? "receptiva" : "vendas",
                "R1",
                result,
                classified,
                classified.minusSeconds(90),
                60,
                archived,
                "calls/" + integration + "/" + id + ".wav");
    }

    private static JsonNode ok(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        contract.check("/v1/ligacoes", r);
        return ServerFixture.json(r);
    }

    private static List<String> ids(JsonNode body) {
        List<String> out = new ArrayList<>();
        body.path("ligacoes").forEach(i -> out.add(i.at("/metadata/id").asText()));
        return out;
    }

    private static void assertRefused(HttpResponse<String> r, String parameter) {
        assertEquals(400, r.statusCode(), r.body());
        contract.check("/v1/ligacoes", r);
        JsonNode body = ServerFixture.json(r);
        assertEquals("parametro_invalido", body.path("erro").asText(), r.body());
        assertTrue(body.path("mensagem").asText().startsWith(parameter + " "), parameter + " -> " + r.body());
    }

    @Test
    void listsCallsInTheOrderTheyBecameListableAndAgainWhenReclassified() {
        CallTokens.Issued issued = stack.integration();
        long i = issued.integration().id();
        Instant t = NOW.minusSeconds(3_600);
        // A is classified first but archived last: the default list puts it last, the feed too, after B.
        stack.store
                .calls()
                .ingest(List.of(call(i, "A", t, null, "Venda"), call(i, "B", t.plusSeconds(60), null, "Venda")));
        JsonNode empty = ok(stack.get("/v1/ligacoes?ordem=disponibilidade", issued.token()));
        assertEquals(List.of(), ids(empty));
        assertTrue(empty.at("/paginacao/proximo_cursor").isNull(), "no cursor before the first call");

        stack.store.calls().ingest(List.of(call(i, "B", t.plusSeconds(60), t.plusSeconds(200), "Venda")));
        JsonNode first = ok(stack.get("/v1/ligacoes?ordem=disponibilidade", issued.token()));
        assertEquals(List.of("B"), ids(first));
        String cursor = first.at("/paginacao/proximo_cursor").asText();
        assertFalse(cursor.isEmpty());

        stack.store.calls().ingest(List.of(call(i, "A", t, t.plusSeconds(400), "Venda")));
        // The recommended sync from B's datahistorico never lists A (classified before B).
        String mark = ServerFixture.json(stack.get("/v1/ligacoes", issued.token()))
                .at("/ligacoes/0/metadata/datahistorico")
                .asText();
        assertEquals(
                List.of("B"),
                ids(ok(stack.get(
                        "/v1/ligacoes?desde=" + URLEncoder.encode(mark, StandardCharsets.UTF_8), issued.token()))));
        JsonNode second = ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + cursor, issued.token()));
        assertEquals(List.of("A"), ids(second));
        String afterA = second.at("/paginacao/proximo_cursor").asText();

        // Nothing new: the same cursor comes back, so the client always has one to keep.
        JsonNode idle = ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + afterA, issued.token()));
        assertEquals(List.of(), ids(idle));
        assertEquals(afterA, idle.at("/paginacao/proximo_cursor").asText());

        // B reclassified: it comes again, once, with its new classification.
        stack.store.calls().ingest(List.of(call(i, "B", t.plusSeconds(900), t.plusSeconds(200), "Retorno")));
        JsonNode again = ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + afterA, issued.token()));
        assertEquals(List.of("B"), ids(again));
        assertEquals(
                "Retorno", again.at("/ligacoes/0/metadata/ocorrencia_descricao").asText());
        String afterB = again.at("/paginacao/proximo_cursor").asText();
        assertEquals(
                List.of(), ids(ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + afterB, issued.token()))));

        // From the start, each call once, at its latest place.
        JsonNode all = ok(stack.get("/v1/ligacoes?ordem=disponibilidade", issued.token()));
        assertEquals(List.of("A", "B"), ids(all));
        String a = all.at("/ligacoes/0/metadata/atualizado_em").asText();
        String b = all.at("/ligacoes/1/metadata/atualizado_em").asText();
        assertTrue(a.compareTo(b) < 0, a + " then " + b);
        // disponivel_em keeps its meaning: the archive time.
        assertEquals(
                all.at("/ligacoes/1/metadata/disponivel_em").asText(),
                ServerFixture.json(stack.get("/v1/ligacoes/B", issued.token()))
                        .at("/metadata/disponivel_em")
                        .asText());
    }

    /**
     * A ready call the exchange sends again with its queue corrected (same classification) moves in the
     * feed, so a client following it, or filtering it by the new queue, sees the change; the same call
     * sent again unchanged does not move.
     */
    @Test
    void aReadyCallWhoseQueueChangesComesAgainAndAnUnchangedResendDoesNot() {
        CallTokens.Issued issued = stack.integration();
        long i = issued.integration().id();
        Instant t = NOW.minusSeconds(1_800);
        CallRecord sold = call(i, "Q", t, t.plusSeconds(200), "Venda");
        stack.store.calls().ingest(List.of(sold));
        JsonNode first = ok(stack.get("/v1/ligacoes?ordem=disponibilidade", issued.token()));
        assertEquals(List.of("Q"), ids(first));
        String cursor = first.at("/paginacao/proximo_cursor").asText();

        stack.store.calls().ingest(List.of(sold));
        assertEquals(
                List.of(),
                ids(ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + cursor, issued.token()))),
                "an unchanged resend is not a change");

        CallRecord moved = new CallRecord(
                sold.integrationId(),
                sold.id(),
                sold.occurrenceId(),
                sold.agentId(),
                sold.agentLogin(),
                sold.agentName(),
                "suporte",
                sold.resultCode(),
                sold.resultDescription(),
                sold.classifiedAt(),
                sold.startedAt(),
                sold.durationSeconds(),
                sold.archivedAt(),
                sold.recordingKey());
        // A client following queue suporte has already read a later call of it.
        CallRecord later = new CallRecord(
                i,
                "S",
                "S",
                "F1",
                "agente.a",
                "Agente A",
                "suporte",
                "R1",
                "Venda",
                t.plusSeconds(60),
                t.minusSeconds(30),
                60,
                t.plusSeconds(300),
                "calls/" + i + "/S.wav");
        stack.store.calls().ingest(List.of(later));
        JsonNode support = ok(stack.get("/v1/ligacoes?ordem=disponibilidade&fila=suporte", issued.token()));
        assertEquals(List.of("S"), ids(support));
        String supportCursor = support.at("/paginacao/proximo_cursor").asText();
        String afterS = ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + cursor, issued.token()))
                .at("/paginacao/proximo_cursor")
                .asText();

        stack.store.calls().ingest(List.of(moved));
        JsonNode again = ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + afterS, issued.token()));
        assertEquals(List.of("Q"), ids(again), "the queue change comes to the client holding the cursor");
        assertEquals(
                List.of("Q"),
                ids(ok(stack.get(
                        "/v1/ligacoes?ordem=disponibilidade&fila=suporte&cursor=" + supportCursor, issued.token()))),
                "and to one following the new queue");
    }

    /** One integration's token never reads another's feed, neither from the start nor with its cursor. */
    @Test
    void anIntegrationReadsOnlyItsOwnFeedAndAnothersCursorIsRefused() {
        CallTokens.Issued a = stack.integration();
        CallTokens.Issued b = stack.integration();
        Instant t = NOW.minusSeconds(5_400);
        stack.store
                .calls()
                .ingest(List.of(
                        call(a.integration().id(), "A-only", t, t.plusSeconds(200), "Venda"),
                        call(b.integration().id(), "B-only", t, t.plusSeconds(200), "Venda")));
        JsonNode ofA = ok(stack.get("/v1/ligacoes?ordem=disponibilidade", a.token()));
        assertEquals(List.of("A-only"), ids(ofA));
        assertEquals(List.of("B-only"), ids(ok(stack.get("/v1/ligacoes?ordem=disponibilidade", b.token()))));
        String cursorOfA = ofA.at("/paginacao/proximo_cursor").asText();
        assertRefused(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + cursorOfA, b.token()), "cursor");
    }

    @Test
    void pagesFollowTheCursorAndResumeFromAtualizadoEmWithTheIdAsTieBreak() {
        CallTokens.Issued issued = stack.integration();
        long i = issued.integration().id();
        Instant t = NOW.minusSeconds(7_200);
        // Three ingests: 3 calls, then 2, then 3; each ingest is one second of the feed.
        List<List<String>> batches = List.of(List.of("c1", "a1", "b1"), List.of("z2", "a2"), List.of("m3", "b3", "a3"));
        int n = 0;
        for (List<String> batch : batches) {
            List<CallRecord> calls = new ArrayList<>();
            for (String id : batch) {
                calls.add(call(i, id, t.plusSeconds(n++), t.plusSeconds(300), "Venda"));
            }
            stack.store.calls().ingest(calls);
        }
        List<String> expected = List.of("a1", "b1", "c1", "a2", "z2", "a3", "b3", "m3");

        // Pages of 3 by cursor.
        List<String> walked = new ArrayList<>();
        List<String> times = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; ; pages++) {
            assertTrue(pages < 10);
            JsonNode page = ok(stack.get(
                    "/v1/ligacoes?ordem=disponibilidade&limite=3" + (cursor == null ? "" : "&cursor=" + cursor),
                    issued.token()));
            walked.addAll(ids(page));
            page.path("ligacoes")
                    .forEach(x -> times.add(x.at("/metadata/atualizado_em").asText()));
            cursor = page.at("/paginacao/proximo_cursor").asText();
            if (page.at("/paginacao/retornados").asInt() < 3) {
                break;
            }
        }
        assertEquals(expected, walked);
        assertEquals(3, new TreeSet<>(times).size(), "one second per ingest: " + times);

        // A client that kept atualizado_em and id instead of the cursor: each call from a2 on, once.
        String kept = times.get(3);
        JsonNode resumed = ok(stack.get(
                "/v1/ligacoes?ordem=disponibilidade&disponivel_desde="
                        + URLEncoder.encode(kept, StandardCharsets.UTF_8),
                issued.token()));
        List<String> after = new ArrayList<>();
        for (JsonNode x : resumed.path("ligacoes")) {
            String at = x.at("/metadata/atualizado_em").asText();
            String id = x.at("/metadata/id").asText();
            if (at.compareTo(kept) > 0 || (at.equals(kept) && id.compareTo("a2") > 0)) {
                after.add(id);
            }
        }
        assertEquals(List.of("z2", "a3", "b3", "m3"), after);

        // The text filters apply, and the cursor is bound to them.
        JsonNode filtered = ok(stack.get("/v1/ligacoes?ordem=disponibilidade&fila=vendas&limite=2", issued.token()));
        assertEquals(List.of("a1", "b1"), ids(filtered));
        String filteredCursor = filtered.at("/paginacao/proximo_cursor").asText();
        assertRefused(
                stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + filteredCursor, issued.token()), "cursor");
        assertEquals(
                List.of("c1", "a2"),
                ids(ok(stack.get(
                        "/v1/ligacoes?ordem=disponibilidade&fila=vendas&limite=2&cursor=" + filteredCursor,
                        issued.token()))));
        assertEquals(
                List.of(), ids(ok(stack.get("/v1/ligacoes?ordem=disponibilidade&fila=receptiva", issued.token()))));
    }

    @Test
    void refusesBadCombinationsNamingTheParameter() {
        CallTokens.Issued issued = stack.integration();
        long i = issued.integration().id();
        Instant t = NOW.minusSeconds(600);
        stack.store.calls().ingest(List.of(call(i, "X1", t, t, "Venda"), call(i, "X2", t, t, "Venda")));
        String listCursor = ServerFixture.json(stack.get("/v1/ligacoes?limite=1", issued.token()))
                .at("/paginacao/proximo_cursor")
                .asText();
        String feedCursor = ServerFixture.json(stack.get("/v1/ligacoes?ordem=disponibilidade&limite=1", issued.token()))
                .at("/paginacao/proximo_cursor")
                .asText();
        assertNotEquals(listCursor, feedCursor);
        String token = issued.token();
        assertRefused(stack.get("/v1/ligacoes?ordem=chegada", token), "ordem");
        assertRefused(stack.get("/v1/ligacoes?ordem=", token), "ordem");
        assertRefused(stack.get("/v1/ligacoes?ordem=disponibilidade&ordem=disponibilidade", token), "ordem");
        assertRefused(stack.get("/v1/ligacoes?disponivel_desde=2026-11-20T10:00:00", token), "disponivel_desde");
        assertRefused(
                stack.get("/v1/ligacoes?ordem=datahistorico&disponivel_desde=2026-11-20T10:00:00", token),
                "disponivel_desde");
        assertRefused(stack.get("/v1/ligacoes?ordem=disponibilidade&desde=2026-11-20T10:00:00", token), "desde");
        assertRefused(stack.get("/v1/ligacoes?ordem=disponibilidade&ate=2026-11-20T10:00:00", token), "ate");
        assertRefused(
                stack.get("/v1/ligacoes?ordem=disponibilidade&disponivel_desde=ontem", token), "disponivel_desde");
        assertRefused(
                stack.get("/v1/ligacoes?ordem=disponibilidade&disponivel_desde=1969-12-31T23:59:59Z", token),
                "disponivel_desde");
        assertRefused(
                stack.get(
                        "/v1/ligacoes?ordem=disponibilidade&disponivel_desde=2026-11-20T10:00:00&cursor=" + feedCursor,
                        token),
                "disponivel_desde");
        assertRefused(stack.get("/v1/ligacoes?ordem=disponibilidade&limite=201", token), "limite");
        assertRefused(stack.get("/v1/ligacoes?ordem=disponibilidade&fila=", token), "fila");
        // A cursor of one order is refused by the other.
        assertRefused(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + listCursor, token), "cursor");
        assertRefused(stack.get("/v1/ligacoes?cursor=" + feedCursor, token), "cursor");
        // Another integration's token does not take this integration's feed cursor.
        assertRefused(
                stack.get(
                        "/v1/ligacoes?ordem=disponibilidade&cursor=" + feedCursor,
                        stack.integration().token()),
                "cursor");
        // And the cursors still work where they belong.
        assertEquals(
                List.of("X2"), ids(ok(stack.get("/v1/ligacoes?ordem=disponibilidade&cursor=" + feedCursor, token))));
        assertEquals(
                1,
                ids(ok(stack.get("/v1/ligacoes?cursor=" + listCursor, token))).size());
    }

    @Test
    void theDefaultListingIsUnchanged() {
        CallTokens.Issued issued = stack.integration();
        long i = issued.integration().id();
        Instant t = NOW.minusSeconds(1_800);
        stack.store
                .calls()
                .ingest(List.of(
                        call(i, "D1", t, t.plusSeconds(500), "Venda"),
                        call(i, "D2", t.plusSeconds(10), t.plusSeconds(100), "Venda"),
                        call(i, "D3", t.plusSeconds(20), null, "Venda")));
        String token = issued.token();
        HttpResponse<String> plain = stack.get("/v1/ligacoes", token);
        JsonNode body = ok(plain);
        // Newest first by datahistorico, whatever the archive order; only ready calls.
        assertEquals(List.of("D2", "D1"), ids(body));
        // The contract's fields and disponivel_em, nothing of the feed.
        Set<String> fields = new TreeSet<>();
        body.at("/ligacoes/0/metadata").fieldNames().forEachRemaining(fields::add);
        assertEquals(
                new TreeSet<>(List.of(
                        "id",
                        "id_ocorrencia",
                        "funcionario_id",
                        "funcionario_nome",
                        "funcionario_email",
                        "url_gravacao",
                        "datahistorico",
                        "horario_inicio",
                        "horario_fim",
                        "duracao_gravacao",
                        "ocorrencia_codigo",
                        "ocorrencia_descricao",
                        "disponivel_em")),
                fields);
        assertTrue(body.at("/paginacao/proximo_cursor").isNull());
        // ordem=datahistorico is the default, byte for byte.
        assertEquals(
                plain.body(),
                stack.get("/v1/ligacoes?ordem=datahistorico", token).body());
        // The feed: one ingest, one second, the calls by id.
        JsonNode feed = ok(stack.get("/v1/ligacoes?ordem=disponibilidade", token));
        assertEquals(List.of("D1", "D2"), ids(feed));
        assertTrue(feed.at("/ligacoes/0/metadata/atualizado_em").isTextual());
    }
}
