package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.RegisterQuery;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code POST /v1/mailing/estimativa} through a real socket: the count a count-only search answers and
 * the credits a real {@code POST /v1/mailing} of the same body holds, for free; every answer checked
 * against the OpenAPI document.
 */
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class MailingEstimateEndToEndTest {
    private static final String ESTIMATE = "/v1/mailing/estimativa";

    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static ServerFixture f;
    private static OpenApiContract contract;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) {
        f = ServerFixture.on(runtime);
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
    }

    private static HttpResponse<String> send(String path, String method, String key, String body, String... more) {
        HttpRequest.Builder b = HttpRequest.newBuilder(f.uri(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        for (int i = 0; i < more.length; i += 2) {
            b.header(more[i], more[i + 1]);
        }
        HttpResponse<String> r = f.send(
                b.method(method, HttpRequest.BodyPublishers.ofString(body)).build());
        contract.check(path.replaceFirst("[?].*", ""), method.toLowerCase(java.util.Locale.ROOT), r);
        return r;
    }

    static HttpResponse<String> estimate(String key, String body, String... more) {
        return send(ESTIMATE, "POST", key, body, more);
    }

    private static JsonNode ok(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        return json(r);
    }

    private static CountResult count(String uf) {
        return f.server.register().count(RegisterQuery.builder().ufs(uf).build());
    }

    /** The state with the fewest establishments in the fixture's register (at least one). */
    private static String smallestState() {
        String best = null;
        long fewest = Long.MAX_VALUE;
        for (String uf : List.of("AC", "AP", "RR", "RO", "TO", "SE", "AL", "PI", "MS", "DF")) {
            long n = count(uf).total();
            if (n > 0 && n < fewest) {
                best = uf;
                fewest = n;
            }
        }
        return best;
    }

    private static Balance credits(Account account) {
        return f.server.store().ledger().balance(account.id(), CreditKind.CREDITS);
    }

    @Test
    void aSmallFilterHoldsItsTotalAndALargeOneTheQuantity() {
        String key = f.key(f.account(0, 10_000), Scope.MAILING_READ);
        String small = smallestState();
        CountResult smallCount = count(small);
        assertTrue(smallCount.total() < 100, "the fixture's smallest state is small: " + smallCount);
        JsonNode s = ok(estimate(key, "{\"filtros\": {\"ufs\": [\"" + small + "\"]}, \"quantidade\": 100}"));
        assertEquals(smallCount.total(), s.path("total").asLong());
        assertFalse(s.path("aproximado").asBoolean());
        assertEquals(100, s.path("quantidade").asInt());
        assertEquals(smallCount.total(), s.path("creditos_reservados").asLong(), "min(quantidade, total)");
        assertEquals(0, s.path("creditos_consumidos").asInt());

        CountResult sp = count("SP");
        assertTrue(sp.total() > 25, "SP is large in the fixture: " + sp);
        JsonNode l = ok(estimate(key, "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 25}"));
        assertEquals(sp.total(), l.path("total").asLong());
        assertEquals(25, l.path("creditos_reservados").asLong(), "min(quantidade, total)");

        // Without quantidade: the largest export, 50,000, which holds the whole total here.
        JsonNode all = ok(estimate(key, "{\"filtros\": {\"ufs\": [\"SP\"]}}"));
        assertEquals(50_000, all.path("quantidade").asInt());
        assertEquals(sp.total(), all.path("creditos_reservados").asLong());

        // A filter that matches nothing still holds 1 credit while its export would run.
        JsonNode none = ok(estimate(
                key, "{\"filtros\": {\"ufs\": [\"SP\"], \"capital_min\": 99999999999999}, \"quantidade\": 9}"));
        assertEquals(0, none.path("total").asLong());
        assertEquals(1, none.path("creditos_reservados").asLong());
    }

    @Test
    void theTotalIsTheCountOfACountOnlySearch() {
        Account account = f.account(0, 10_000);
        String filter = "\"ufs\": [\"RJ\", \"MG\"], \"situacao_cadastral\": [\"02\"]";
        JsonNode e = ok(estimate(f.key(account, Scope.MAILING_READ), "{\"filtros\": {" + filter + "}}"));
        HttpResponse<String> search = f.get(
                "/v1/empresas?ufs=RJ&ufs=MG&situacao_cadastral=02&apenas_total=true",
                "X-API-Key",
                f.key(account, Scope.EMPRESAS_READ));
        assertEquals(200, search.statusCode(), search.body());
        assertEquals(json(search).path("total").asLong(), e.path("total").asLong());
        assertEquals(
                json(search).path("aproximado").asBoolean(),
                e.path("aproximado").asBoolean());
    }

    /**
     * The estimate's credits are the real hold: an account funded with exactly that many credits can
     * create the export, one funded with one credit fewer is refused 402 (the hold is at most, and at
     * least, the estimate).
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 30}",
                "{\"filtros\": {\"ufs\": [\"@SMALL\"]}, \"quantidade\": 500, \"formato\": \"xlsx\"}",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"capital_min\": 99999999999999}, \"quantidade\": 7}"
            })
    void theEstimatesCreditsAreTheHoldARealExportPlaces(String template) {
        String body = template.replace("@SMALL", smallestState());
        long credits = ok(estimate(f.key(f.account(0, 10_000), Scope.MAILING_READ), body))
                .path("creditos_reservados")
                .asLong();

        Account exact = f.account(credits, 10_000);
        HttpResponse<String> created = send("/v1/mailing", "POST", f.key(exact, Scope.MAILING_EXPORT), body);
        assertEquals(200, created.statusCode(), created.body());

        Account short1 = f.account(credits - 1, 10_000);
        HttpResponse<String> refused = send("/v1/mailing", "POST", f.key(short1, Scope.MAILING_EXPORT), body);
        assertEquals(402, refused.statusCode(), refused.body());
        assertEquals("SEM_CREDITOS", json(refused).path("erro").path("code").asText());
    }

    @Test
    void anEstimateChargesNothingHoldsNothingAndMakesNoJob() {
        Account account = f.account(50, 10_000);
        String key = f.key(account, Scope.MAILING_READ, Scope.MAILING_EXPORT);
        Balance before = credits(account);
        int entries = f.server
                .store()
                .ledger()
                .statement(account.id(), CreditKind.CREDITS, 100)
                .size();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = estimate(key, "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 40}");
            assertEquals(40, ok(r).path("creditos_reservados").asLong());
            assertTrue(r.headers().firstValue("X-Creditos-Saldo").isEmpty(), "not a paid answer");
            assertTrue(r.headers().firstValue("X-RateLimit-Remaining").isPresent(), "counted like any call");
        }
        assertEquals(before, credits(account));
        assertEquals(new Balance(CreditKind.CREDITS, 50, 0), credits(account));
        assertEquals(
                entries,
                f.server
                        .store()
                        .ledger()
                        .statement(account.id(), CreditKind.CREDITS, 100)
                        .size());
        assertTrue(f.server
                .store()
                .mailingJobs()
                .list(Optional.of(account.id()), 10)
                .isEmpty());
    }

    @Test
    void theIdempotencyKeyIsNotRead() {
        String key = f.key(f.account(0, 10_000), Scope.MAILING_READ);
        JsonNode a =
                ok(estimate(key, "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 3}", "Idempotency-Key", "k-1"));
        // The same key with another body: answered afresh, not refused as a reuse.
        JsonNode b =
                ok(estimate(key, "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 4}", "Idempotency-Key", "k-1"));
        assertEquals(3, a.path("creditos_reservados").asLong());
        assertEquals(4, b.path("creditos_reservados").asLong());
    }

    @Test
    void aKeyWithoutMailingReadIs403AndNoKeyOrAnInvalidOneIs401() {
        Account account = f.account(100, 10_000);
        String body = "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 3}";
        for (Scope other : List.of(Scope.MAILING_EXPORT, Scope.EMPRESAS_READ)) {
            HttpResponse<String> r = estimate(f.key(account, other), body);
            assertEquals(403, r.statusCode(), r.body());
            assertEquals("SEM_ESCOPO", json(r).path("erro").path("code").asText());
            assertTrue(json(r).path("erro").path("mensagem").asText().contains("mailing:read"), r.body());
        }
        HttpResponse<String> none = estimate(null, body);
        assertEquals(401, none.statusCode(), none.body());
        assertEquals("SEM_CHAVE", json(none).path("erro").path("code").asText());
        HttpResponse<String> invalid = estimate("cad_AAAAAAAAAAAA_" + "B".repeat(43), body);
        assertEquals(401, invalid.statusCode(), invalid.body());
        assertTrue(json(invalid).path("erro").path("code").asText().startsWith("CHAVE_"), invalid.body());
        assertEquals(100, f.balance(account));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "not json|body",
                "[1, 2]|body",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 0}|quantidade",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 50001}|quantidade",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": \"10\"}|quantidade",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": null}|quantidade",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 99999999999999999999999}|quantidade",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"formato\": \"pdf\"}|formato",
                "{\"quantidade\": 10}|filtros",
                "{\"filtros\": {}}|filtros",
                "{\"filtros\": {\"estado\": [\"SP\"]}}|filtros.estado",
                "{\"filtros\": {\"ufs\": [\"XX\"]}}|filtros.ufs",
                "{\"filtros\": {\"ufs\": [1]}}|filtros.ufs",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"mei\": \"true\"}}|filtros.mei",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"capital_min\": 1e999999999}}|filtros.capital_min",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"apenas_total\": true}}|filtros.apenas_total",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"extra\": 1}|extra"
            })
    void badBodiesAre422NamingTheField(String body, String field) {
        Account account = f.account(100, 10_000);
        HttpResponse<String> r = estimate(f.key(account, Scope.MAILING_READ), body);
        assertEquals(422, r.statusCode(), body + " -> " + r.body());
        JsonNode erro = json(r).path("erro");
        assertEquals("PARAMETRO_INVALIDO", erro.path("code").asText());
        assertTrue(erro.path("detalhe").asText().startsWith("campo=" + field + ";"), body + " -> " + r.body());
        assertEquals(new Balance(CreditKind.CREDITS, 100, 0), credits(account));
    }

    @Test
    void aQueryParameterIs422() {
        HttpResponse<String> r = send(
                ESTIMATE + "?quantidade=3",
                "POST",
                f.key(f.account(0, 10_000), Scope.MAILING_READ),
                "{\"filtros\": {\"ufs\": [\"SP\"]}}");
        assertEquals(422, r.statusCode(), r.body());
        assertTrue(json(r).path("erro").path("detalhe").asText().startsWith("campo=quantidade;"), r.body());
    }

    /** Malformed bodies of every kind are refused in the envelope, never answered 500. */
    @Test
    void noMalformedBodyAnswers500() {
        String key = f.key(f.account(10, 10_000), Scope.MAILING_READ);
        String deep = "[".repeat(5_000) + "]".repeat(5_000);
        String deepObject = "{\"a\":".repeat(3_000) + "1" + "}".repeat(3_000);
        List<String> bodies = List.of(
                "",
                "null",
                "true",
                "\"filtros\"",
                "{",
                "{\"filtros\": " + deep + "}",
                "{\"filtros\": " + deepObject + "}",
                "{\"filtros\": {\"ufs\": " + deep + "}}",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 1e999999999}",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": -0}",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 1.0}",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": [10]}",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": {\"n\": 10}}",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"capital_max\": -1e308}}",
                "{\"filtros\": {\"ufs\": [null]}}",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"abertura_de\": 20200101}}",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"abertura_de\": \"2020-13-45\"}}",
                "{\"filtros\": {\"municipios\": [\"" + "x".repeat(100_000) + "\"]}}",
                "{\"filtros\": {\"ufs\": [\"SP\"]}}\u0000",
                "{\"filtros\": {\"ufs\": [\"S\\uD800P\"]}}",
                "{\"filtros\": {\"\": [\"SP\"]}}");
        for (String body : bodies) {
            HttpResponse<String> r = estimate(key, body);
            assertTrue(
                    r.statusCode() == 200 || r.statusCode() == 413 || r.statusCode() == 422,
                    r.statusCode() + " for " + body.substring(0, Math.min(80, body.length())) + ": " + r.body());
        }
    }
}
