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
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.http.companydata.SearchParameters;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GET /v1/empresas and GET /v1/empresas/{cnpj} end to end: a real client through a real socket to the
 * server over a real Lucene index and a real PostgreSQL. Every answer is also checked against the
 * OpenAPI document the server serves. The whole class runs twice: on the JDK runtime and on Jetty
 * through the servlet bridge ({@link TestRuntime}).
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class CompanyDataEndToEndTest {
    private static final String SEARCH = "/v1/empresas";
    private static final String LOOKUP = "/v1/empresas/{cnpj}";

    private static ServerFixture f;

    /** The runtime of this run of the class (the fixture's view of it is {@link #f}). */
    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static OpenApiContract contract;
    private static List<Empresa> sample;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) {
        f = ServerFixture.on(runtime);
        HttpResponse<String> doc = f.get("/v1/openapi.json");
        assertEquals(200, doc.statusCode());
        contract = new OpenApiContract(doc.body());
        sample = f.server
                .register()
                .search(RegisterQuery.builder()
                        .situacaoCadastral("02")
                        .limite(20)
                        .build())
                .dados();
        assertTrue(sample.size() >= 10, "the synthetic register has active companies");
    }

    private static HttpResponse<String> search(String query, String key) {
        HttpResponse<String> r = f.get(SEARCH + "?" + query, "Authorization", "Bearer " + key);
        contract.check(SEARCH, r);
        return r;
    }

    private static HttpResponse<String> lookup(String cnpj, String... headers) {
        HttpResponse<String> r = f.get("/v1/empresas/" + cnpj, headers);
        contract.check(LOOKUP, r);
        return r;
    }

    private static void assertError(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        // RFC 9110, section 5.6.6: whitespace around ";" is optional; servlet containers drop it.
        assertEquals(
                "application/json;charset=utf-8",
                r.headers().firstValue("content-type").orElseThrow().replace("; ", ";"));
        JsonNode erro = json(r).path("erro");
        assertEquals(code, erro.path("code").asText(), r.body());
        assertFalse(erro.path("mensagem").asText().isBlank(), r.body());
    }

    private static void assertRateHeaders(HttpResponse<String> r) {
        for (String h : List.of("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")) {
            assertTrue(r.headers().firstValue(h).isPresent(), h + " missing on " + r.statusCode() + " " + r.body());
        }
    }

    // ---- cost rules as a client sees them ----

    @Test
    void lookupCostsOneCreditThenZeroTheSameDayAndOneAgainTheNextDay() {
        Account account = f.account(10, 1000);
        String key = f.key(account);
        String cnpj = sample.get(0).cnpj();

        HttpResponse<String> first = lookup(cnpj, "X-API-Key", key);
        assertEquals(200, first.statusCode(), first.body());
        assertEquals(cnpj, json(first).path("dados").path("cnpj").asText());
        assertEquals(1, json(first).path("creditos_consumidos").asInt());
        assertEquals("9", first.headers().firstValue("X-Creditos-Saldo").orElseThrow());
        assertRateHeaders(first);

        HttpResponse<String> again = lookup(Cnpj.of(cnpj).formatted().replace("/", "%2F"), "X-API-Key", key);
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(0, json(again).path("creditos_consumidos").asInt());
        assertEquals(9, f.balance(account));

        f.clock.advance(Duration.ofDays(1));
        HttpResponse<String> nextDay = lookup(cnpj, "Authorization", "Bearer " + key);
        assertEquals(1, json(nextDay).path("creditos_consumidos").asInt());
        assertEquals(8, f.balance(account));
    }

    @Test
    void lookupAcceptsTheMaskWithItsSlashEncodedOrNot() {
        Account account = f.account(10, 1000);
        String key = f.key(account);
        String masked = Cnpj.of(sample.get(7).cnpj()).formatted();
        HttpResponse<String> plain = f.get("/v1/empresas/" + masked, "X-API-Key", key);
        contract.check("/v1/empresas/{cnpj}/{ordem}", plain);
        assertEquals(200, plain.statusCode(), plain.body());
        assertEquals(
                sample.get(7).cnpj(), json(plain).path("dados").path("cnpj").asText());
        assertEquals(1, json(plain).path("creditos_consumidos").asInt());
        HttpResponse<String> encoded = lookup(masked.replace("/", "%2F"), "X-API-Key", key);
        assertEquals(0, json(encoded).path("creditos_consumidos").asInt(), "the same CNPJ the same day");
        HttpResponse<String> broken = f.get("/v1/empresas/12.345.678/0001-00", "X-API-Key", key);
        contract.check("/v1/empresas/{cnpj}/{ordem}", broken);
        assertError(broken, 422, "PARAMETRO_INVALIDO");
        assertEquals(9, f.balance(account));
    }

    @Test
    void lookupWithoutBalanceIs402DeliversNothingAndChargesNothing() {
        Account account = f.account(1, 1000);
        String key = f.key(account);
        assertEquals(200, lookup(sample.get(1).cnpj(), "X-API-Key", key).statusCode());
        assertEquals(0, f.balance(account));

        HttpResponse<String> broke = lookup(sample.get(2).cnpj(), "X-API-Key", key);
        assertError(broke, 402, "SEM_CREDITOS");
        assertFalse(broke.body().contains(sample.get(2).cnpj()), "nothing of the record is delivered");
        assertRateHeaders(broke);
        assertEquals(0, f.balance(account));

        HttpResponse<String> repeat = lookup(sample.get(1).cnpj(), "X-API-Key", key);
        assertEquals(200, repeat.statusCode(), "the same CNPJ the same day is free, even at zero balance");
        assertEquals(0, json(repeat).path("creditos_consumidos").asInt());
    }

    @Test
    void lookupOfACnpjTheRegisterLacksIs404AndFree() {
        Account account = f.account(5, 1000);
        String key = f.key(account);
        String absent = absentCnpj();
        HttpResponse<String> r = lookup(absent, "X-API-Key", key);
        assertError(r, 404, "NAO_ENCONTRADO");
        assertRateHeaders(r);
        assertEquals(5, f.balance(account));
    }

    @Test
    void searchChargesTheRecordsDeliveredAndCountOnlyIsFree() {
        Account account = f.account(100, 1000);
        String key = f.key(account);

        HttpResponse<String> page = search("ufs=SP&limite=7", key);
        assertEquals(200, page.statusCode(), page.body());
        JsonNode body = json(page);
        assertEquals(7, body.path("dados").size());
        assertEquals(7, body.path("paginacao").path("retornados").asInt());
        assertEquals(7, body.path("paginacao").path("limite").asInt());
        assertEquals(1, body.path("paginacao").path("pagina").asInt());
        assertEquals(7, body.path("creditos_consumidos").asInt());
        assertFalse(body.has("total"), "total is present only with apenas_total=true");
        assertEquals(93, f.balance(account));
        assertEquals("93", page.headers().firstValue("X-Creditos-Saldo").orElseThrow());
        body.path("dados").forEach(e -> assertEquals("SP", e.path("uf").asText()));

        HttpResponse<String> count = search("ufs=SP&apenas_total=true", key);
        JsonNode counted = json(count);
        assertEquals(0, counted.path("creditos_consumidos").asInt());
        assertEquals(0, counted.path("dados").size());
        assertEquals(
                body.path("paginacao").path("total").asLong(),
                counted.path("total").asLong());
        assertEquals(93, f.balance(account));
    }

    @Test
    void searchDefaultsToPagesOf50AndEveryPageIsChargedAgain() {
        Account account = f.account(1000, 1000);
        String key = f.key(account);
        JsonNode first = json(search("situacao_cadastral=02", key));
        assertEquals(50, first.path("paginacao").path("limite").asInt());
        assertEquals(50, first.path("creditos_consumidos").asInt());
        JsonNode second = json(search("situacao_cadastral=02&pagina=2", key));
        assertEquals(2, second.path("paginacao").path("pagina").asInt());
        assertFalse(first.path("dados")
                .get(0)
                .path("cnpj")
                .equals(second.path("dados").get(0).path("cnpj")));
        assertEquals(900, f.balance(account));
    }

    @Test
    void aShortLastPageIsChargedWhatItReturnsNotItsLimite() {
        Account account = f.account(1000, 1000);
        String key = f.key(account);
        long total = json(search("ufs=SP&apenas_total=true", key)).path("total").asLong();
        int limite = 7;
        while (total % limite == 0) {
            limite++;
        }
        int last = (int) ((total + limite - 1) / limite);
        int expected = (int) (total % limite);
        assertTrue(total > limite && expected < limite, "SP has more than one page of " + limite + ": " + total);

        HttpResponse<String> page = search("ufs=SP&limite=" + limite + "&pagina=" + last, key);
        assertEquals(200, page.statusCode(), page.body());
        JsonNode body = json(page);
        assertEquals(expected, body.path("dados").size(), "the last page of " + total + " by " + limite);
        assertEquals(expected, body.path("paginacao").path("retornados").asInt());
        assertEquals(limite, body.path("paginacao").path("limite").asInt());
        assertEquals(expected, body.path("creditos_consumidos").asInt(), "charged what came back");
        assertEquals(1000 - expected, f.balance(account));
        assertEquals(
                Long.toString(1000 - expected),
                page.headers().firstValue("X-Creditos-Saldo").orElseThrow());

        HttpResponse<String> beyond = search("ufs=SP&limite=" + limite + "&pagina=" + (last + 1), key);
        assertEquals(200, beyond.statusCode(), beyond.body());
        assertEquals(0, json(beyond).path("paginacao").path("retornados").asInt());
        assertEquals(0, json(beyond).path("creditos_consumidos").asInt(), "an empty page past the end is free");
        assertEquals(1000 - expected, f.balance(account));
    }

    @Test
    void aFullSizePageInASmallStateIsChargedWhatCameBack() {
        Account account = f.account(1000, 1000);
        String key = f.key(account);
        String small = null;
        long total = 0;
        for (String uf : List.of("AC", "AP", "RR", "TO", "RO", "SE", "AL", "PI", "MS", "MT", "RN", "PB", "AM", "ES")) {
            long n = json(search("ufs=" + uf + "&apenas_total=true", key))
                    .path("total")
                    .asLong();
            if (n >= 1 && n < RegisterQuery.MAX_LIMITE) {
                small = uf;
                total = n;
                break;
            }
        }
        assertTrue(small != null, "the synthetic register has a state with 1 to 199 companies");

        HttpResponse<String> page = search("ufs=" + small + "&limite=" + RegisterQuery.MAX_LIMITE, key);
        assertEquals(200, page.statusCode(), page.body());
        JsonNode body = json(page);
        assertEquals(total, body.path("dados").size(), small + " has " + total);
        assertEquals(
                RegisterQuery.MAX_LIMITE, body.path("paginacao").path("limite").asInt());
        assertEquals(total, body.path("paginacao").path("retornados").asInt());
        assertEquals(total, body.path("creditos_consumidos").asInt(), "charged the " + total + " returned, not 200");
        assertEquals(1000 - total, f.balance(account));
    }

    @Test
    void searchWhoseBalanceDoesNotCoverThePageIs402AndChargesNothing() {
        Account account = f.account(3, 1000);
        String key = f.key(account);
        HttpResponse<String> r = search("ufs=SP&limite=5", key);
        assertError(r, 402, "SEM_CREDITOS");
        assertRateHeaders(r);
        assertEquals(3, f.balance(account));
        HttpResponse<String> fits = search("ufs=SP&limite=3", key);
        assertEquals(3, json(fits).path("creditos_consumidos").asInt());
        assertEquals(0, f.balance(account));
        assertEquals(200, search("ufs=SP&apenas_total=true", key).statusCode(), "counting stays free at zero");
    }

    @Test
    void aRetriedSearchWithTheSameIdempotencyKeyIsChargedOnce() {
        Account account = f.account(50, 1000);
        String key = f.key(account);
        String[] headers = {"Authorization", "Bearer " + key, "Idempotency-Key", "retry-123"};
        HttpResponse<String> first = f.get(SEARCH + "?ufs=RJ&limite=4", headers);
        contract.check(SEARCH, first);
        assertEquals(4, json(first).path("creditos_consumidos").asInt());
        HttpResponse<String> retry = f.get(SEARCH + "?ufs=RJ&limite=4", headers);
        contract.check(SEARCH, retry);
        assertEquals(first.body(), retry.body(), "the first answer again, as it was");
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(46, f.balance(account));
    }

    @Test
    void repeatedParametersAreAlternatives() {
        String key = f.key(f.account(0, 1000));
        long sp = json(search("ufs=SP&apenas_total=true", key)).path("total").asLong();
        long rj = json(search("ufs=RJ&apenas_total=true", key)).path("total").asLong();
        long both = json(search("ufs=SP&ufs=RJ&apenas_total=true", key))
                .path("total")
                .asLong();
        assertTrue(sp > 0 && rj > 0);
        assertEquals(sp + rj, both);
    }

    // ---- authentication and scopes ----

    @Test
    void answersEachAuthenticationFailureWithItsCode() {
        Account account = f.account(10, 1000);
        String key = f.key(account);
        String cnpj = sample.get(3).cnpj();

        HttpResponse<String> none = lookup(cnpj);
        assertError(none, 401, "SEM_CHAVE");
        assertFalse(none.headers().firstValue("X-RateLimit-Limit").isPresent(), "no key, no window to report");
        assertError(lookup(cnpj, "X-API-Key", "not-a-key"), 401, "CHAVE_INVALIDA");
        assertError(lookup(cnpj, "Authorization", "Basic dXNlcjpwYXNz"), 401, "CHAVE_INVALIDA");
        String wrongSecret = key.substring(0, key.length() - 4) + (key.endsWith("AAAA") ? "BBBB" : "AAAA");
        assertError(lookup(cnpj, "X-API-Key", wrongSecret), 401, "CHAVE_INVALIDA");

        String prefix = key.split("_")[1];
        f.server.store().apiKeys().revoke(prefix, f.clock.instant());
        assertError(lookup(cnpj, "X-API-Key", key), 401, "CHAVE_REVOGADA");

        Account off = f.account(10, 1000);
        String offKey = f.key(off);
        f.server.store().accounts().setApiEnabled(off.id(), false);
        assertError(lookup(cnpj, "X-API-Key", offKey), 503, "API_DESATIVADA");
        assertEquals(10, f.balance(account));
    }

    @Test
    void aKeyWithoutEmpresasReadIs403WithRateHeaders() {
        Account account = f.account(10, 1000);
        String key = f.key(account, Scope.MAILING_READ, Scope.SMS_OTP);
        HttpResponse<String> r = lookup(sample.get(4).cnpj(), "X-API-Key", key);
        assertError(r, 403, "SEM_ESCOPO");
        assertRateHeaders(r);
        assertError(search("ufs=SP", key), 403, "SEM_ESCOPO");
        assertEquals(10, f.balance(account));
    }

    @Test
    void theScopeIsCheckedBeforeAnyParameterOnEveryRoute() {
        String key = f.key(f.account(10, 1000), Scope.SMS_OTP);
        assertError(search("bogus=1", key), 403, "SEM_ESCOPO");
        assertError(search("limite=9999&ufs=XX", key), 403, "SEM_ESCOPO");
        assertError(lookup(sample.get(4).cnpj() + "?bogus=1", "X-API-Key", key), 403, "SEM_ESCOPO");
        assertError(lookup("123", "X-API-Key", key), 403, "SEM_ESCOPO");
        assertError(
                f.get(SEARCH + "?ufs=SP", "Authorization", "Bearer " + key, "Idempotency-Key", "two words"),
                403,
                "SEM_ESCOPO");
    }

    // ---- rate limits ----

    @Test
    void thePerMinuteLimitAnswers429WithRetryAfterAndTheHeaders() {
        String key = f.key(f.account(10, 1000));
        for (int i = 0; i < ServerFixture.TIGHT_PER_MINUTE; i++) {
            HttpResponse<String> ok =
                    f.getTight(SEARCH + "?ufs=SP&apenas_total=true", "Authorization", "Bearer " + key);
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals(
                    String.valueOf(ServerFixture.TIGHT_PER_MINUTE - 1 - i),
                    ok.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
        }
        HttpResponse<String> limited = f.getTight(SEARCH + "?ufs=SP&apenas_total=true", "X-API-Key", key);
        contract.check(SEARCH, limited);
        assertError(limited, 429, "LIMITE_MINUTO");
        assertRateHeaders(limited);
        assertEquals("0", limited.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
        long retry = Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retry >= 1 && retry <= 60, "Retry-After " + retry);
    }

    @Test
    void theDailyPlanLimitAnswers429LimiteDiario() {
        String key = f.key(f.account(10, 2));
        assertEquals(200, search("ufs=SP&apenas_total=true", key).statusCode());
        assertEquals(200, search("ufs=RJ&apenas_total=true", key).statusCode());
        HttpResponse<String> r = search("ufs=MG&apenas_total=true", key);
        assertError(r, 429, "LIMITE_DIARIO");
        assertTrue(r.headers().firstValue("Retry-After").isPresent());
        assertEquals("0", r.headers().firstValue("X-RateLimit-Remaining-Day").orElseThrow());
    }

    // ---- internal errors ----

    @Test
    void aFailureInsideTheServerIs500ErroInternoWithTheRequestIdAndNoTrace() throws Exception {
        // A real failure, no mock: a register closed under the server makes every search throw.
        dev.cadastro.register.LuceneRegister closed = dev.cadastro.register.LuceneRegister.open(f.index);
        closed.close();
        try (var broken = f.listen(CompanyDataRoutes.router(
                closed, f.server.store(), f.server.store().admission(1000, f.clock), f.clock, f.server.mailing()))) {
            Account account = f.account(10, 1000);
            String key = f.key(account);
            for (String path : List.of(
                    "/v1/empresas?ufs=SP", "/v1/empresas/" + sample.get(6).cnpj())) {
                HttpResponse<String> r =
                        f.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + broken.port() + path))
                                .header("X-API-Key", key)
                                .build());
                contract.check(path.contains("?") ? SEARCH : LOOKUP, r);
                assertError(r, 500, "ERRO_INTERNO");
                assertRateHeaders(r);
                String id = r.headers().firstValue("X-Request-Id").orElseThrow();
                assertEquals(
                        "request_id=" + id, json(r).path("erro").path("detalhe").asText());
                assertFalse(r.body().contains("Exception"), r.body());
                assertFalse(r.body().contains("\tat "), r.body());
            }
            assertEquals(10, f.balance(account), "a failed call charges nothing");
        }
    }

    // ---- bad inputs ----

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "foo=1|foo",
                "ufs=SP&ufs=XX|ufs",
                "ufs=SP&limite=abc|limite",
                "ufs=SP&limite=0|limite",
                "ufs=SP&limite=201|limite",
                "ufs=SP&limite=99999999999999999999|limite",
                "ufs=SP&pagina=0|pagina",
                "ufs=SP&pagina=-1|pagina",
                "abertura_de=2020-13-01|abertura_de",
                "abertura_de=01/02/2020|abertura_de",
                "capital_min=abc|capital_min",
                "capital_min=1e999999|capital_min",
                "mei=talvez|mei",
                "situacao_cadastral=2|situacao_cadastral",
                "cnaes=12|cnaes",
                "ddds=1|ddds",
                "ufs=SP&apenas_total=sim|apenas_total",
                "limite=10|",
                "ufs=SP&bairros=%C3%28|bairros",
                "ufs=SP&municipios=%00|municipios",
                "ufs=SP&ufs=%FF|ufs",
                "=SP|query"
            })
    void answersEveryMalformedSearchWith422NamingTheParameter(String query, String field) {
        String key = f.key(f.account(10, 1000));
        HttpResponse<String> r = search(query, key);
        assertError(r, 422, "PARAMETRO_INVALIDO");
        assertRateHeaders(r);
        if (field != null) {
            assertTrue(json(r).path("erro").path("detalhe").asText().startsWith("campo=" + field + ";"), r.body());
        }
    }

    @Test
    void aBooleanParameterIsExactlyTrueOrFalseAndNothingElse() {
        String key = f.key(f.account(10, 1000));
        // An unencoded + is a space: "+true" arrives as " true", which must not read as true.
        for (String name : List.of(
                "mei", "simples", "com_telefone", "com_telefone_movel", "com_email", "divida", "apenas_total")) {
            for (String value : List.of("+true", "%20true", "false%20", "TRUE", "False", "tRue")) {
                HttpResponse<String> r = search("ufs=SP&" + name + "=" + value, key);
                assertError(r, 422, "PARAMETRO_INVALIDO");
                assertEquals(
                        "campo=" + name + "; regra=boolean",
                        json(r).path("erro").path("detalhe").asText(),
                        name + "=" + value + " -> " + r.body());
                assertTrue(json(r).path("erro").path("mensagem").asText().contains("true ou false"), r.body());
            }
        }
        HttpResponse<String> total = search("ufs=SP&apenas_total=true&mei=false", key);
        assertEquals(200, total.statusCode(), total.body());
    }

    @Test
    void answersHugeValuesWith4xxAndTheEnvelope() {
        String key = f.key(f.account(10, 1000));
        HttpResponse<String> longText = search("municipios=" + "A".repeat(500), key);
        assertError(longText, 422, "PARAMETRO_INVALIDO");
        HttpResponse<String> tooManyValues = search("ufs=SP" + "&ufs=RJ".repeat(600), key);
        assertEquals(422, tooManyValues.statusCode(), tooManyValues.body());
        HttpResponse<String> overlong = search("bairros=" + "B".repeat(10_000), key);
        assertError(overlong, 414, "PARAMETRO_INVALIDO");
        HttpResponse<String> bigHeader =
                f.get(SEARCH + "?ufs=SP", "Authorization", "Bearer " + key, "X-Padding", "p".repeat(20_000));
        assertError(bigHeader, 431, "PARAMETRO_INVALIDO");
        HttpResponse<String> longCnpj = lookup("1".repeat(3000), "X-API-Key", key);
        assertError(longCnpj, 422, "PARAMETRO_INVALIDO");
    }

    @ParameterizedTest
    @CsvSource({
        "12345678000100", // wrong check digits
        "123", // too short
        "12.345.678-0001.95", // wrong punctuation
        "00000000000000", // one digit repeated
        "1234567800019A", // letter in a check digit
        "%C3%A9%C3%A9%C3%A9" // UTF-8 letters
    })
    void answersAMalformedCnpjWith422BeforeTheRegisterIsAsked(String cnpj) {
        Account account = f.account(5, 1000);
        HttpResponse<String> r = lookup(cnpj, "X-API-Key", f.key(account));
        assertError(r, 422, "PARAMETRO_INVALIDO");
        assertTrue(json(r).path("erro").path("detalhe").asText().startsWith("campo=cnpj;"), r.body());
        assertEquals(5, f.balance(account));
    }

    @Test
    void refusesQueryParametersOnTheLookup() {
        HttpResponse<String> r = lookup(sample.get(5).cnpj() + "?campos=todos", "X-API-Key", f.key(f.account(5, 1000)));
        assertError(r, 422, "PARAMETRO_INVALIDO");
    }

    @Test
    void answersWrongMethodsWith405AndAllow() {
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
            HttpResponse<String> r = f.send(HttpRequest.newBuilder(f.uri("/v1/empresas"))
                    .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                    .build());
            assertError(r, 405, "NAO_ENCONTRADO");
            assertEquals("GET", r.headers().firstValue("Allow").orElseThrow(), "a search charges: no HEAD");
        }
    }

    @Test
    void answersUnknownPathsWith404Envelope() {
        assertError(f.get("/v1/empresa"), 404, "NAO_ENCONTRADO");
        assertError(f.get("/v2/empresas"), 404, "NAO_ENCONTRADO");
        assertError(f.get("/v1/empresas/1/socios/2"), 404, "NAO_ENCONTRADO");
        // Two segments under /v1/empresas are a masked CNPJ with an unencoded slash: validated as one.
        assertError(f.get("/v1/empresas/1/socios", "X-API-Key", f.key(f.account(0, 1000))), 422, "PARAMETRO_INVALIDO");
    }

    @Test
    void servesTheOpenApiDocumentOfWhatIsImplemented() {
        JsonNode doc = contract.document();
        assertEquals("3.1.0", doc.path("openapi").asText());
        List<String> paths = List.copyOf(iterable(doc.path("paths").fieldNames()));
        assertEquals(
                List.of(
                        "/v1/empresas",
                        "/v1/empresas/alteracoes",
                        "/v1/empresas/{cnpj}",
                        "/v1/empresas/{cnpj}/{ordem}",
                        "/v1/empresas/lote",
                        "/v1/openapi.json",
                        "/v1/mailing",
                        "/v1/mailing/estimativa",
                        "/v1/mailing/{job_id}",
                        "/v1/mailing/{job_id}/arquivo",
                        "/v1/enriquecimento/{cnpj}",
                        "/v1/enriquecimento/{cnpj}/{ordem}",
                        "/v1/credito/consultar",
                        "/v1/sms/otp",
                        "/v1/sms/otp/verificar",
                        "/v1/pessoas/consultar",
                        "/v1/pessoas/consultar-async",
                        "/v1/pessoas/jobs/{job_id}",
                        "/v1/pessoas/lote",
                        "/v1/conta",
                        "/health/live",
                        "/health/ready"),
                paths);
        List<String> searchParams = new java.util.ArrayList<>();
        doc.at("/paths/~1v1~1empresas/get/parameters").forEach(p -> {
            if (p.has("name") && "query".equals(p.path("in").asText())) {
                searchParams.add(p.path("name").asText());
            }
        });
        assertEquals(SearchParameters.PARAMETERS, searchParams, "the document lists exactly the accepted parameters");
    }

    @Test
    void theContractCheckRejectsBodiesThatBreakTheDocument() {
        assertFalse(contract.errors(LOOKUP, 200, "{\"dados\":{\"cnpj\":\"123\"},\"creditos_consumidos\":1}")
                .isEmpty());
        assertFalse(contract.errors(LOOKUP, 200, "{\"dados\":{},\"creditos_consumidos\":\"1\"}")
                .isEmpty());
        assertFalse(contract.errors(SEARCH, 200, "{\"dados\":[],\"aproximado\":false,\"creditos_consumidos\":0}")
                .isEmpty());
        assertFalse(contract.errors(SEARCH, 422, "{\"erro\":\"parametro_invalido\"}")
                .isEmpty());
        assertTrue(contract.errors(LOOKUP, 404, "{\"erro\":{\"code\":\"NAO_ENCONTRADO\",\"mensagem\":\"x\"}}")
                .isEmpty());
    }

    /** The three GET operations of the document and a request path for each, given a CNPJ. */
    private static final Map<String, java.util.function.Function<String, String>> OPERATIONS = Map.of(
            SEARCH,
            cnpj -> "/v1/empresas?ufs=SP&limite=5",
            LOOKUP,
            cnpj -> "/v1/empresas/" + cnpj,
            "/v1/empresas/{cnpj}/{ordem}",
            cnpj -> "/v1/empresas/" + Cnpj.of(cnpj).formatted());

    private static HttpResponse<String> sendTo(int port, String method, String path, byte[] body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return f.send(b.build());
    }

    /**
     * Each error status the OpenAPI document lists for the three GET operations, produced for real and
     * checked against the document (the statuses {@link #everyDocumentedStatusWasSeen} then requires).
     */
    @Test
    void answersEveryDocumentedErrorStatusOfEveryOperationInItsSchema() throws Exception {
        int port = f.port();
        String present = sample.get(8).cnpj();
        dev.cadastro.register.LuceneRegister closed = dev.cadastro.register.LuceneRegister.open(f.index);
        closed.close();
        try (var broken = f.listen(CompanyDataRoutes.router(
                closed, f.server.store(), f.server.store().admission(1000, f.clock), f.clock, f.server.mailing()))) {
            for (var op : OPERATIONS.entrySet()) {
                String template = op.getKey();
                String path = op.getValue().apply(present);
                String key = f.key(f.account(100, 1000));
                java.util.function.BiConsumer<Integer, HttpResponse<String>> expect = (status, r) -> {
                    assertEquals(status, r.statusCode(), template + " " + r.body());
                    contract.check(template, r);
                };
                expect.accept(401, sendTo(port, "GET", path, null));
                expect.accept(402, sendTo(port, "GET", path, null, "X-API-Key", f.key(f.account(0, 1000))));
                expect.accept(
                        403, sendTo(port, "GET", path, null, "X-API-Key", f.key(f.account(9, 1000), Scope.SMS_OTP)));
                if (!template.equals(SEARCH)) {
                    expect.accept(404, sendTo(port, "GET", op.getValue().apply(absentCnpj()), null, "X-API-Key", key));
                }
                expect.accept(405, sendTo(port, "POST", path, "{}".getBytes(), "X-API-Key", key));
                expect.accept(413, sendTo(port, "GET", path, new byte[1024 * 1024 + 1], "X-API-Key", key));
                String overlong =
                        template.equals(SEARCH) ? path + "&bairros=" + "B".repeat(10_000) : path + "1".repeat(10_000);
                expect.accept(414, sendTo(port, "GET", overlong, null, "X-API-Key", key));
                expect.accept(
                        422,
                        sendTo(
                                port,
                                "GET",
                                template.equals(SEARCH) ? path + "&limite=0" : path + "0",
                                null,
                                "X-API-Key",
                                key));
                expect.accept(431, sendTo(port, "GET", path, null, "X-API-Key", key, "X-Padding", "p".repeat(20_000)));
                expect.accept(500, sendTo(broken.port(), "GET", path, null, "X-API-Key", key));
                Account off = f.account(10, 1000);
                String offKey = f.key(off);
                f.server.store().accounts().setApiEnabled(off.id(), false);
                expect.accept(503, sendTo(port, "GET", path, null, "X-API-Key", offKey));
                String tightKey = f.key(f.account(10, 1000));
                for (int i = 0; i < ServerFixture.TIGHT_PER_MINUTE; i++) {
                    f.getTight(path, "X-API-Key", tightKey);
                }
                expect.accept(429, sendTo(f.tightPort(), "GET", path, null, "X-API-Key", tightKey));
            }
        }
    }

    /** Runs last: every status the document lists for the GET operations was produced and checked. */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
    void everyDocumentedStatusWasSeen() {
        java.util.Set<String> unseen = new java.util.TreeSet<>();
        for (String template : OPERATIONS.keySet()) {
            contract.document()
                    .at("/paths/" + template.replace("/", "~1") + "/get/responses")
                    .fieldNames()
                    .forEachRemaining(status -> unseen.add(template + " " + status));
        }
        assertTrue(unseen.size() >= 30, "the document lists the statuses of three operations: " + unseen);
        unseen.removeAll(contract.checked);
        assertEquals(java.util.Set.of(), unseen, "documented but never answered and checked by this class");
    }

    private static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> list = new java.util.ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }

    private static String absentCnpj() {
        for (int i = 0; ; i++) {
            Cnpj c = Cnpj.withCheckDigits(String.format("%08d%04d", 99_000_000 + i, 1));
            if (f.server.register().lookup(c).isEmpty()) {
                return c.value();
            }
        }
    }
}
