package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.providers.Fault;
import dev.cadastro.providers.SimulatedBureau;
import dev.cadastro.providers.SimulatedCreditBureau;
import dev.cadastro.register.LuceneRegister;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code GET /v1/enriquecimento/{cnpj}} and {@code POST /v1/credito/consultar} end to end: a real
 * client through a real socket, the real register and PostgreSQL, the simulated bureaus behind real
 * resilience4j guards (200 ms timeout), and a clock of the test's own for the day, month and 7-day
 * rules. Every answer is checked against the OpenAPI document, and the last test requires every
 * status the document lists for the three operations to have been produced.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class BureauEndToEndTest {
    /** The runtime of this run of the class: the JDK's, or Jetty through the servlet bridge. */
    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static final String ENRICH = "/v1/enriquecimento/{cnpj}";
    private static final String ENRICH_SLASH = "/v1/enriquecimento/{cnpj}/{ordem}";
    private static final String CREDIT = "/v1/credito/consultar";

    private static ServerFixture f;
    private static BureauStack s;
    private static OpenApiContract contract;
    private static List<Empresa> sample;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) {
        f = ServerFixture.on(runtime);
        s = BureauStack.steady(f);
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
        sample = f.server
                .register()
                .search(RegisterQuery.builder()
                        .situacaoCadastral("02")
                        .limite(20)
                        .build())
                .dados();
        assertTrue(sample.size() >= 10, "the synthetic register has active companies");
    }

    @org.junit.jupiter.params.AfterParameterizedClassInvocation
    static void stop() {
        s.close();
    }

    @AfterEach
    void clearFaults() {
        s.bureauFaults.clear();
        s.creditFaults.clear();
    }

    // ---- helpers ----

    /** An account with credits whose LGPD accreditation is approved. */
    static Account accredited(long credits) {
        Account a = f.account(credits, 100_000);
        f.server.store().accounts().setAccreditation(a.id(), AccreditationStatus.APPROVED);
        return a;
    }

    static String enrichKey(Account a) {
        return f.key(a, Scope.ENRIQUECIMENTO_READ);
    }

    static String creditKey(Account a) {
        return f.key(a, Scope.CREDITO_READ);
    }

    private static HttpResponse<String> enrich(String cnpj, String key) {
        HttpResponse<String> r = s.enrich(cnpj, "Authorization", "Bearer " + key);
        contract.check(ENRICH, r);
        return r;
    }

    private static HttpResponse<String> consult(String documento, String key) {
        HttpResponse<String> r = s.consult(BureauStack.body(documento), "Authorization", "Bearer " + key);
        contract.check(CREDIT, "post", r);
        return r;
    }

    private static void assertError(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode erro = json(r).path("erro");
        assertEquals(code, erro.path("code").asText(), r.body());
        assertFalse(erro.path("mensagem").asText().isBlank(), r.body());
    }

    /** A valid CNPJ that is not in the register; {@code known}: whether the simulated bureau knows it. */
    static String outsideRegister(boolean known) {
        for (int i = 0; ; i++) {
            Cnpj c = Cnpj.withCheckDigits(String.format("%08d%04d", 97_000_000 + i, 1));
            if (f.server.register().lookup(c).isEmpty() && SimulatedBureau.knowsOutsideRegister(c) == known) {
                return c.value();
            }
        }
    }

    /** A valid CPF; {@code nothing}: whether the simulated credit bureau has nothing on it. */
    static String cpf(boolean nothing, int skip) {
        int seen = 0;
        for (int i = 0; ; i++) {
            Cpf c = Cpf.withCheckDigits(String.format("%09d", 123_456_000 + i));
            if (SimulatedCreditBureau.hasNothingOn(c) == nothing && seen++ == skip) {
                return c.canonical();
            }
        }
    }

    // ---- enrichment ----

    @Test
    void enrichmentDeliversTheAllowlistedRecordAndCharges5ThenNothingTheSameDayThen5TheNextDay() {
        s.clock.set(Instant.parse("2026-03-10T15:00:00Z"));
        Account account = accredited(100);
        String key = enrichKey(account);
        String cnpj = sample.get(0).cnpj();

        HttpResponse<String> first = enrich(cnpj, key);
        assertEquals(200, first.statusCode(), first.body());
        JsonNode dados = json(first).path("dados");
        assertEquals(cnpj, dados.path("cnpj").asText());
        assertEquals(5, json(first).path("creditos_consumidos").asInt());
        assertEquals("95", first.headers().firstValue("X-Creditos-Saldo").orElseThrow());
        assertTrue(first.headers().firstValue("X-RateLimit-Limit").isPresent());
        for (JsonNode socio : dados.path("socios")) {
            if (socio.path("tipo").asText().equals("PF")) {
                assertTrue(Cpf.isValid(socio.path("cpf").asText()), "a complete, valid CPF: " + socio);
            }
        }

        // The same CNPJ with its mask, later the same day in Sao Paulo (23:59 there is 02:59Z).
        s.clock.set(Instant.parse("2026-03-11T02:59:59Z"));
        HttpResponse<String> sameDay = enrich(Cnpj.of(cnpj).formatted().replace("/", "%2F"), key);
        assertEquals(0, json(sameDay).path("creditos_consumidos").asInt(), sameDay.body());
        assertEquals(json(first).path("dados"), json(sameDay).path("dados"), "the same CNPJ, the same answer");
        assertEquals(95, f.balance(account));

        // Midnight in Sao Paulo is 03:00Z: a new day, charged again.
        s.clock.set(Instant.parse("2026-03-11T03:00:00Z"));
        HttpResponse<String> nextDay = enrich(cnpj, key);
        assertEquals(5, json(nextDay).path("creditos_consumidos").asInt(), nextDay.body());
        assertEquals(90, f.balance(account));

        // Another account pays for the same CNPJ the same day.
        Account other = accredited(10);
        HttpResponse<String> theirs = enrich(cnpj, enrichKey(other));
        assertEquals(5, json(theirs).path("creditos_consumidos").asInt());
        assertEquals(5, f.balance(other));
    }

    @Test
    void enrichmentReadsAMaskedCnpjWhoseSlashArrivesUnencoded() {
        Account account = accredited(10);
        String masked = Cnpj.of(sample.get(1).cnpj()).formatted();
        HttpResponse<String> r = s.enrich(masked, "X-API-Key", enrichKey(account));
        contract.check(ENRICH_SLASH, r);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(sample.get(1).cnpj(), json(r).path("dados").path("cnpj").asText());
        HttpResponse<String> broken = s.enrich("12.345.678/0001-00", "X-API-Key", enrichKey(account));
        contract.check(ENRICH_SLASH, broken);
        assertError(broken, 422, "PARAMETRO_INVALIDO");
        assertEquals(5, f.balance(account));
    }

    @Test
    void enrichmentOfACnpjOnlyTheBureauKnowsIsDeliveredAndOneNobodyKnowsIs404Free() {
        Account account = accredited(10);
        String key = enrichKey(account);
        String known = outsideRegister(true);
        HttpResponse<String> r = enrich(known, key);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(known, json(r).path("dados").path("cnpj").asText());
        assertEquals(5, f.balance(account));

        assertError(enrich(outsideRegister(false), key), 404, "NAO_ENCONTRADO");
        assertEquals(5, f.balance(account), "not found is not charged");
    }

    @Test
    void enrichmentRefusesWhatItMustBeforeCallingTheBureauAndChargesNothing() {
        s.bureauFaults.always(new Fault.Down()); // a call that reached the bureau would be 503
        String cnpj = sample.get(2).cnpj();
        Account account = accredited(100);
        String key = enrichKey(account);

        HttpResponse<String> noKey = s.enrich(cnpj);
        contract.check(ENRICH, noKey);
        assertError(noKey, 401, "SEM_CHAVE");
        assertError(enrich(cnpj, f.key(account, Scope.EMPRESAS_READ, Scope.CREDITO_READ)), 403, "SEM_ESCOPO");
        Account pending = f.account(100, 1000);
        assertError(enrich(cnpj, enrichKey(pending)), 403, "CREDENCIAMENTO_PENDENTE");
        assertEquals(100, f.balance(pending));
        Account poor = accredited(4);
        assertError(enrich(cnpj, enrichKey(poor)), 402, "SEM_CREDITOS");
        assertEquals(4, f.balance(poor));

        HttpResponse<String> aCpf = enrich(cpf(false, 0), key);
        assertError(aCpf, 422, "PARAMETRO_INVALIDO");
        assertTrue(aCpf.body().contains("CPF"), aCpf.body());
        assertError(enrich("11222333000180", key), 422, "PARAMETRO_INVALIDO");
        assertError(enrich("abc", key), 422, "PARAMETRO_INVALIDO");
        HttpResponse<String> query = s.enrich(cnpj + "?cnpj=" + cnpj, "X-API-Key", key);
        contract.check(ENRICH, query);
        assertError(query, 422, "PARAMETRO_INVALIDO");
        assertEquals(
                "campo=cnpj; regra=unknown-parameter",
                json(query).path("erro").path("detalhe").asText(),
                query.body());
        assertEquals(100, f.balance(account));
    }

    // ---- credit report ----

    @Test
    void creditReportIsFetchedThenCachedFor7DaysAndChargedOncePerMonth() {
        s.clock.set(Instant.parse("2026-03-10T15:00:00Z"));
        Account account = accredited(100);
        String key = creditKey(account);
        String cpf = cpf(false, 0);

        HttpResponse<String> first = consult(Cpf.of(cpf).formatted(), key);
        assertEquals(200, first.statusCode(), first.body());
        JsonNode body = json(first);
        assertEquals("bureau", body.path("fonte").asText());
        assertEquals("2026-03-10T12:00:00-03:00", body.path("consultado_em").asText());
        assertEquals(10, body.path("creditos_consumidos").asInt());
        assertEquals(cpf, body.path("dados").path("documento").asText());
        assertEquals("CPF", body.path("dados").path("tipo_documento").asText());
        assertEquals("90", first.headers().firstValue("X-Creditos-Saldo").orElseThrow());

        // 6 days 23:59 later: from the account's cache, the bureau not called (it is down), free.
        s.creditFaults.always(new Fault.Down());
        s.clock.set(Instant.parse("2026-03-17T14:59:00Z"));
        HttpResponse<String> cached = consult(cpf, key);
        assertEquals(200, cached.statusCode(), cached.body());
        assertEquals("cache", json(cached).path("fonte").asText());
        assertEquals(
                "2026-03-10T12:00:00-03:00", json(cached).path("consultado_em").asText());
        assertEquals(0, json(cached).path("creditos_consumidos").asInt());
        assertEquals(body.path("dados"), json(cached).path("dados"));
        s.creditFaults.clear();

        // 7 days later: the bureau again, still free within the month.
        s.clock.set(Instant.parse("2026-03-17T15:00:00Z"));
        HttpResponse<String> refreshed = consult(cpf, key);
        assertEquals("bureau", json(refreshed).path("fonte").asText(), refreshed.body());
        assertEquals(
                "2026-03-17T12:00:00-03:00",
                json(refreshed).path("consultado_em").asText());
        assertEquals(0, json(refreshed).path("creditos_consumidos").asInt());
        assertEquals(90, f.balance(account));

        // A fetch near the end of March (free: March is paid), then the month boundary in Sao Paulo:
        // 02:59:59Z on April 1st is still March there (cached, free); 03:00Z is April (cached, 10 again).
        s.clock.set(Instant.parse("2026-03-30T15:00:00Z"));
        HttpResponse<String> endOfMonth = consult(cpf, key);
        assertEquals("bureau", json(endOfMonth).path("fonte").asText(), endOfMonth.body());
        assertEquals(0, json(endOfMonth).path("creditos_consumidos").asInt());
        s.clock.set(Instant.parse("2026-04-01T02:59:59Z"));
        HttpResponse<String> lastMinute = consult(cpf, key);
        assertEquals("cache", json(lastMinute).path("fonte").asText());
        assertEquals(0, json(lastMinute).path("creditos_consumidos").asInt());
        s.clock.set(Instant.parse("2026-04-01T03:00:00Z"));
        HttpResponse<String> april = consult(cpf, key);
        assertEquals("cache", json(april).path("fonte").asText(), "the fetch of March 30 is under 7 days old");
        assertEquals(10, json(april).path("creditos_consumidos").asInt(), april.body());
        assertEquals(80, f.balance(account));
    }

    @Test
    void creditReportOnACnpjIsChargedOncePerMonthNotPerFetch() {
        s.clock.set(Instant.parse("2026-10-05T15:00:00Z"));
        assertTrue(sample.size() > 10, "a CNPJ no other test consults");
        String cnpj = sample.get(sample.size() - 1).cnpj();
        Account account = accredited(100);
        String key = creditKey(account);

        HttpResponse<String> first = consult(cnpj, key);
        assertEquals(200, first.statusCode(), first.body());
        assertEquals("CNPJ", json(first).path("dados").path("tipo_documento").asText(), first.body());
        assertEquals("bureau", json(first).path("fonte").asText());
        assertEquals(10, json(first).path("creditos_consumidos").asInt());

        // Eight days later the cache has expired: the bureau again, on another day of the same month, free.
        s.clock.set(Instant.parse("2026-10-13T15:00:00Z"));
        HttpResponse<String> later = consult(cnpj, key);
        assertEquals("bureau", json(later).path("fonte").asText(), later.body());
        assertEquals(0, json(later).path("creditos_consumidos").asInt(), "October is paid");
        assertEquals(90, f.balance(account));

        // The next month: 10 again.
        s.clock.set(Instant.parse("2026-11-02T15:00:00Z"));
        HttpResponse<String> november = consult(cnpj, key);
        assertEquals("bureau", json(november).path("fonte").asText(), november.body());
        assertEquals(10, json(november).path("creditos_consumidos").asInt(), november.body());
        assertEquals(80, f.balance(account));
    }

    @Test
    void creditReportCacheAndChargeArePerAccount() {
        s.clock.set(Instant.parse("2026-05-05T15:00:00Z"));
        String cnpj = sample.get(3).cnpj();
        Account first = accredited(100);
        assertEquals(
                "bureau", json(consult(cnpj, creditKey(first))).path("fonte").asText());
        assertEquals(
                "cache", json(consult(cnpj, creditKey(first))).path("fonte").asText());
        assertEquals(90, f.balance(first));

        Account second = accredited(100);
        HttpResponse<String> theirs = consult(cnpj, creditKey(second));
        assertEquals("bureau", json(theirs).path("fonte").asText(), "another account's cache is not theirs");
        assertEquals(10, json(theirs).path("creditos_consumidos").asInt());
        assertEquals(90, f.balance(second));
    }

    @Test
    void creditReportRefusesBadRequestsWithTheirCodesAndChargesNothing() {
        s.creditFaults.always(new Fault.Down()); // a call that reached the bureau would be 502
        Account account = accredited(100);
        String key = creditKey(account);
        String cpf = cpf(false, 1);

        HttpResponse<String> noKey = s.consult(BureauStack.body(cpf));
        contract.check(CREDIT, "post", noKey);
        assertError(noKey, 401, "SEM_CHAVE");
        assertError(consult(cpf, f.key(account, Scope.ENRIQUECIMENTO_READ)), 403, "SEM_ESCOPO");
        Account poor = accredited(9);
        assertError(consult(cpf, creditKey(poor)), 402, "SEM_CREDITOS");
        assertEquals(9, f.balance(poor));

        String wrongDigits = cpf.substring(0, 9) + (cpf.charAt(9) == '0' ? "19" : "09");
        assertError(consult(wrongDigits, key), 422, "CPF_INVALIDO");
        assertError(consult("123.456.789-00", key), 422, "CPF_INVALIDO");
        assertError(consult("11222333000180", key), 422, "PARAMETRO_INVALIDO");
        assertError(consult("12345", key), 422, "PARAMETRO_INVALIDO");
        for (String body : List.of(
                "{}",
                "{\"documento\": 12345678909}",
                "{\"documento\": null}",
                "{\"documento\": \"" + cpf + "\", \"cpf\": \"" + cpf + "\"}",
                "[\"" + cpf + "\"]",
                "documento=" + cpf,
                "")) {
            HttpResponse<String> r = s.consult(body, "X-API-Key", key);
            contract.check(CREDIT, "post", r);
            assertError(r, 422, "PARAMETRO_INVALIDO");
        }
        HttpResponse<String> inQuery =
                s.send("POST", "/v1/credito/consultar?documento=" + cpf, BureauStack.body(cpf), "X-API-Key", key);
        contract.check(CREDIT, "post", inQuery);
        assertError(inQuery, 422, "PARAMETRO_INVALIDO");
        assertEquals(
                "campo=documento; regra=unknown-parameter",
                json(inQuery).path("erro").path("detalhe").asText(),
                inQuery.body());
        assertFalse(inQuery.body().contains(cpf), "the document is not echoed: " + inQuery.body());
        HttpResponse<String> inPath = s.send("POST", "/v1/credito/consultar/" + cpf, "{}", "X-API-Key", key);
        assertEquals(404, inPath.statusCode(), "the document is never accepted in the path");
        assertEquals(100, f.balance(account));
    }

    @Test
    void creditReportOnADocumentTheBureauHasNothingOnIs404SemDadosAndFree() {
        Account account = accredited(100);
        HttpResponse<String> r = consult(cpf(true, 0), creditKey(account));
        assertError(r, 404, "SEM_DADOS");
        assertEquals(100, f.balance(account));
    }

    // ---- provider failures ----

    @Test
    void aProviderThatIsDownSlowOrAnswersGarbageChargesNothingCachesNothingAndAnswers502Or503() {
        s.clock.set(Instant.parse("2026-06-10T15:00:00Z"));
        Account account = accredited(100);
        String cpf = cpf(false, 2);
        String cnpj = sample.get(4).cnpj();
        for (Fault fault : List.of(new Fault.Down(), new Fault.Slow(Duration.ofSeconds(3)), new Fault.Malformed())) {
            s.creditFaults.clear().forDocument(cpf, fault);
            s.bureauFaults.clear().forDocument(cnpj, fault);
            HttpResponse<String> credit = consult(cpf, creditKey(account));
            assertError(credit, 502, "FORNECEDOR_INDISPONIVEL");
            assertFalse(credit.headers().firstValue("Retry-After").isPresent(), "the circuit is closed");
            assertFalse(credit.body().contains(cpf), "no document in the message: " + credit.body());
            HttpResponse<String> enrichment = enrich(cnpj, enrichKey(account));
            assertError(enrichment, 503, "FORNECEDOR_INDISPONIVEL");
            assertEquals(100, f.balance(account), fault + " charged");
        }
        s.creditFaults.clear();
        s.bureauFaults.clear();
        HttpResponse<String> good = consult(cpf, creditKey(account));
        assertEquals("bureau", json(good).path("fonte").asText(), "nothing was cached by the failures");
        assertEquals(10, json(good).path("creditos_consumidos").asInt());
        assertEquals(
                5,
                json(enrich(cnpj, enrichKey(account)))
                        .path("creditos_consumidos")
                        .asInt());
        assertEquals(85, f.balance(account));
    }

    @Test
    void anOpenCircuitAnswersAtOnceWithRetryAfterChargesNothingAndClosesAfterAGoodProbe() throws Exception {
        try (BureauStack tripping = BureauStack.tripping(f, Duration.ofMillis(1500))) {
            tripping.clock.set(Instant.parse("2026-07-10T15:00:00Z"));
            Account account = accredited(100);
            String creditKey = creditKey(account);
            String enrichKey = enrichKey(account);
            String cpf = cpf(false, 3);
            String cnpj = sample.get(5).cnpj();
            tripping.creditFaults.always(new Fault.Down());
            tripping.bureauFaults.always(new Fault.Down());
            for (int i = 0; i < 2; i++) {
                assertError(
                        tripping.consult(BureauStack.body(cpf), "X-API-Key", creditKey),
                        502,
                        "FORNECEDOR_INDISPONIVEL");
                assertError(tripping.enrich(cnpj, "X-API-Key", enrichKey), 503, "FORNECEDOR_INDISPONIVEL");
            }
            // Now open: the provider would answer, but is not called until the wait is over.
            tripping.creditFaults.clear();
            tripping.bureauFaults.clear();
            HttpResponse<String> credit = tripping.consult(BureauStack.body(cpf), "X-API-Key", creditKey);
            contract.check(CREDIT, "post", credit);
            assertError(credit, 502, "FORNECEDOR_INDISPONIVEL");
            int seconds =
                    Integer.parseInt(credit.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(seconds >= 1 && seconds <= 2, "the remaining wait, rounded up: " + seconds);
            HttpResponse<String> enrichment = tripping.enrich(cnpj, "X-API-Key", enrichKey);
            contract.check(ENRICH, enrichment);
            assertError(enrichment, 503, "FORNECEDOR_INDISPONIVEL");
            assertTrue(
                    enrichment.headers().firstValue("Retry-After").isPresent(),
                    enrichment.headers().map().toString());
            assertEquals(100, f.balance(account));

            // Asked again until the open wait is over: each refusal meanwhile is immediate and free, and
            // the first call let through is the probe, which the healthy provider answers.
            HttpResponse<String> probe = credit;
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (probe.statusCode() != 200) {
                assertError(probe, 502, "FORNECEDOR_INDISPONIVEL");
                assertEquals(100, f.balance(account), "a refusal while open charges nothing");
                assertTrue(System.nanoTime() < deadline, "the circuit still refused after 20 s: " + probe.body());
                Thread.sleep(50);
                probe = tripping.consult(BureauStack.body(cpf), "X-API-Key", creditKey);
            }
            contract.check(CREDIT, "post", probe);
            assertEquals("bureau", json(probe).path("fonte").asText());
            assertEquals(10, json(probe).path("creditos_consumidos").asInt());
            assertEquals(90, f.balance(account));
        }
    }

    // ---- allowlists ----

    @Test
    void personalFieldsAProviderAddsNeverReachTheResponse() {
        Account account = accredited(100);
        String cnpj = sample.get(6).cnpj();
        String cpf = cpf(false, 4);
        s.bureauFaults.always(new Fault.ExtraFields());
        s.creditFaults.always(new Fault.ExtraFields());
        HttpResponse<String> enrichment = enrich(cnpj, enrichKey(account));
        HttpResponse<String> credit = consult(cpf, creditKey(account));
        assertEquals(200, enrichment.statusCode(), enrichment.body());
        assertEquals(200, credit.statusCode(), credit.body());
        assertEquals(Set.of(), Allowlists.outside(json(enrichment), Allowlists.ENRICHMENT), enrichment.body());
        assertEquals(Set.of(), Allowlists.outside(json(credit), Allowlists.CREDIT), credit.body());
        for (HttpResponse<String> r : List.of(enrichment, credit)) {
            for (String personal : List.of(
                    "endereco", "telefone", "email", "nascimento", "nome_mae", "nome_pai", "filiacao", "titulo")) {
                assertFalse(r.body().contains(personal), personal + " leaked: " + r.body());
            }
        }
        assertFalse(json(enrichment).path("dados").path("socios").isEmpty(), "partners are delivered");
    }

    @Test
    void theAllowlistCheckFindsKeysOutsideTheLists() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        JsonNode enrichment = mapper.readTree("{\"dados\": {\"cnpj\": \"1\", \"socios\": [{\"cpf\": \"2\","
                + " \"endereco\": {\"rua\": \"x\"}}], \"porte\": {\"codigo\": {\"nested\": 1}}},"
                + " \"creditos_consumidos\": 5, \"extra\": 1}");
        assertEquals(
                Set.of("extra", "socios[].endereco", "porte.codigo.nested"),
                Allowlists.outside(enrichment, Allowlists.ENRICHMENT));
        JsonNode credit = mapper.readTree(
                "{\"fonte\": \"cache\", \"dados\": {\"documento\": \"1\", \"filiacao\": {\"nome_mae\": \"x\"}}}");
        assertEquals(Set.of("filiacao"), Allowlists.outside(credit, Allowlists.CREDIT));
        assertEquals(Set.of("fonte", "documento", "filiacao"), Allowlists.outside(credit, Allowlists.ENRICHMENT));
    }

    // ---- Idempotency-Key ----

    @Test
    void aRetryWithTheSameIdempotencyKeyNeitherCallsTheProviderNorCharges() {
        s.clock.set(Instant.parse("2026-08-10T15:00:00Z"));
        Account account = accredited(100);
        String cpf = cpf(false, 5);
        String cnpj = sample.get(7).cnpj();
        HttpResponse<String> credit =
                s.consult(BureauStack.body(cpf), "X-API-Key", creditKey(account), "Idempotency-Key", "cred-1");
        HttpResponse<String> enrichment = s.enrich(cnpj, "X-API-Key", enrichKey(account), "Idempotency-Key", "enr-1");
        assertEquals(200, credit.statusCode(), credit.body());
        assertEquals(200, enrichment.statusCode(), enrichment.body());
        assertEquals(85, f.balance(account));

        // A call that reached either provider now would fail: the replays prove they were not called.
        s.creditFaults.always(new Fault.Down());
        s.bureauFaults.always(new Fault.Down());
        // 23 hours on: another day in Sao Paulo (no same-day rebate), within the key's 24-hour retention.
        s.clock.advance(Duration.ofHours(23));
        HttpResponse<String> creditAgain = s.consult(
                BureauStack.body(Cpf.of(cpf).formatted()),
                "X-API-Key",
                creditKey(account),
                "Idempotency-Key",
                "cred-1");
        HttpResponse<String> enrichAgain = s.enrich(cnpj, "X-API-Key", enrichKey(account), "Idempotency-Key", "enr-1");
        contract.check(CREDIT, "post", creditAgain);
        contract.check(ENRICH, enrichAgain);
        assertEquals(200, creditAgain.statusCode(), creditAgain.body());
        assertEquals(credit.body(), creditAgain.body());
        assertEquals(
                "true", creditAgain.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(200, enrichAgain.statusCode(), enrichAgain.body());
        assertEquals(enrichment.body(), enrichAgain.body());
        assertEquals(
                "true", enrichAgain.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(85, f.balance(account));

        HttpResponse<String> otherDocument = s.consult(
                BureauStack.body(cpf(false, 6)), "X-API-Key", creditKey(account), "Idempotency-Key", "cred-1");
        assertError(otherDocument, 422, "PARAMETRO_INVALIDO");
        HttpResponse<String> otherCnpj =
                s.enrich(sample.get(8).cnpj(), "X-API-Key", enrichKey(account), "Idempotency-Key", "enr-1");
        assertError(otherCnpj, 422, "PARAMETRO_INVALIDO");
        assertEquals(85, f.balance(account));
    }

    @Test
    void aFailedCallReleasesItsIdempotencyKeySoARetryRunsAndChargesOnce() {
        s.clock.set(Instant.parse("2026-09-10T15:00:00Z"));
        Account account = accredited(100);
        String cpf = cpf(false, 7);
        s.creditFaults.always(new Fault.Down());
        assertError(
                s.consult(BureauStack.body(cpf), "X-API-Key", creditKey(account), "Idempotency-Key", "retry-1"),
                502,
                "FORNECEDOR_INDISPONIVEL");
        s.creditFaults.clear();
        HttpResponse<String> retry =
                s.consult(BureauStack.body(cpf), "X-API-Key", creditKey(account), "Idempotency-Key", "retry-1");
        assertEquals(200, retry.statusCode(), retry.body());
        assertNotEquals(
                "true", retry.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(90, f.balance(account));
    }

    // ---- every documented status ----

    /**
     * The statuses not produced above, each produced for real on each of the three operations and
     * checked against the document: 405, 413, 414, 429, 431, 500 and 503 (the API disabled).
     */
    @Test
    void answersEveryRemainingDocumentedStatusInItsSchema() throws Exception {
        String cnpj = sample.get(9).cnpj();
        String cpf = cpf(false, 8);
        LuceneRegister closed = LuceneRegister.open(f.index);
        closed.close();
        ProviderOptions.Providers broken = ProviderOptions.simulated()
                .withBureaus(
                        c -> {
                            throw new IllegalStateException("a host's adapter with a bug");
                        },
                        d -> {
                            throw new IllegalStateException("a host's adapter with a bug");
                        })
                .build(closed);
        try (JettyRuntime failing = JettyRuntime.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                CompanyDataRoutes.router(
                        closed,
                        f.server.store(),
                        f.server.store().admission(1000, s.clock),
                        s.clock,
                        f.server.mailing(),
                        broken),
                Service.COMPANY_DATA,
                RuntimeOptions.defaults())) {
            record Op(String template, String method, String path, String body, Scope scope) {}
            for (Op op : List.of(
                    new Op(ENRICH, "get", "/v1/enriquecimento/" + cnpj, null, Scope.ENRIQUECIMENTO_READ),
                    new Op(
                            ENRICH_SLASH,
                            "get",
                            "/v1/enriquecimento/" + Cnpj.of(cnpj).formatted(),
                            null,
                            Scope.ENRIQUECIMENTO_READ),
                    new Op(CREDIT, "post", CREDIT, BureauStack.body(cpf), Scope.CREDITO_READ))) {
                String method = op.method().toUpperCase(java.util.Locale.ROOT);
                String key = f.key(accredited(100), op.scope());
                java.util.function.BiConsumer<Integer, HttpResponse<String>> expect = (status, r) -> {
                    assertEquals(status, r.statusCode(), op.template() + " " + r.body());
                    contract.check(op.template(), op.method(), r);
                };
                String otherMethod = method.equals("GET") ? "POST" : "GET";
                expect.accept(
                        405,
                        s.send(otherMethod, op.path(), otherMethod.equals("POST") ? "{}" : null, "X-API-Key", key));
                expect.accept(413, s.send(method, op.path(), "x".repeat(1024 * 1024 + 1), "X-API-Key", key));
                expect.accept(414, s.send(method, op.path() + "?q=" + "1".repeat(10_000), op.body(), "X-API-Key", key));
                expect.accept(
                        431, s.send(method, op.path(), op.body(), "X-API-Key", key, "X-Padding", "p".repeat(20_000)));
                expect.accept(500, s.send(failing.port(), method, op.path(), op.body(), "X-API-Key", key));
                Account off = accredited(100);
                String offKey = f.key(off, op.scope());
                f.server.store().accounts().setApiEnabled(off.id(), false);
                expect.accept(503, s.send(method, op.path(), op.body(), "X-API-Key", offKey));
                String tightKey = f.key(accredited(100), op.scope());
                for (int i = 0; i < ServerFixture.TIGHT_PER_MINUTE; i++) {
                    s.send(f.tightPort(), method, op.path(), op.body(), "X-API-Key", tightKey);
                }
                expect.accept(429, s.send(f.tightPort(), method, op.path(), op.body(), "X-API-Key", tightKey));
            }
        }
        // The remaining statuses of the masked-CNPJ route, as the plain route produced them above.
        Account account = accredited(100);
        String key = enrichKey(account);
        String masked = "/v1/enriquecimento/" + Cnpj.of(cnpj).formatted();
        for (HttpResponse<String> r : List.of(
                s.send("GET", masked, null),
                s.send("GET", masked, null, "X-API-Key", f.key(account, Scope.EMPRESAS_READ)),
                s.send("GET", masked, null, "X-API-Key", enrichKey(accredited(0))),
                s.send(
                        "GET",
                        "/v1/enriquecimento/" + Cnpj.of(outsideRegister(false)).formatted(),
                        null,
                        "X-API-Key",
                        key))) {
            contract.check(ENRICH_SLASH, r);
        }
        s.bureauFaults.always(new Fault.Down());
        contract.check(ENRICH_SLASH, s.send("GET", masked, null, "X-API-Key", key));
        s.creditFaults.always(new Fault.Down());
        contract.check(CREDIT, "post", s.consult(BureauStack.body(cpf), "X-API-Key", creditKey(account)));
    }

    /** Runs last: every status the document lists for the three operations was produced and checked. */
    @Test
    @Order(Integer.MAX_VALUE)
    void everyDocumentedStatusWasSeen() {
        Set<String> unseen = new TreeSet<>();
        for (String[] op : List.of(
                new String[] {ENRICH, "get"}, new String[] {ENRICH_SLASH, "get"}, new String[] {CREDIT, "post"})) {
            contract.document()
                    .at("/paths/" + op[0].replace("/", "~1") + "/" + op[1] + "/responses")
                    .fieldNames()
                    .forEachRemaining(status -> unseen.add(op[0] + " " + status));
        }
        assertEquals(40, unseen.size(), "13 + 13 + 14 documented statuses: " + unseen);
        unseen.removeAll(contract.checked);
        assertEquals(Set.of(), unseen, "documented but never answered and checked by this class");
    }
}
