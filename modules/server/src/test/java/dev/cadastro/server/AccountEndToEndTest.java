package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/conta} through a real socket: what the asking key's account holds and may do, free,
 * never anything of another account or key; every answer checked against the OpenAPI document.
 */
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class AccountEndToEndTest {
    private static final String CONTA = "/v1/conta";

    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static ServerFixture f;
    private static OpenApiContract contract;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) {
        f = ServerFixture.on(runtime);
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
    }

    private static HttpResponse<String> conta(String key) {
        HttpResponse<String> r = key == null ? f.get(CONTA) : f.get(CONTA, "Authorization", "Bearer " + key);
        contract.check(CONTA, r);
        return r;
    }

    private static JsonNode ok(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        return json(r);
    }

    private static String prefix(String secret) {
        return ApiKeyToken.parse(secret).orElseThrow().prefix();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static void topUpSms(Account account, long sms) {
        f.server
                .store()
                .ledger()
                .topUp(account.id(), CreditKind.SMS_CREDITS, sms, IdempotencyKey.of("sms:" + UUID.randomUUID()), "e2e");
    }

    @Test
    void showsTheBalancesThePlanAndTheAskingKey() {
        Account account = f.account(1_234, 5_000);
        topUpSms(account, 7);
        f.server.store().accounts().contractPurpose(account.id(), Purpose.KYC_CADASTRO, Set.of("nome"));
        f.server.store().accounts().contractPurpose(account.id(), Purpose.ANALISE_CREDITO, Set.of("score"));
        String key = f.key(account, Scope.PESSOAS_READ, Scope.EMPRESAS_READ);
        f.server.store().apiKeys().setPersonLookupReleased(prefix(key), true);

        HttpResponse<String> r = conta(key);
        JsonNode c = ok(r);
        assertEquals(1_234, c.path("saldo_creditos").asLong());
        assertEquals(0, c.path("creditos_reservados").asLong());
        assertEquals(1_234, c.path("creditos_disponiveis").asLong());
        assertEquals(0, c.path("exportacoes_em_andamento").path("quantidade").asInt());
        assertEquals(7, c.path("saldo_sms").asLong());
        assertEquals("e2e", c.path("plano").asText());
        assertEquals(5_000, c.path("limite_diario").asLong());
        assertEquals(1, c.path("uso_hoje").asLong(), "this request is today's first");
        assertEquals(prefix(key), c.path("chave").path("prefixo").asText());
        assertEquals(
                List.of("empresas:read", "pessoas:read"), texts(c.path("chave").path("escopos")));
        assertTrue(c.path("consulta_pessoas").path("liberada").asBoolean());
        assertEquals(
                List.of("ANALISE_CREDITO", "KYC_CADASTRO"),
                texts(c.path("consulta_pessoas").path("finalidades")));
        assertFalse(r.body().contains(key), "never the secret");
        assertTrue(r.headers().firstValue("X-Creditos-Saldo").isEmpty(), "free: not a paid answer");
        assertEquals("4999", r.headers().firstValue("X-RateLimit-Remaining-Day").orElseThrow());

        // Counted like any call: today's use grows, and the balance does not move.
        JsonNode again = ok(conta(key));
        assertEquals(2, again.path("uso_hoje").asLong());
        assertEquals(1_234, again.path("saldo_creditos").asLong());
        assertEquals(1_234, f.balance(account));
    }

    @Test
    void anyValidKeyMayAskAndSeesItsOwnScopesAndRelease() {
        Account account = f.account(10, 1_000);
        String sms = f.key(account, Scope.SMS_OTP);
        JsonNode c = ok(conta(sms));
        assertEquals(List.of("sms:otp"), texts(c.path("chave").path("escopos")));
        assertFalse(c.path("consulta_pessoas").path("liberada").asBoolean());
        assertEquals(List.of(), texts(c.path("consulta_pessoas").path("finalidades")));
        assertEquals(prefix(sms), c.path("chave").path("prefixo").asText());
    }

    @Test
    void showsTheCreditsHeldByARunningExportAndTheirRelease() throws SQLException {
        Account account = f.account(500, 10_000);
        String key = f.key(account, Scope.MAILING_READ);
        String job = runningExport(account, 120);

        JsonNode running = ok(conta(key));
        assertEquals(500, running.path("saldo_creditos").asLong());
        assertEquals(120, running.path("creditos_reservados").asLong());
        assertEquals(380, running.path("creditos_disponiveis").asLong());
        assertEquals(
                1, running.path("exportacoes_em_andamento").path("quantidade").asInt());
        assertEquals(
                120,
                running.path("exportacoes_em_andamento")
                        .path("creditos_reservados")
                        .asLong());

        // A hold that is no export's counts as held, not as an export's.
        f.server
                .store()
                .ledger()
                .hold(new HoldRequest(
                        account.id(), CreditKind.CREDITS, 5, IdempotencyKey.of("other:" + UUID.randomUUID()), "e2e"));
        JsonNode more = ok(conta(key));
        assertEquals(125, more.path("creditos_reservados").asLong());
        assertEquals(
                120,
                more.path("exportacoes_em_andamento")
                        .path("creditos_reservados")
                        .asLong());

        assertTrue(f.server.mailing().failByOperator(job, "ended by the test"));
        JsonNode ended = ok(conta(key));
        assertEquals(5, ended.path("creditos_reservados").asLong());
        assertEquals(
                0, ended.path("exportacoes_em_andamento").path("quantidade").asInt());
        assertEquals(500, ended.path("saldo_creditos").asLong(), "a failed export charges nothing");
    }

    /**
     * An export that stays {@code processando}: its row is written with a lease no worker of the test
     * server can take, then its hold is placed through the ledger under the row's hold key, the same
     * two rows {@code POST /v1/mailing} writes.
     */
    private static String runningExport(Account account, int quantity) throws SQLException {
        String id = UUID.randomUUID().toString().replace("-", "");
        HoldRequest hold = new CostRules(f.clock).mailingHold(account.id(), id, quantity);
        try (Connection c = f.server.store().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO mailing_jobs (public_id, account_id, state,"
                        + " filters, quantidade, leads_limit, formato, hold_key, created_at, lease_owner, lease_until)"
                        + " VALUES (?, ?, 'processando', 'ufs=SP', ?, ?, 'csv', ?, ?, 'test', ?)")) {
            ps.setString(1, id);
            ps.setLong(2, account.id().value());
            ps.setInt(3, quantity);
            ps.setInt(4, quantity);
            ps.setString(5, hold.key().value());
            ps.setTimestamp(6, Timestamp.from(f.clock.instant()));
            ps.setTimestamp(7, Timestamp.from(Instant.parse("2999-01-01T00:00:00Z")));
            ps.executeUpdate();
        }
        f.server.store().ledger().hold(hold);
        return id;
    }

    @Test
    void anAccountNeverSeesAnotherAccountsBalancesKeysOrExports() throws SQLException {
        Account a = f.account(100, 1_000);
        Account b = f.account(9_999, 7_789);
        topUpSms(b, 55);
        f.server.store().accounts().contractPurpose(b.id(), Purpose.PREVENCAO_FRAUDE, Set.of("score"));
        String keyA = f.key(a, Scope.EMPRESAS_READ);
        String otherKeyA = f.key(a, Scope.MAILING_EXPORT, Scope.SMS_OTP);
        String keyB = f.key(b, Scope.PESSOAS_READ);
        f.server.store().apiKeys().setPersonLookupReleased(prefix(keyB), true);
        runningExport(b, 300);
        for (int i = 0; i < 3; i++) {
            ok(conta(keyB));
        }

        HttpResponse<String> r = conta(keyA);
        JsonNode c = ok(r);
        assertEquals(100, c.path("saldo_creditos").asLong());
        assertEquals(0, c.path("creditos_reservados").asLong());
        assertEquals(0, c.path("exportacoes_em_andamento").path("quantidade").asInt());
        assertEquals(0, c.path("saldo_sms").asLong());
        assertEquals(1_000, c.path("limite_diario").asLong());
        assertEquals(1, c.path("uso_hoje").asLong(), "B's requests are not A's");
        assertEquals(List.of("empresas:read"), texts(c.path("chave").path("escopos")));
        assertFalse(c.path("consulta_pessoas").path("liberada").asBoolean());
        assertEquals(List.of(), texts(c.path("consulta_pessoas").path("finalidades")));
        for (String foreign : List.of(prefix(keyB), prefix(otherKeyA), keyB, otherKeyA, "9999", "7789", "PREVENCAO")) {
            assertFalse(r.body().contains(foreign), "A's answer names " + foreign + ": " + r.body());
        }
        JsonNode cb = ok(conta(keyB));
        assertEquals(9_999, cb.path("saldo_creditos").asLong());
        assertEquals(300, cb.path("creditos_reservados").asLong());
        assertEquals(55, cb.path("saldo_sms").asLong());
        assertEquals(4, cb.path("uso_hoje").asLong(), "three reads before this one");
    }

    @Test
    void noKeyOrAnInvalidOrRevokedKeyIs401() {
        HttpResponse<String> none = conta(null);
        assertEquals(401, none.statusCode(), none.body());
        assertEquals("SEM_CHAVE", json(none).path("erro").path("code").asText());
        HttpResponse<String> invalid = conta("cad_aaaaaaaaaaaa_" + "B".repeat(43));
        assertEquals(401, invalid.statusCode(), invalid.body());
        assertEquals("CHAVE_INVALIDA", json(invalid).path("erro").path("code").asText());
        String key = f.key(f.account(1, 1_000));
        f.server.store().apiKeys().revoke(prefix(key), f.clock.instant());
        HttpResponse<String> revoked = conta(key);
        assertEquals(401, revoked.statusCode(), revoked.body());
        assertEquals("CHAVE_REVOGADA", json(revoked).path("erro").path("code").asText());
    }

    @Test
    void aQueryParameterIs422AndAnotherMethodIs405() {
        String key = f.key(f.account(1, 1_000));
        HttpResponse<String> q = f.get(CONTA + "?saldo=1", "Authorization", "Bearer " + key);
        contract.check(CONTA, q);
        assertEquals(422, q.statusCode(), q.body());
        assertTrue(json(q).path("erro").path("detalhe").asText().startsWith("campo=saldo;"), q.body());
        HttpResponse<String> post = f.send(HttpRequest.newBuilder(f.uri(CONTA))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
        contract.check(CONTA, post);
        assertEquals(405, post.statusCode(), post.body());
    }

    /** A body sent with the GET, of any shape, is never read into a 500. */
    @Test
    void noBodyAnswers500() {
        String key = f.key(f.account(3, 1_000));
        String deep = "[".repeat(5_000) + "]".repeat(5_000);
        for (String body :
                List.of("not json", "{\"a\": " + deep + "}", "{\"saldo_creditos\": 1e999999999}", "\u0000")) {
            HttpResponse<String> r = f.send(HttpRequest.newBuilder(f.uri(CONTA))
                    .timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json")
                    .method("GET", HttpRequest.BodyPublishers.ofString(body))
                    .build());
            contract.check(CONTA, r);
            assertTrue(r.statusCode() < 500, r.statusCode() + ": " + r.body());
            if (r.statusCode() == 200) {
                assertEquals(3, json(r).path("saldo_creditos").asLong());
            }
        }
    }

    @Test
    void isCountedAgainstThePerMinuteLimit() {
        String key = f.key(f.account(1, 1_000));
        for (int i = 0; i < ServerFixture.TIGHT_PER_MINUTE; i++) {
            assertEquals(
                    200, f.getTight(CONTA, "Authorization", "Bearer " + key).statusCode());
        }
        HttpResponse<String> refused = f.getTight(CONTA, "Authorization", "Bearer " + key);
        contract.check(CONTA, refused);
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("LIMITE_MINUTO", json(refused).path("erro").path("code").asText());
    }
}
