package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.http.companydata.SearchParameters;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/empresas/lote} through a real socket: one item per position with its status, the
 * charges as the ledger holds them, rule 1 across a single lookup and a batch, the ceiling, idempotent
 * replays, a balance that runs out, and the attacks on the body and the dedup; every answer checked
 * against the OpenAPI document.
 */
class CompanyBatchEndToEndTest {
    private static final String LOTE = "/v1/empresas/lote";

    private static ServerFixture f;
    private static OpenApiContract contract;
    /** Active establishments of the fixture's register, all distinct. */
    private static List<String> found;
    /** Valid CNPJs the register does not have: one numeric, one alphanumeric. */
    private static List<String> absent;

    @BeforeAll
    static void start() {
        f = ServerFixture.get();
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
        found = f
                .server
                .register()
                .search(SearchParameters.parse(Map.of("situacao_cadastral", List.of("02"), "limite", List.of("40"))))
                .dados()
                .stream()
                .map(Empresa::cnpj)
                .toList();
        assertTrue(found.size() >= 20, "the synthetic register has active companies");
        absent = new ArrayList<>();
        for (String body : List.of("999999990001", "ZZ9ZZ9ZZ0001")) {
            Cnpj c = Cnpj.withCheckDigits(body);
            assertTrue(f.server.register().lookup(c).isEmpty(), c + " is not in the register");
            absent.add(c.value());
        }
    }

    static HttpResponse<String> post(String key, String body, String... more) {
        HttpRequest.Builder b = HttpRequest.newBuilder(f.uri(LOTE))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        for (int i = 0; i < more.length; i += 2) {
            b.header(more[i], more[i + 1]);
        }
        HttpResponse<String> r =
                f.send(b.POST(HttpRequest.BodyPublishers.ofString(body)).build());
        contract.check(LOTE, "post", r);
        return r;
    }

    static String body(List<String> cnpjs) {
        StringBuilder sb = new StringBuilder("{\"cnpjs\": [");
        for (int i = 0; i < cnpjs.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append('"').append(cnpjs.get(i)).append('"');
        }
        return sb.append("]}").toString();
    }

    private static JsonNode ok(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        return json(r);
    }

    private static void assertInvalid(HttpResponse<String> r, String field, String rule) {
        assertEquals(422, r.statusCode(), r.body());
        JsonNode erro = json(r).path("erro");
        assertEquals("PARAMETRO_INVALIDO", erro.path("code").asText(), r.body());
        String detalhe = erro.path("detalhe").asText();
        assertTrue(
                detalhe.equals("campo=" + field + "; regra=" + rule)
                        || detalhe.equals("field=" + field + "; rule=" + rule),
                r.body());
    }

    private static HttpResponse<String> lookup(String key, String cnpj) {
        HttpResponse<String> r = f.get("/v1/empresas/" + cnpj, "Authorization", "Bearer " + key);
        contract.check("/v1/empresas/{cnpj}", r);
        return r;
    }

    @Test
    void answersEveryPositionInOrderAndChargesOnlyTheRecordsDelivered() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        String a = found.get(0);
        String b = found.get(1);
        String broken = a.substring(0, 12) + (a.charAt(12) == '0' ? "1" : "0") + a.charAt(13);
        List<String> sent = List.of(
                a,
                absent.get(0),
                broken,
                Cnpj.of(a).formatted(),
                "12.345",
                b,
                absent.get(1).toLowerCase(),
                b);

