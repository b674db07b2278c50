package dev.cadastro.server;

import static dev.cadastro.server.PersonStack.bearer;
import static dev.cadastro.server.PersonStack.body;
import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.person.AuditRecord;
import dev.cadastro.core.person.Subject;
import dev.cadastro.providers.Fault;
import dev.cadastro.providers.SimulatedPersonBureau;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Person lookup end to end: a real client through a real socket, the embedded
 * PostgreSQL, the simulated person bureau behind a real guard. Every answer is checked against the
 * OpenAPI document.
 */
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class PersonEndToEndTest {
    /** The runtime of this run of the class: the JDK's, or Jetty through the servlet bridge. */
    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static final String LOOKUP = "/v1/pessoas/consultar";
    private static final String ASYNC = "/v1/pessoas/consultar-async";
    private static final String JOB = "/v1/pessoas/jobs/{job_id}";
    private static final String BATCH = "/v1/pessoas/lote";
    private static final Set<String> ALL = Set.of(
            "cpf",
            "nome",
            "data_nascimento",
            "situacao_cpf",
            "obito",
            "enderecos",
            "telefones",
            "emails",
            "score",
            "renda_estimada");

    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    private static ServerFixture f;
    private static PersonStack s;
    private static OpenApiContract contract;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) {
        f = ServerFixture.on(runtime);
        s = new PersonStack(f);
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
    }

    @org.junit.jupiter.params.AfterParameterizedClassInvocation
    static void stop() {
        s.close();
    }

    @AfterEach
    void clearFaults() {
        s.personFaults.clear();
    }

    private static HttpResponse<String> lookup(String body, String... headers) {
        HttpResponse<String> r = s.post(LOOKUP, body, headers);
        contract.check(LOOKUP, "post", r);
        return r;
    }

    private static void expectError(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(code, json(r).at("/erro/code").asText(), r.body());
    }

    @Test
    void runsEachCheckInTheSpecOrderAndAnEarlierFailureHidesTheLaterOnes() {
        Cpf good = PersonStack.withData(1);
        Cpf noData = PersonStack.cpf(1, c -> SimulatedPersonBureau.hasNothingOn(c, Purpose.KYC_CADASTRO));
        String badDigits = good.digits().substring(0, 10) + ((good.digits().charAt(10) - '0' + 1) % 10);
        Account poor = s.account(0, ALL);
        f.server.store().accounts().removePurpose(poor.id(), Purpose.PREVENCAO_FRAUDE);
        // Everything wrong at once: each step fixes one thing, and only the next check shows.
        expectError(lookup(body("cpf", badDigits, "XYZ", null)), 401, "SEM_CHAVE");
        String unscoped = s.key(poor, true, Scope.EMPRESAS_READ);
        expectError(lookup(body("cpf", badDigits, "XYZ", null), bearer(unscoped)), 403, "SEM_ESCOPO");
        String unreleased = s.key(poor, false);
        expectError(lookup(body("cpf", badDigits, "XYZ", null), bearer(unreleased)), 403, "PF_NAO_HABILITADA");
        String key = s.key(poor, true);
        expectError(lookup(body("cpf", badDigits, "XYZ", null), bearer(key)), 422, "FINALIDADE_INVALIDA");
        expectError(lookup("{\"cpf\": \"" + badDigits + "\"}", bearer(key)), 422, "FINALIDADE_INVALIDA");
        expectError(
                lookup(body("cpf", badDigits, "PREVENCAO_FRAUDE", null), bearer(key)),
                403,
                "FINALIDADE_NAO_CONTRATADA");
        expectError(lookup(body("cpf", badDigits, "KYC_CADASTRO", null), bearer(key)), 422, "CPF_INVALIDO");
        expectError(lookup(body(null, null, "KYC_CADASTRO", null), bearer(key)), 422, "PARAMETRO_INVALIDO");
        expectError(
                lookup(
                        "{\"cpf\": \"" + good.digits()
                                + "\", \"telefone\": \"11912345678\", \"finalidade\": \"KYC_CADASTRO\"}",
                        bearer(key)),
                422,
                "PARAMETRO_INVALIDO");
        expectError(lookup(body("telefone", "12345", "KYC_CADASTRO", null), bearer(key)), 422, "PARAMETRO_INVALIDO");
        expectError(lookup(body("cpf", good.formatted(), "KYC_CADASTRO", null), bearer(key)), 402, "SEM_CREDITOS");

        Account paying = s.account(100, ALL);
        String payKey = s.key(paying, true);
        s.personFaults.forDocument(good.digits(), new Fault.Down());
        expectError(
                lookup(body("cpf", good.digits(), "KYC_CADASTRO", null), bearer(payKey)),
                502,
                "FORNECEDOR_INDISPONIVEL");
        s.personFaults.clear();
        expectError(lookup(body("cpf", noData.digits(), "KYC_CADASTRO", null), bearer(payKey)), 404, "SEM_DADOS");
        assertEquals(100, f.balance(paying), "no check that failed charged anything");
        assertEquals(0, s.auditRows(paying));

        HttpResponse<String> ok = lookup(body("cpf", good.formatted(), "KYC_CADASTRO", null), bearer(payKey));
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals(15, json(ok).get("creditos_consumidos").asLong());
        assertEquals(good.digits(), json(ok).at("/dados/cpf").asText());
        assertEquals(85, f.balance(paying));
        assertEquals(1, s.auditRows(paying));
        assertEquals("85", ok.headers().firstValue("X-Creditos-Saldo").orElseThrow());
    }

    @Test
    void theAsyncCreationRunsTheSameChecksTheBalanceIncludedAndChargesNothing() {
        Cpf good = PersonStack.withData(20);
        Account poor = s.account(14, ALL);
        HttpResponse<String> unreleased =
                s.post(ASYNC, body("cpf", good.digits(), "KYC_CADASTRO", null), bearer(s.key(poor, false)));
        contract.check(ASYNC, "post", unreleased);
        expectError(unreleased, 403, "PF_NAO_HABILITADA");
        String key = s.key(poor, true);
        expectError(
                s.post(ASYNC, body("cpf", good.digits(), "NENHUMA", null), bearer(key)), 422, "FINALIDADE_INVALIDA");
        expectError(
                s.post(ASYNC, body("cpf", "111.111.111-11", "KYC_CADASTRO", null), bearer(key)), 422, "CPF_INVALIDO");
        HttpResponse<String> broke = s.post(ASYNC, body("cpf", good.digits(), "KYC_CADASTRO", null), bearer(key));
        contract.check(ASYNC, "post", broke);
        expectError(broke, 402, "SEM_CREDITOS");
        assertEquals(
                0,
                s.count(
                        "SELECT count(*) FROM person_jobs WHERE account_id = ?",
                        poor.id().value()));
        assertEquals(14, f.balance(poor));
    }

    @Test
    void chargesFifteenOnEveryCallARepeatOfTheSameCpfIncluded() {
        Cpf cpf = PersonStack.withData(40);
        Account a = s.account(100, ALL);
        String key = s.key(a, true);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = lookup(body("cpf", cpf.digits(), "ANALISE_CREDITO", null), bearer(key));
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(15, json(r).get("creditos_consumidos").asLong());
        }
        assertEquals(55, f.balance(a));
        assertEquals(3, s.auditRows(a));
    }

    @Test
    void looksUpByPhoneAndRecordsOnlyAKeyedHashOfIt() {
        String phone = null;
        Cpf owner = null;
        for (int i = 0; phone == null; i++) {
            String candidate = "1191234" + String.format("%04d", i);
            var o = SimulatedPersonBureau.ownerOf(candidate);
            if (o.isPresent() && !SimulatedPersonBureau.hasNothingOn(o.get(), Purpose.COBRANCA_DIVIDA_PROPRIA)) {
                phone = candidate;
                owner = o.get();
            }
        }
        Account a = s.account(100, ALL);
        String key = s.key(a, true);
        HttpResponse<String> r = lookup(
                body(
                        "telefone",
                        "(11) " + phone.substring(2, 7) + "-" + phone.substring(7),
                        "COBRANCA_DIVIDA_PROPRIA",
                        null),
                bearer(key));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(owner.digits(), json(r).at("/dados/cpf").asText());
        List<AuditRecord> rows = f.server.store().personAudit().list(a.id(), Instant.EPOCH, FAR, 10);
        assertEquals(1, rows.size());
        AuditRecord row = rows.get(0);
        assertEquals("TELEFONE", row.subjectKind());
        assertEquals(
                PersonStack.AUDIT_KEY
                        .of(new Subject.ByPhone(dev.cadastro.core.document.Phone.of(phone)))
                        .hex(),
                row.subjectHash());
        assertFalse(row.toString().contains(phone), "the audit row never holds the phone");
        assertEquals(
                0,
                s.count(
                        "SELECT count(*) FROM person_audit WHERE account_id = ? AND (justification LIKE ? OR request_id LIKE ?)",
                        a.id().value(),
                        "%" + phone + "%",
                        "%" + phone + "%"));
    }

    @Test
    void anAuditRowThatCannotBeWrittenChargesNothingAndDeliversNothing() {
        Cpf cpf = PersonStack.withData(80);
        Account a = s.account(100, ALL);
        String key = s.key(a, true);
        // A real failure of the insert, for this account only: a trigger on the embedded PostgreSQL.
        s.execute("CREATE FUNCTION refuse_audit_" + a.id().value() + "() RETURNS trigger LANGUAGE plpgsql AS $$"
                + " BEGIN RAISE EXCEPTION 'audit disk full'; END $$");
        s.execute("CREATE TRIGGER refuse_audit_" + a.id().value() + " BEFORE INSERT ON person_audit FOR EACH ROW"
                + " WHEN (NEW.account_id = " + a.id().value() + ") EXECUTE FUNCTION refuse_audit_" + a.id().value()
                + "()");
        try {
            HttpResponse<String> r = lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(key));
            expectError(r, 503, "AUDITORIA_INDISPONIVEL");
            assertFalse(r.body().contains(cpf.digits()), "nothing delivered");
            assertFalse(json(r).has("dados"));

            HttpResponse<String> batch = s.post(
                    BATCH, "{\"cpfs\": [\"" + cpf.digits() + "\"], \"finalidade\": \"KYC_CADASTRO\"}", bearer(key));
            contract.check(BATCH, "post", batch);
            expectError(batch, 503, "AUDITORIA_INDISPONIVEL");

            HttpResponse<String> created = s.post(ASYNC, body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(key));
            assertEquals(200, created.statusCode(), created.body());
            String job = json(created).get("job_id").asText();
            HttpResponse<String> read = s.get("/v1/pessoas/jobs/" + job, bearer(key));
            contract.check(JOB, read);
            expectError(read, 503, "AUDITORIA_INDISPONIVEL");
            assertEquals(100, f.balance(a), "nothing charged");
            assertEquals(0, s.personCharges(a));
            assertEquals(0, s.auditRows(a));

            s.execute("DROP TRIGGER refuse_audit_" + a.id().value() + " ON person_audit");
            HttpResponse<String> again = s.get("/v1/pessoas/jobs/" + job, bearer(key));
            assertEquals(200, again.statusCode(), "the job stayed pending: " + again.body());
            assertTrue(json(again).has("dados"));
            assertEquals(85, f.balance(a));
        } finally {
            s.execute("DROP TRIGGER IF EXISTS refuse_audit_" + a.id().value() + " ON person_audit");
        }
    }

    @Test
    void releasesOnlyTheFieldsTheAccountContractedForThePurpose() {
        Cpf cpf = PersonStack.withData(120);
        Account narrow = s.account(100, Set.of("nome", "enderecos.cep"));
        f.server
                .store()
                .accounts()
                .contractPurpose(narrow.id(), Purpose.ANALISE_CREDITO, Set.of("score", "renda_estimada"));
        Account wide = s.account(100, Set.of("nome", "telefones", "situacao_cpf", "obito"));
        String narrowKey = s.key(narrow, true);
        String wideKey = s.key(wide, true);

        JsonNode kyc = json(lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(narrowKey)))
                .get("dados");
        assertEquals(Set.of("nome", "enderecos"), names(kyc));
        for (JsonNode e : kyc.get("enderecos")) {
            assertEquals(Set.of("cep"), names(e), "only the contracted field of each address");
        }
        JsonNode credit = json(lookup(body("cpf", cpf.digits(), "ANALISE_CREDITO", null), bearer(narrowKey)))
                .get("dados");
        assertEquals(Set.of("score", "renda_estimada"), names(credit));
        HttpResponse<String> w = lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(wideKey));
        assertEquals(Set.of("nome", "telefones", "situacao_cpf", "obito"), names(json(w).get("dados")));
        assertEquals(List.of("nome", "obito", "situacao_cpf", "telefones"), texts(json(w).get("campos_liberados")));
        List<AuditRecord> rows = f.server.store().personAudit().list(wide.id(), Instant.EPOCH, FAR, 10);
        assertEquals(
                List.of("nome", "obito", "situacao_cpf", "telefones"),
                rows.get(0).fields());
    }

    @Test
    void keepsAGoodJustificationAndReplacesABadOneWithAWarningNeverFailing() {
        Cpf cpf = PersonStack.withData(160);
        Account a = s.account(1000, ALL);
        String key = s.key(a, true);
        JsonNode kept = json(lookup(
                body("cpf", cpf.digits(), "KYC_CADASTRO", "Abertura de conta corrente do cliente"), bearer(key)));
        assertEquals("enviada", kept.at("/justificativa/origem").asText());
        assertEquals(
                "Abertura de conta corrente do cliente",
                kept.at("/justificativa/texto").asText());
        assertFalse(kept.has("avisos"));

        record Bad(String text, String rule) {}
        for (Bad bad : List.of(
                new Bad("curta", "curta"),
                new Bad("Cliente de CPF " + cpf.formatted() + " pediu conta", "contem_cpf"),
                new Bad("Contato pelo telefone 11 91234-5678 hoje", "contem_telefone"),
                new Bad("Contato por email fulano@example.com hoje", "contem_email"))) {
            JsonNode r = json(lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", bad.text()), bearer(key)));
            assertEquals("padrao_finalidade", r.at("/justificativa/origem").asText(), bad.text());
            assertEquals("JUSTIFICATIVA_INVALIDA", r.at("/avisos/0/code").asText());
            assertEquals(bad.rule(), r.at("/avisos/0/regra").asText());
        }
        f.server
                .store()
                .accounts()
                .setDefaultJustification(a.id(), java.util.Optional.of("Politica interna de KYC da conta"));
        JsonNode fallback = json(lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", "x"), bearer(key)));
        assertEquals("padrao_conta", fallback.at("/justificativa/origem").asText());
        assertEquals(
                "Politica interna de KYC da conta",
                fallback.at("/justificativa/texto").asText());
        List<AuditRecord> rows = f.server.store().personAudit().list(a.id(), Instant.EPOCH, FAR, 100);
        assertEquals(
                "Politica interna de KYC da conta", rows.get(rows.size() - 1).justification());
        assertTrue(rows.stream().noneMatch(row -> row.justification().contains(cpf.formatted())));
    }

    @Test
    void anAsyncJobIsChargedOnceOnItsFirstReadAndItsResultIsThenErased() {
        Cpf cpf = PersonStack.withData(200);
        Account a = s.account(100, ALL);
        String key = s.key(a, true);
        HttpResponse<String> created = s.post(ASYNC, body("cpf", cpf.digits(), "PREVENCAO_FRAUDE", null), bearer(key));
        contract.check(ASYNC, "post", created);
        assertEquals("pendente", json(created).get("status").asText());
        assertEquals(100, f.balance(a), "nothing charged at creation");
        String id = json(created).get("job_id").asText();

        s.personFaults.forDocument(cpf.digits(), new Fault.Down());
        HttpResponse<String> failed = s.get("/v1/pessoas/jobs/" + id, bearer(key));
        contract.check(JOB, failed);
        expectError(failed, 502, "FORNECEDOR_INDISPONIVEL");
        assertEquals(100, f.balance(a));
        s.personFaults.clear();

        HttpResponse<String> first = s.get("/v1/pessoas/jobs/" + id, bearer(key));
        contract.check(JOB, first);
        assertEquals("concluido", json(first).get("status").asText(), first.body());
        assertEquals(cpf.digits(), json(first).at("/dados/cpf").asText());
        assertEquals(85, f.balance(a));

        HttpResponse<String> later = s.get("/v1/pessoas/jobs/" + id, bearer(key));
        contract.check(JOB, later);
        assertEquals("concluido", json(later).get("status").asText());
        assertFalse(json(later).has("dados"), "the result is erased once delivered");
        assertTrue(json(later).has("entregue_em"));
        assertEquals(85, f.balance(a));
        assertEquals(1, s.auditRows(a));
        assertEquals(0, s.count("SELECT count(*) FROM person_jobs WHERE id = ? AND subject IS NOT NULL", id));

        Account other = s.account(100, ALL);
        HttpResponse<String> foreign = s.get("/v1/pessoas/jobs/" + id, bearer(s.key(other, true)));
        contract.check(JOB, foreign);
        expectError(foreign, 404, "NAO_ENCONTRADO");
    }

    @Test
    void anUnreadJobExpiresAfter24Hours() {
        Cpf cpf = PersonStack.withData(240);
        Account a = s.account(100, ALL);
        String key = s.key(a, true);
        String id = json(s.post(ASYNC, body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(key)))
                .get("job_id")
                .asText();
        s.clock.advance(Duration.ofHours(24));
        try {
            HttpResponse<String> r = s.get("/v1/pessoas/jobs/" + id, bearer(key));
            expectError(r, 404, "NAO_ENCONTRADO");
            assertEquals(100, f.balance(a));
        } finally {
            s.clock.set(ServerFixture.START);
        }
    }

    @Test
    void concurrentFirstReadsDeliverOnceAndChargeOnce() throws Exception {
        Cpf cpf = PersonStack.withData(280);
        Account a = s.account(100, ALL);
        String key = s.key(a, true);
        String id = json(s.post(ASYNC, body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(key)))
                .get("job_id")
                .asText();
        s.personFaults.forDocument(cpf.digits(), new Fault.Slow(Duration.ofMillis(1500)));
        int readers = 8;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < readers; i++) {
                Callable<HttpResponse<String>> read = () -> {
                    go.await();
                    return s.get("/v1/pessoas/jobs/" + id, bearer(key));
                };
                answers.add(pool.submit(read));
            }
            go.countDown();
            // One read won the claim and waits on the bureau; a read now, with the claim still held before
            // and after it, ran while the lookup runs.
            Await.until("a read claims the job", () -> jobIs(id, "PROCESSANDO"), Duration.ofSeconds(10));
            HttpResponse<String> during = s.get("/v1/pessoas/jobs/" + id, bearer(key));
            assertTrue(jobIs(id, "PROCESSANDO"), "the lookup still ran when the read came back");
            contract.check(JOB, during);
            assertEquals(200, during.statusCode(), during.body());
            assertEquals("processando", json(during).path("status").asText(), during.body());
            assertFalse(json(during).has("dados"), during.body());
            assertTrue(json(during).get("retry_after").asInt() >= 1, during.body());
            assertTrue(during.headers().firstValue("Retry-After").isPresent());
            int delivered = 0;
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> r = answer.get();
                contract.check(JOB, r);
                assertEquals(200, r.statusCode(), r.body());
                if (json(r).has("dados")) {
                    delivered++;
                } else if ("processando".equals(json(r).get("status").asText())) {
                    assertTrue(json(r).get("retry_after").asInt() >= 1);
                    assertTrue(r.headers().firstValue("Retry-After").isPresent());
                }
            }
            assertEquals(1, delivered, "one delivery");
        } finally {
            s.personFaults.clear();
        }
        assertEquals(85, f.balance(a), "one charge");
        assertEquals(1, s.auditRows(a));
    }

    @Test
    void aBatchAnswersEveryPositionInOrderWithItsOwnStatus() {
        Cpf a1 = PersonStack.withData(320);
        Cpf a2 = PersonStack.withData(a1Index(a1) + 1);
        Cpf none = PersonStack.cpf(320, c -> SimulatedPersonBureau.hasNothingOn(c, Purpose.KYC_CADASTRO));
        Cpf down = PersonStack.withData(a1Index(a2) + 1);
        s.personFaults.forDocument(down.digits(), new Fault.Down());
        Account acct = s.account(1000, ALL);
        String key = s.key(acct, true);
        String body = "{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [\"" + a1.formatted() + "\", \"123\", \""
                + a1.digits() + "\", \"" + none.digits() + "\", \"" + down.digits() + "\", \"" + a2.digits() + "\"]}";
        HttpResponse<String> r = s.post(BATCH, body, bearer(key));
        contract.check(BATCH, "post", r);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode items = json(r).get("itens");
        assertEquals(
                List.of("concluido", "cpf_invalido", "duplicado", "sem_dados", "fornecedor_indisponivel", "concluido"),
                statuses(items));
        for (int i = 0; i < items.size(); i++) {
            assertEquals(i, items.get(i).get("posicao").asInt());
        }
        assertEquals(0, items.get(2).get("primeira_posicao").asInt());
        assertEquals(a2.digits(), items.get(5).at("/dados/cpf").asText());
        assertEquals(30, json(r).get("creditos_consumidos").asLong());
        assertEquals(970, f.balance(acct));
        assertEquals(2, s.auditRows(acct));
    }

    private static boolean jobIs(String id, String state) {
        return s.count("SELECT count(*) FROM person_jobs WHERE id = ? AND state = ?", id, state) == 1;
    }

    private static int a1Index(Cpf cpf) {
        for (int i = 0; ; i++) {
            if (PersonStack.cpf(i, c -> true).equals(cpf)) {
                return i;
            }
        }
    }

    @Test
    void aBatchStopsChargingWhereTheBalanceRunsOut() {
        List<Cpf> cpfs = new ArrayList<>();
        int from = 400;
        while (cpfs.size() < 4) {
            Cpf c = PersonStack.withData(from);
            cpfs.add(c);
            from = a1Index(c) + 1;
        }
        Account acct = s.account(40, ALL);
        String key = s.key(acct, true);
        String body = "{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [\""
                + cpfs.get(0).digits() + "\", \"" + cpfs.get(1).digits() + "\", \""
                + cpfs.get(2).digits() + "\", \"1\", \"" + cpfs.get(3).digits() + "\"]}";
        HttpResponse<String> r = s.post(BATCH, body, bearer(key));
        contract.check(BATCH, "post", r);
        assertEquals(
                List.of("concluido", "concluido", "sem_creditos", "cpf_invalido", "sem_creditos"),
                statuses(json(r).get("itens")));
        assertEquals(30, json(r).get("creditos_consumidos").asLong());
        assertEquals(10, f.balance(acct));
    }

    @Test
    void aBatchItemThatIsNotAStringIsInvalidForItsTypeNotMissing() {
        Cpf good = PersonStack.withData(600);
        Account acct = s.account(1000, ALL);
        String key = s.key(acct, true);
        // The good CPF sent as a JSON number is still not a CPF: its type is wrong, it is not missing.
        String body = "{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [" + good.digits() + ", \"\", null, true, [\""
                + good.digits() + "\"], \"" + good.digits() + "\"]}";
        HttpResponse<String> r = s.post(BATCH, body, bearer(key));
        contract.check(BATCH, "post", r);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode items = json(r).get("itens");
        assertEquals(
                List.of("cpf_invalido", "cpf_invalido", "cpf_invalido", "cpf_invalido", "cpf_invalido", "concluido"),
                statuses(items));
        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            reasons.add(items.get(i).path("motivo").asText());
        }
        assertEquals(List.of("type", "required", "type", "type", "type"), reasons, r.body());
        assertEquals(15, json(r).get("creditos_consumidos").asLong());
        assertEquals(985, f.balance(acct));
    }

    @Test
    void aBatchAboveTheContractedCeilingIsRefusedStatingIt() {
        Account acct = s.account(1000, ALL);
        f.server.store().accounts().setPersonBatchLimit(acct.id(), 3);
        String key = s.key(acct, true);
        HttpResponse<String> r = s.post(
                BATCH, "{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [\"1\", \"2\", \"3\", \"4\"]}", bearer(key));
        contract.check(BATCH, "post", r);
        expectError(r, 422, "PARAMETRO_INVALIDO");
        assertTrue(json(r).at("/erro/mensagem").asText().contains("é 3 por lote"), r.body());
        HttpResponse<String> unreleased = s.post(
                BATCH,
                "{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [\"1\", \"2\", \"3\", \"4\"]}",
                bearer(s.key(acct, false)));
        expectError(unreleased, 403, "PF_NAO_HABILITADA");
        assertEquals(1000, f.balance(acct));
    }

    @Test
    void anAccountOnTheDefaultContractTakesBatchesOf100AndRefuses101() {
        Account acct = s.account(1000, ALL);
        String key = s.key(acct, true);
        HttpResponse<String> refused = s.post(BATCH, batchOf(101), bearer(key));
        contract.check(BATCH, "post", refused);
        expectError(refused, 422, "PARAMETRO_INVALIDO");
        String message = json(refused).at("/erro/mensagem").asText();
        assertTrue(message.startsWith("cpfs "), "names the field: " + message);
        assertTrue(message.contains("101 itens"), "states the count: " + message);
        assertTrue(message.contains("é 100 por lote"), "states the default ceiling: " + message);
        assertEquals(1000, f.balance(acct));

        HttpResponse<String> accepted = s.post(BATCH, batchOf(100), bearer(key));
        contract.check(BATCH, "post", accepted);
        assertEquals(200, accepted.statusCode(), accepted.body());
        JsonNode items = json(accepted).get("itens");
        assertEquals(100, items.size());
        items.forEach(item -> assertEquals("cpf_invalido", item.get("status").asText(), item.toString()));
        assertEquals(0, json(accepted).get("creditos_consumidos").asLong());
        assertEquals(1000, f.balance(acct));
    }

    /** A batch of {@code n} distinct items that are not CPFs: accepted or refused by its size alone, free. */
    private static String batchOf(int n) {
        StringBuilder b = new StringBuilder("{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [");
        for (int i = 1; i <= n; i++) {
            b.append(i == 1 ? "" : ", ").append('"').append(i).append('"');
        }
        return b.append("]}").toString();
    }

    @Test
    void aRetryWithTheSameIdempotencyKeyChargesNothingAndDoesNotRepeatTheData() {
        Cpf cpf = PersonStack.withData(500);
        Account acct = s.account(1000, ALL);
        String key = s.key(acct, true);
        String[] headers = bearer(key, "Idempotency-Key", "retry-1");
        HttpResponse<String> first = lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), headers);
        HttpResponse<String> retry = lookup(body("cpf", cpf.formatted(), "KYC_CADASTRO", null), headers);
        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertTrue(json(first).has("dados"));
        assertFalse(json(retry).has("dados"), "the dossier is not stored to be replayed");
        assertTrue(json(retry).get("dados_omitidos").asBoolean());
        String batch = "{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [\"" + cpf.digits() + "\"]}";
        String[] batchHeaders = bearer(key, "Idempotency-Key", "retry-batch-1");
        assertEquals(200, s.post(BATCH, batch, batchHeaders).statusCode());
        HttpResponse<String> batchRetry = s.post(BATCH, batch, batchHeaders);
        contract.check(BATCH, "post", batchRetry);
        assertFalse(batchRetry.body().contains("\"nome\""), batchRetry.body());
        assertEquals(1000 - 30, f.balance(acct));
        assertEquals(
                0,
                s.count(
                        "SELECT count(*) FROM idempotency_requests WHERE position(convert_to(?, 'UTF8') in answer) > 0",
                        cpf.digits()),
                "no stored answer holds the CPF");
    }

    @Test
    void aRetryThatTakesOverAnExpiredIdempotencyLeaseNeverDeliversTheDossierTwice() throws Exception {
        Cpf cpf = PersonStack.withData(700);
        Account acct = s.account(1000, ALL);
        String key = s.key(acct, true);
        String[] headers = bearer(key, "Idempotency-Key", "takeover-1");
        s.personFaults.forDocument(cpf.digits(), new Fault.Slow(Duration.ofMillis(1500)));
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<HttpResponse<String>> first =
                    pool.submit(() -> lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), headers));
            // The first run holds the key: its row is there, unanswered, leased until START + the lease (the
            // test's clock stands still, so renewing it moves nothing).
            Await.until(
                    "the first run claims the key",
                    () -> s.count(
                                    "SELECT count(*) FROM idempotency_requests WHERE account_id = ? AND client_key = ?"
                                            + " AND answer IS NULL AND locked_until = ?",
                                    acct.id().value(),
                                    "takeover-1",
                                    java.sql.Timestamp.from(ServerFixture.START.plus(IdempotentCalls.LEASE)))
                            == 1,
                    Duration.ofSeconds(10));
            // The first run still waits on the bureau; its lease on the key runs out (its server is gone, as
            // far as the store can tell), so the retry takes the key over and runs the same request (same
            // reference, same charge key) again.
            s.clock.advance(IdempotentCalls.LEASE.plusSeconds(1));
            HttpResponse<String> retry = lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), headers);
            assertTrue(
                    retry.headers().firstValue("Idempotent-Replayed").isEmpty(),
                    "the retry ran under the key it took over; it did not wait for the first and replay it");
            assertEquals(
                    1,
                    s.count(
                            "SELECT count(*) FROM idempotency_requests WHERE account_id = ? AND client_key = ?"
                                    + " AND answer IS NOT NULL",
                            acct.id().value(),
                            "takeover-1"),
                    "the retry's answer is the one kept for replays");
            HttpResponse<String> original = first.get();
            int withData = 0;
            for (HttpResponse<String> r : List.of(original, retry)) {
                assertEquals(200, r.statusCode(), r.body());
                if (json(r).has("dados")) {
                    withData++;
                } else {
                    assertTrue(json(r).get("dados_omitidos").asBoolean(), r.body());
                }
            }
            assertEquals(1, withData, "the dossier went out once, with its one charge and audit row");
        } finally {
            s.personFaults.clear();
            s.clock.set(ServerFixture.START);
        }
        assertEquals(1000 - 15, f.balance(acct));
    }

    @Test
    void everyChargeHasExactlyOneAuditRowAfterAConcurrentRun() throws Exception {
        Account acct = s.account(15 * 40, ALL);
        String key = s.key(acct, true);
        List<Cpf> cpfs = new ArrayList<>();
        int from = 600;
        while (cpfs.size() < 6) {
            Cpf c = PersonStack.withData(from);
            cpfs.add(c);
            from = a1Index(c) + 1;
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            List<Future<Integer>> done = new ArrayList<>();
            for (int i = 0; i < 48; i++) {
                int n = i;
                done.add(pool.submit(() -> {
                    Cpf c = cpfs.get(n % cpfs.size());
                    if (n % 4 == 0) {
                        return s.post(
                                        BATCH,
                                        "{\"finalidade\": \"KYC_CADASTRO\", \"cpfs\": [\"" + c.digits() + "\", \""
                                                + cpfs.get((n + 1) % cpfs.size())
                                                        .digits() + "\"]}",
                                        bearer(key))
                                .statusCode();
                    }
                    return s.post(LOOKUP, body("cpf", c.digits(), "KYC_CADASTRO", null), bearer(key))
                            .statusCode();
                }));
            }
            for (Future<Integer> d : done) {
                int status = d.get();
                assertTrue(status == 200 || status == 402, "status " + status);
            }
        }
        long charges = s.personCharges(acct);
        assertEquals(40, charges, "the balance ran out exactly");
        assertEquals(0, f.balance(acct));
        assertEquals(charges, s.auditRows(acct));
        assertEquals(
                0,
                s.count(
                        "SELECT count(*) FROM ledger_entries l WHERE l.account_id = ? AND l.idem_key LIKE 'person%'"
                                + " AND (SELECT count(*) FROM person_audit p WHERE p.account_id = l.account_id AND p.charge_key = l.idem_key) <> 1",
                        acct.id().value()));
    }

    @Test
    void theAuditTrailRefusesUpdatesAndDeletes() {
        Cpf cpf = PersonStack.withData(700);
        Account acct = s.account(100, ALL);
        assertEquals(
                200,
                lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(s.key(acct, true)))
                        .statusCode());
        long id = acct.id().value();
        IllegalStateException update = assertThrows(
                IllegalStateException.class,
                () -> s.execute("UPDATE person_audit SET justification = 'x' WHERE account_id = " + id));
        assertTrue(
                update.getCause().getMessage().contains("append-only"),
                update.getCause().getMessage());
        assertThrows(IllegalStateException.class, () -> s.execute("DELETE FROM person_audit WHERE account_id = " + id));
        assertEquals(1, s.auditRows(acct));
    }

    @Test
    void logsNeverCarryAClearCpfOrPhoneEvenAtDebugAndOnFailures() {
        Cpf cpf = PersonStack.withData(760);
        Cpf malformed = PersonStack.withData(a1Index(cpf) + 1);
        Account acct = s.account(100, ALL);
        String key = s.key(acct, true);
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        java.util.logging.Level before = root.getLevel();
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            private final java.util.logging.Formatter format = new java.util.logging.SimpleFormatter();

            @Override
            public void publish(java.util.logging.LogRecord r) {
                lines.add(format.format(r));
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        capture.setLevel(java.util.logging.Level.ALL);
        root.addHandler(capture);
        root.setLevel(java.util.logging.Level.ALL);
        java.util.logging.Logger.getLogger("dev.cadastro").setLevel(java.util.logging.Level.ALL);
        try {
            s.personFaults.forDocument(cpf.digits(), new Fault.ExtraFields());
            assertEquals(
                    200,
                    lookup(body("cpf", cpf.digits(), "KYC_CADASTRO", null), bearer(key))
                            .statusCode());
            s.personFaults.forDocument(malformed.digits(), new Fault.Malformed());
            expectError(
                    lookup(body("cpf", malformed.digits(), "KYC_CADASTRO", null), bearer(key)),
                    502,
                    "FORNECEDOR_INDISPONIVEL");
            int phoneStatus = lookup(
                            body("telefone", "(11) 91234-5678", "KYC_CADASTRO", "fale com 11912345678"), bearer(key))
                    .statusCode();
            assertTrue(phoneStatus == 200 || phoneStatus == 404, "status " + phoneStatus);
            expectError(lookup(body("cpf", "123", "KYC_CADASTRO", null), bearer(key)), 422, "PARAMETRO_INVALIDO");
        } finally {
            root.removeHandler(capture);
            root.setLevel(before);
            java.util.logging.Logger.getLogger("dev.cadastro").setLevel(null);
        }
        assertFalse(lines.isEmpty(), "the debug logging of the dropped fields ran");
        for (String line : lines) {
            for (String secret : List.of(
                    cpf.digits(),
                    cpf.formatted(),
                    malformed.digits(),
                    malformed.formatted(),
                    "11912345678",
                    "91234-5678")) {
                assertFalse(line.contains(secret), () -> "a log line carries " + secret + ": " + line);
            }
        }
    }

    private static Set<String> names(JsonNode object) {
        Set<String> out = new TreeSet<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> statuses(JsonNode items) {
        List<String> out = new ArrayList<>();
        items.forEach(n -> out.add(n.get("status").asText()));
        return out;
    }

    @SuppressWarnings("unused")
    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