        HttpResponse<String> r = post(key, body(sent));
        JsonNode answer = ok(r);
        JsonNode items = answer.path("itens");
        assertEquals(sent.size(), items.size());
        List<String> statuses = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            assertEquals(i, items.get(i).path("posicao").asInt());
            assertEquals(sent.get(i), items.get(i).path("cnpj").asText(), "the CNPJ as sent");
            statuses.add(items.get(i).path("status").asText());
        }
        assertEquals(
                List.of(
                        "encontrado",
                        "nao_encontrado",
                        "cnpj_invalido",
                        "duplicado",
                        "cnpj_invalido",
                        "encontrado",
                        "nao_encontrado",
                        "duplicado"),
                statuses);
        assertEquals(a, items.get(0).path("dados").path("cnpj").asText());
        assertEquals(1, items.get(0).path("creditos_consumidos").asInt());
        assertEquals("check-digits", items.get(2).path("motivo").asText());
        assertEquals(0, items.get(3).path("primeira_posicao").asInt(), "the masked form is the same CNPJ");
        assertEquals("format", items.get(4).path("motivo").asText());
        assertEquals(5, items.get(7).path("primeira_posicao").asInt());
        assertFalse(items.get(1).has("dados"));

        // The record is the one the single lookup answers, byte for byte.
        assertEquals(
                json(lookup(f.key(f.account(10, 1_000)), a)).path("dados"),
                items.get(0).path("dados"));

        assertEquals(2, answer.path("creditos_consumidos").asLong());
        assertEquals(98, f.balance(account));
        assertEquals("98", r.headers().firstValue("X-Creditos-Saldo").orElseThrow());
        assertTrue(r.headers().firstValue("X-RateLimit-Remaining").isPresent());
    }

    @Test
    void aCnpjLookedUpTodayCostsNothingInABatchAndTheOtherWayRound() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        String a = found.get(2);
        String b = found.get(3);
        assertEquals(1, json(lookup(key, a)).path("creditos_consumidos").asInt());
        assertEquals(99, f.balance(account));

        JsonNode batch = ok(post(key, body(List.of(Cnpj.of(a).formatted(), b))));
        assertEquals(0, batch.path("itens").get(0).path("creditos_consumidos").asInt(), "looked up today");
        assertEquals(1, batch.path("itens").get(1).path("creditos_consumidos").asInt());
        assertEquals(1, batch.path("creditos_consumidos").asLong());
        assertEquals(98, f.balance(account));

        assertEquals(0, json(lookup(key, b)).path("creditos_consumidos").asInt(), "delivered by the batch today");
        JsonNode again = ok(post(key, body(List.of(a, b))));
        assertEquals(0, again.path("creditos_consumidos").asLong(), "a repeat the same day, no key: free");
        assertEquals(98, f.balance(account));
    }

    @Test
    void aThousandCopiesOfOneCnpjAreOneRecordAndOneCredit() {
        Account account = f.account(10, 10_000);
        String key = f.key(account);
        String a = found.get(4);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            sent.add(i % 2 == 0 ? a : Cnpj.of(a).formatted());
        }
        JsonNode answer = ok(post(key, body(sent)));
        assertEquals(1, answer.path("creditos_consumidos").asLong());
        assertEquals(9, f.balance(account));
        JsonNode items = answer.path("itens");
        assertEquals("encontrado", items.get(0).path("status").asText());
        for (int i = 1; i < 1_000; i++) {
            assertEquals("duplicado", items.get(i).path("status").asText());
            assertEquals(0, items.get(i).path("primeira_posicao").asInt());
        }
    }

    @Test
    void theCeilingIsTheAccountsContractedSizeAndTheRefusalNamesIt() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        List<String> thousandAndOne = new ArrayList<>();
        for (int i = 0; i < 1_001; i++) {
            thousandAndOne.add(found.get(i % found.size()));
        }
        HttpResponse<String> over = post(key, body(thousandAndOne));
        assertInvalid(over, "cnpjs", "ceiling");
        assertTrue(json(over).path("erro").path("mensagem").asText().contains("1000"), over.body());
        assertEquals(100, f.balance(account), "a refusal charges nothing");

        f.server.store().accounts().setCompanyBatchLimit(account.id(), 3);
        HttpResponse<String> four = post(key, body(found.subList(0, 4)), "Accept-Language", "en");
        assertInvalid(four, "cnpjs", "ceiling");
        assertTrue(
                json(four)
                        .path("erro")
                        .path("mensagem")
                        .asText()
                        .contains("ceiling of account " + account.id() + " is 3"),
                four.body());
        assertEquals(100, f.balance(account));
        assertEquals(
                3,
                ok(post(key, body(found.subList(0, 3))))
                        .path("creditos_consumidos")
                        .asLong());
    }

    @Test
    void aReplayedIdempotencyKeyAnswersTheFirstAnswerAndChargesNothing() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        String idem = "lote-" + UUID.randomUUID();
        List<String> sent = List.of(found.get(5), found.get(6), absent.get(0));
        HttpResponse<String> first = post(key, body(sent), "Idempotency-Key", idem);
        assertEquals(2, ok(first).path("creditos_consumidos").asLong());
        assertEquals(98, f.balance(account));

        // The same batch, one CNPJ written with its mask: the same request.
        List<String> masked = List.of(Cnpj.of(found.get(5)).formatted(), found.get(6), absent.get(0));
        HttpResponse<String> replay = post(key, body(masked), "Idempotency-Key", idem);
        assertEquals(200, replay.statusCode(), replay.body());
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(first.body(), replay.body(), "byte for byte, the record as first delivered");
        assertEquals("98", replay.headers().firstValue("X-Creditos-Saldo").orElseThrow());
        assertEquals(
                first.headers().firstValue("X-Dados-Referencia"),
                replay.headers().firstValue("X-Dados-Referencia"));
        assertEquals(98, f.balance(account));

        HttpResponse<String> other = post(key, body(List.of(found.get(7))), "Idempotency-Key", idem);
        assertInvalid(other, "Idempotency-Key", "reused");
        assertEquals(98, f.balance(account));
    }

    @Test
    void whenTheBalanceRunsOutTheRemainingRecordsSaySoAndCostNothing() {
        Account account = f.account(2, 10_000);
        String key = f.key(account);
        String paidBefore = found.get(12);
        assertEquals(
                1, json(lookup(key, paidBefore)).path("creditos_consumidos").asInt());
        assertEquals(1, f.balance(account));

        List<String> sent = List.of(found.get(10), absent.get(0), found.get(11), found.get(13), paidBefore);
        JsonNode answer = ok(post(key, body(sent)));
        JsonNode items = answer.path("itens");
        assertEquals("encontrado", items.get(0).path("status").asText());
        assertEquals("nao_encontrado", items.get(1).path("status").asText());
        assertEquals("sem_creditos", items.get(2).path("status").asText());
        assertFalse(items.get(2).has("dados"), "nothing delivered");
        assertEquals("sem_creditos", items.get(3).path("status").asText());
        // Rule 1: a record already paid today costs nothing, so the empty balance does not withhold it.
        assertEquals("encontrado", items.get(4).path("status").asText());
        assertEquals(0, items.get(4).path("creditos_consumidos").asInt());
        assertEquals(1, answer.path("creditos_consumidos").asLong());
        assertEquals(0, f.balance(account));

        JsonNode broke = ok(post(key, body(List.of(found.get(11)))));
        assertEquals("sem_creditos", broke.path("itens").get(0).path("status").asText());
        assertEquals(0, broke.path("creditos_consumidos").asLong());
    }

    @Test
    void identicalBatchesAtOnceWithoutAKeyChargeEachCnpjOnce() throws Exception {
        Account account = f.account(1_000, 10_000);
        String key = f.key(account);
        List<String> sent = found.subList(14, 34);
        int parallel = 6;
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<JsonNode>> answers = new ArrayList<>();
            for (int i = 0; i < parallel; i++) {
                answers.add(pool.submit((Callable<JsonNode>) () -> {
                    go.await();
                    return ok(post(key, body(sent)));
                }));
            }
            go.countDown();
            long charged = 0;
            for (Future<JsonNode> a : answers) {
                JsonNode answer = a.get();
                charged += answer.path("creditos_consumidos").asLong();
                answer.path("itens")
                        .forEach(item ->
                                assertEquals("encontrado", item.path("status").asText()));
            }
            assertEquals(sent.size(), charged, "each CNPJ charged once across the batches");
            assertEquals(1_000 - sent.size(), f.balance(account));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aMalformedBodyIsRefusedNamingTheFieldAndChargesNothing() {
        Account account = f.account(100, 10_000);
        String key = f.key(account);
        String a = found.get(8);
        assertInvalid(post(key, "{\"cnpjs\": [\"" + a + "\""), "body", "json");
        assertInvalid(post(key, "[\"" + a + "\"]"), "body", "json");
        assertInvalid(post(key, "{}"), "cnpjs", "required");
        assertInvalid(post(key, "{\"cnpjs\": []}"), "cnpjs", "required");
        assertInvalid(post(key, "{\"cnpjs\": \"" + a + "\"}"), "cnpjs", "type");
        assertInvalid(post(key, "{\"cnpjs\": {\"0\": \"" + a + "\"}}"), "cnpjs", "type");
        assertInvalid(post(key, "{\"cnpjs\": [\"" + a + "\", 12345678000195]}"), "cnpjs[1]", "type");
        assertInvalid(post(key, "{\"cnpjs\": [\"" + a + "\", null]}"), "cnpjs[1]", "type");
        assertInvalid(post(key, "{\"cnpjs\": [[\"" + a + "\"]]}"), "cnpjs[0]", "type");
        assertInvalid(post(key, "{\"cnpjs\": [\"" + a + "\"], \"limite\": 5}"), "limite", "unknown-field");
        assertInvalid(post(key, "{\"cnpjs\": [\"" + a + "\"], \"cnpjs\": [\"" + a + "\"]}"), "body", "json");
        HttpResponse<String> query = HttpResponses.postTo(f, LOTE + "?x=1", key, body(List.of(a)));
        assertInvalid(query, "x", "unknown-parameter");
        assertEquals(100, f.balance(account), "no refusal charges");

        HttpResponse<String> noScope = post(f.key(account, Scope.MAILING_READ), body(List.of(a)));
        assertEquals(403, noScope.statusCode(), noScope.body());
        assertEquals("SEM_ESCOPO", json(noScope).path("erro").path("code").asText());
        HttpResponse<String> noKey = post(null, body(List.of(a)));
        assertEquals(401, noKey.statusCode(), noKey.body());
        assertEquals(100, f.balance(account));
    }

    /** A POST with a query string, which {@link #post} does not build. */
    private static final class HttpResponses {
        static HttpResponse<String> postTo(ServerFixture f, String target, String key, String body) {
            HttpRequest request = HttpRequest.newBuilder(f.uri(target))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            HttpResponse<String> r = f.send(request);
            contract.check(LOTE, "post", r);
            return r;
        }
    }
}
