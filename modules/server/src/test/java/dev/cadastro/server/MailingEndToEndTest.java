package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Mailing exports end to end through a real socket: the server's own workers run the jobs against the
 * real index and PostgreSQL; files are downloaded and read back; every charge is checked on the ledger.
 */
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class MailingEndToEndTest {
    /** The runtime of this run of the class: the JDK's, or Jetty through the servlet bridge. */
    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static ServerFixture f;
    private static OpenApiContract contract;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) {
        f = ServerFixture.on(runtime);
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
    }

    private static String[] auth(String key) {
        return new String[] {"Authorization", "Bearer " + key};
    }

    static String exportKey(Account account) {
        return f.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
    }

    static HttpResponse<String> post(String key, String body, String... more) {
        HttpRequest.Builder b = HttpRequest.newBuilder(f.uri("/v1/mailing"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json");
        for (int i = 0; i < more.length; i += 2) {
            b.header(more[i], more[i + 1]);
        }
        HttpResponse<String> r =
                f.send(b.POST(HttpRequest.BodyPublishers.ofString(body)).build());
        contract.check("/v1/mailing", "post", r);
        return r;
    }

    static JsonNode status(String key, String jobId) {
        HttpResponse<String> r = f.get("/v1/mailing/" + jobId, auth(key));
        contract.check("/v1/mailing/{job_id}", r);
        assertEquals(200, r.statusCode(), r.body());
        return json(r);
    }

    /** Polls until the job ends (the workers are nudged at creation; a second is plenty). */
    static JsonNode awaitEnd(String key, String jobId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode s = status(key, jobId);
            if (!s.path("status").asText().equals("processando")) {
                return s;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        return fail("mailing job " + jobId + " still processando after 30 s");
    }

    static HttpResponse<byte[]> download(String key, String jobId) {
        return download(f.port(), key, jobId);
    }

    static HttpResponse<byte[]> download(int port, String key, String jobId) {
        HttpRequest request = HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port + "/v1/mailing/" + jobId + "/arquivo"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .GET()
                .build();
        try {
            return f.client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The one entry of a ZIP: its name and bytes. */
    static Map.Entry<String, byte[]> onlyEntry(byte[] zip) throws IOException {
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            ZipEntry entry = in.getNextEntry();
            assertTrue(entry != null, "the ZIP has an entry");
            byte[] bytes = in.readAllBytes();
            assertEquals(null, in.getNextEntry(), "the ZIP has exactly one entry");
            return Map.entry(entry.getName(), bytes);
        }
    }

    /** The CNPJs of a CSV export, in order, after its header (the first column of each row). */
    static List<String> csvCnpjs(byte[] csv) {
        assertArrayEquals(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, java.util.Arrays.copyOf(csv, 3), "BOM");
        String text = new String(csv, 3, csv.length - 3, StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\r\n"), "CRLF line ends");
        String[] lines = text.split("\r\n");
        assertTrue(lines[0].startsWith("cnpj;razao_social;nome_fantasia;situacao_cadastral"), lines[0]);
        List<String> cnpjs = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String first = lines[i].substring(0, lines[i].indexOf(';'));
            cnpjs.add(first.replaceAll("[^0-9A-Z]", ""));
        }
        return cnpjs;
    }

    static List<String> registerCnpjs(String uf, int limit) {
        return f
                .server
                .register()
                .search(RegisterQuery.builder().ufs(uf).limite(limit).build())
                .dados()
                .stream()
                .map(Empresa::cnpj)
                .toList();
    }

    @Test
    void aCsvExportDeliversTheFirstLeadsOfTheSearchAndChargesThemOnce() throws IOException {
        Account account = f.account(1_000, 10_000);
        String key = exportKey(account);
        HttpResponse<String> created = post(key, "{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 40}");
        assertEquals(200, created.statusCode(), created.body());
        JsonNode job = json(created);
        String id = job.path("job_id").asText();
        assertEquals("processando", job.path("status").asText());
        assertEquals(40, job.path("quantidade_solicitada").asInt());
        assertEquals("csv", job.path("formato").asText());
        assertEquals("/v1/mailing/" + id, job.path("acompanhar_em").asText());

        JsonNode done = awaitEnd(key, id);
        assertEquals("concluido", done.path("status").asText(), done.toString());
        assertEquals(40, done.path("quantidade_entregue").asInt());
        assertEquals(40, done.path("creditos_consumidos").asInt());
        assertEquals("/v1/mailing/" + id + "/arquivo", done.path("arquivo_url").asText());
        String oneTimeFormat = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}-03:00";
        assertTrue(done.path("criado_em").asText().matches(oneTimeFormat), done.toString());
        assertTrue(done.path("concluido_em").asText().matches(oneTimeFormat), done.toString());
        assertTrue(done.path("expira_em").asText().matches(oneTimeFormat), done.toString());
        assertEquals(960, f.balance(account));

        HttpResponse<byte[]> file = download(key, id);
        assertEquals(200, file.statusCode());
        assertEquals(
                "application/zip", file.headers().firstValue("content-type").orElseThrow());
        assertEquals(
                Long.toString(file.body().length),
                file.headers().firstValue("content-length").orElseThrow());
        assertTrue(
                file.headers().firstValue("content-disposition").orElseThrow().contains("mailing-" + id));
        Map.Entry<String, byte[]> entry = onlyEntry(file.body());
        assertEquals("mailing-" + id + ".csv", entry.getKey());
        assertEquals(registerCnpjs("RJ", 40), csvCnpjs(entry.getValue()), "the first 40 of the search, in order");

        // Polling and downloading again charge nothing.
        status(key, id);
        assertEquals(200, download(key, id).statusCode());
        assertEquals(960, f.balance(account));
    }

    @Test
    void anXlsxExportIsASpreadsheetInsideTheZip() throws IOException {
        Account account = f.account(1_000, 10_000);
        String key = exportKey(account);
        HttpResponse<String> created = post(
                key,
                "{\"filtros\": {\"ufs\": [\"SP\"], \"situacao_cadastral\": [\"02\"]}, \"quantidade\": 25,"
                        + " \"formato\": \"xlsx\"}");
        assertEquals(200, created.statusCode(), created.body());
        String id = json(created).path("job_id").asText();
        JsonNode done = awaitEnd(key, id);
        assertEquals("concluido", done.path("status").asText(), done.toString());
        assertEquals("xlsx", done.path("formato").asText());
        Map.Entry<String, byte[]> entry = onlyEntry(download(key, id).body());
        assertEquals("mailing-" + id + ".xlsx", entry.getKey());
        // An XLSX is itself a ZIP with the workbook parts.
        List<String> parts = new ArrayList<>();
        java.nio.file.Path xlsx =
                java.nio.file.Files.createTempFile(java.nio.file.Path.of("target"), "export-", ".xlsx");
        java.nio.file.Files.write(xlsx, entry.getValue());
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(xlsx.toFile())) {
            zip.stream().forEach(e -> parts.add(e.getName()));
        } finally {
            java.nio.file.Files.delete(xlsx);
        }
        assertTrue(parts.contains("xl/workbook.xml"), parts.toString());
        assertEquals(25, done.path("quantidade_entregue").asInt());
        assertEquals(975, f.balance(account));
    }

    @Test
    void aQuantityAboveTheFiltersTotalDeliversAndChargesTheTotal() {
        Account account = f.account(100_000, 10_000);
        String key = exportKey(account);
        long total = f.server
                .register()
                .count(RegisterQuery.builder().ufs("AC").build())
                .total();
        assertTrue(total > 0 && total < 50_000, "Acre has a few establishments: " + total);
        HttpResponse<String> created = post(key, "{\"filtros\": {\"ufs\": [\"AC\"]}, \"quantidade\": 50000}");
        assertEquals(200, created.statusCode(), created.body());
        JsonNode done = awaitEnd(key, json(created).path("job_id").asText());
        assertEquals(total, done.path("quantidade_entregue").asLong());
        assertEquals(total, done.path("creditos_consumidos").asLong());
        assertEquals(100_000 - total, f.balance(account));
    }

    @Test
    void aBalanceThatCannotCoverTheHoldIs402AndNoJobExists() {
        Account account = f.account(10, 10_000);
        String key = exportKey(account);
        HttpResponse<String> r = post(key, "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 50}");
        assertEquals(402, r.statusCode(), r.body());
        assertEquals("SEM_CREDITOS", json(r).path("erro").path("code").asText());
        assertTrue(f.server
                .store()
                .mailingJobs()
                .list(Optional.of(account.id()), 10)
                .isEmpty());
        assertEquals(10, f.balance(account));
        assertEquals(
                10,
                f.server
                        .store()
                        .ledger()
                        .balance(account.id(), dev.cadastro.core.ledger.CreditKind.CREDITS)
                        .available());
    }

    @Test
    void twoExportsRacingForOneBalanceNeverOverdrawIt() throws Exception {
        for (int round = 0; round < 3; round++) {
            Account account = f.account(45, 10_000);
            String key = exportKey(account);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
                for (int i = 0; i < 2; i++) {
                    answers.add(pool.submit(() -> {
                        go.await();
                        return post(key, "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 30}");
                    }));
                }
                go.countDown();
                List<Integer> statuses = new ArrayList<>();
                String id = null;
                for (Future<HttpResponse<String>> a : answers) {
                    HttpResponse<String> r = a.get();
                    statuses.add(r.statusCode());
                    if (r.statusCode() == 200) {
                        id = json(r).path("job_id").asText();
                    }
                }
                statuses.sort(null);
                assertEquals(List.of(200, 402), statuses, "one export holds 30 of 45; the other cannot");
                assertEquals("concluido", awaitEnd(key, id).path("status").asText());
                assertEquals(15, f.balance(account));
            }
        }
    }

    @Test
    void anotherAccountsJobIsNotFoundLikeAnUnknownOne() {
        Account owner = f.account(100, 10_000);
        String ownerKey = exportKey(owner);
        HttpResponse<String> created = post(ownerKey, "{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 3}");
        String id = json(created).path("job_id").asText();
        awaitEnd(ownerKey, id);
        String stranger = exportKey(f.account(100, 10_000));
        for (String path : List.of("/v1/mailing/" + id, "/v1/mailing/" + id + "/arquivo", "/v1/mailing/nope")) {
            HttpResponse<String> r = f.get(path, auth(stranger));
            assertEquals(404, r.statusCode(), path + " " + r.body());
            assertEquals("NAO_ENCONTRADO", json(r).path("erro").path("code").asText());
        }
        HttpResponse<String> unknown = f.get("/v1/mailing/" + "0".repeat(32), auth(stranger));
        HttpResponse<String> foreign = f.get("/v1/mailing/" + id, auth(stranger));
        assertEquals(
                json(unknown).path("erro").path("mensagem").asText().replace("0".repeat(32), "ID"),
                json(foreign).path("erro").path("mensagem").asText().replace(id, "ID"),
                "the same answer for another account's job as for an unknown one");
    }

    @Test
    void scopesAreCheckedPerEndpoint() {
        Account account = f.account(100, 10_000);
        String readOnly = f.key(account, Scope.MAILING_READ);
        HttpResponse<String> r = post(readOnly, "{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 3}");
        assertEquals(403, r.statusCode(), r.body());
        assertEquals("SEM_ESCOPO", json(r).path("erro").path("code").asText());
        String exportOnly = f.key(account, Scope.MAILING_EXPORT);
        HttpResponse<String> created = post(exportOnly, "{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 3}");
        assertEquals(200, created.statusCode(), created.body());
        HttpResponse<String> s =
                f.get("/v1/mailing/" + json(created).path("job_id").asText(), auth(exportOnly));
        assertEquals(403, s.statusCode(), s.body());
    }

    @Test
    void withoutAKeyEveryMailingEndpointIs401AndCreatesNothing() {
        HttpResponse<String> created = f.send(HttpRequest.newBuilder(f.uri("/v1/mailing"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 3}"))
                .build());
        contract.check("/v1/mailing", "post", created);
        assertEquals(401, created.statusCode(), created.body());
        assertEquals("SEM_CHAVE", json(created).path("erro").path("code").asText());
        for (String path : List.of("/v1/mailing/" + "0".repeat(32), "/v1/mailing/" + "0".repeat(32) + "/arquivo")) {
            HttpResponse<String> r = f.get(path, "Authorization", "Bearer cad_aaaaaaaaaaaa_" + "b".repeat(43));
            assertEquals(401, r.statusCode(), path + " " + r.body());
            assertEquals("CHAVE_INVALIDA", json(r).path("erro").path("code").asText());
        }
    }

    @Test
    void aRetriedPostWithTheSameIdempotencyKeyReturnsTheSameJob() {
        Account account = f.account(100, 10_000);
        String key = exportKey(account);
        String body = "{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 5}";
        HttpResponse<String> first = post(key, body, "Idempotency-Key", "export-1");
        HttpResponse<String> again =
                post(key, "{\"quantidade\": 5, \"filtros\": {\"ufs\": [\"RJ\"]}}", "Idempotency-Key", "export-1");
        assertEquals(first.body(), again.body());
        awaitEnd(key, json(first).path("job_id").asText());
        assertEquals(
                1,
                f.server
                        .store()
                        .mailingJobs()
                        .list(Optional.of(account.id()), 10)
                        .size());
        assertEquals(95, f.balance(account));
        HttpResponse<String> other =
                post(key, "{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 6}", "Idempotency-Key", "export-1");
        assertEquals(422, other.statusCode(), other.body());
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
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 1.5}|quantidade",
                "{\"filtros\": {\"ufs\": [\"SP\"]}}|quantidade",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 10, \"formato\": \"pdf\"}|formato",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 10, \"formato\": 1}|formato",
                "{\"quantidade\": 10}|filtros",
                "{\"filtros\": {}, \"quantidade\": 10}|filtros",
                "{\"filtros\": [\"SP\"], \"quantidade\": 10}|filtros",
                "{\"filtros\": {\"estado\": [\"SP\"]}, \"quantidade\": 10}|filtros.estado",
                "{\"filtros\": {\"ufs\": 7}, \"quantidade\": 10}|filtros.ufs",
                "{\"filtros\": {\"ufs\": [\"XX\"]}, \"quantidade\": 10}|filtros.ufs",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"mei\": \"true\"}, \"quantidade\": 10}|filtros.mei",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"capital_min\": \"10\"}, \"quantidade\": 10}|filtros.capital_min",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"capital_min\": 1e999999999}, \"quantidade\": 10}|filtros.capital_min",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"capital_max\": 123456789012345678901234567890}, \"quantidade\": 10}|filtros.capital_max",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"limite\": 10}, \"quantidade\": 10}|filtros.limite",
                "{\"filtros\": {\"ufs\": [\"SP\"], \"apenas_total\": true}, \"quantidade\": 10}|filtros.apenas_total",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 10, \"extra\": 1}|extra",
                "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 10, \"quantidade\": 11}|body"
            })
    void badBodiesAre422NamingTheField(String body, String field) {
        Account account = f.account(100, 10_000);
        HttpResponse<String> r = post(exportKey(account), body);
        assertEquals(422, r.statusCode(), body + " -> " + r.body());
        JsonNode erro = json(r).path("erro");
        assertEquals("PARAMETRO_INVALIDO", erro.path("code").asText());
        assertTrue(erro.path("detalhe").asText().startsWith("campo=" + field + ";"), body + " -> " + r.body());
        assertTrue(f.server
                .store()
                .mailingJobs()
                .list(Optional.of(account.id()), 10)
                .isEmpty());
        assertEquals(100, f.balance(account));
    }

    // ---- on a database where no worker runs: the job's state is the test's to move ----

    private static HttpResponse<String> on(int port, String method, String path, String key, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key);
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return f.send(b.build());
    }

    private static JsonNode statusOn(WorkerlessMailing w, String key, String id) {
        HttpResponse<String> r = on(w.port(), "GET", "/v1/mailing/" + id, key, null);
        contract.check("/v1/mailing/{job_id}", r);
        assertEquals(200, r.statusCode(), r.body());
        return json(r);
    }

    private static String createOn(WorkerlessMailing w, String key, int quantidade) {
        return createOn(w, key, "RJ", quantidade);
    }

    private static String createOn(WorkerlessMailing w, String key, String uf, int quantidade) {
        HttpResponse<String> created = on(
                w.port(),
                "POST",
                "/v1/mailing",
                key,
                "{\"filtros\": {\"ufs\": [\"" + uf + "\"]}, \"quantidade\": " + quantidade + "}");
        contract.check("/v1/mailing", "post", created);
        assertEquals(200, created.statusCode(), created.body());
        return json(created).path("job_id").asText();
    }

    private static void assertNoFile(WorkerlessMailing w, String key, String id) {
        HttpResponse<String> file = on(w.port(), "GET", "/v1/mailing/" + id + "/arquivo", key, null);
        contract.check("/v1/mailing/{job_id}/arquivo", file);
        assertEquals(404, file.statusCode(), file.body());
        assertEquals("NAO_ENCONTRADO", json(file).path("erro").path("code").asText(), file.body());
        assertFalse(json(file).path("erro").path("mensagem").asText().isBlank(), file.body());
    }

    @Test
    void theFileAskedWhileTheJobIsProcessandoIsNotFoundAndTheJobGoesOn() {
        try (WorkerlessMailing w = WorkerlessMailing.broken(f)) {
            Account account = w.account(100);
            String key = w.key(account);
            String id = createOn(w, key, 3);
            assertEquals("processando", statusOn(w, key, id).path("status").asText(), "no worker took it");
            assertEquals(3, w.balance(account).held());

            assertNoFile(w, key, id);
            JsonNode still = statusOn(w, key, id);
            assertEquals("processando", still.path("status").asText(), "asking for the file changes nothing");
            assertEquals(3, w.balance(account).held(), "the hold stays while the job runs");
            assertEquals(100, w.balance(account).posted());

            // Leave no job for the next test's claim.
            assertTrue(w.mailing().failByOperator(id, "test over"));
        }
    }

    @Test
    void anExportWhoseFileCannotBeWrittenFailsChargesNothingAndReleasesItsHold() {
        try (WorkerlessMailing w = WorkerlessMailing.broken(f)) {
            Account account = w.account(100);
            String key = w.key(account);
            String id = createOn(w, key, 20);
            assertEquals(20, w.balance(account).held());
            assertEquals(80, w.balance(account).available());

            var claimed = w.claim();
            assertEquals(id, claimed.work().id());
            w.mailing().process(claimed);

            JsonNode end = statusOn(w, key, id);
            assertEquals("falhou", end.path("status").asText(), end.toString());
            assertEquals("ERRO_INTERNO", end.path("erro").path("code").asText(), end.toString());
            assertEquals(0, end.path("creditos_consumidos").asInt(), end.toString());
            assertEquals(100, w.balance(account).posted(), "a failed job charges nothing");
            assertEquals(0, w.balance(account).held(), "its hold is released");
            assertEquals(100, w.balance(account).available(), "the balance is back to what it was");
            assertNoFile(w, key, id);
        }
    }

    @Test
    void aJobTheOperatorFailsBeforeAnyWorkerTookItIsFalhouAndFree() {
        try (WorkerlessMailing w = WorkerlessMailing.broken(f)) {
            Account account = w.account(100);
            String key = w.key(account);
            String id = createOn(w, key, 3);
            assertEquals(97, w.balance(account).available());

            assertTrue(w.mailing().failByOperator(id, "stopped by the operator for the test"), "it was processando");
            assertFalse(w.mailing().failByOperator(id, "again"), "a job ends once");

            JsonNode end = statusOn(w, key, id);
            assertEquals("falhou", end.path("status").asText(), end.toString());
            assertEquals("ERRO_INTERNO", end.path("erro").path("code").asText(), end.toString());
            assertEquals(0, end.path("creditos_consumidos").asInt(), end.toString());
            assertEquals(100, w.balance(account).posted(), "a failed job charges nothing");
            assertEquals(100, w.balance(account).available(), "its hold is released");
            assertNoFile(w, key, id);
        }
    }

    /** A synthetic dump of {@code establishments} generated and published as the index's next generation. */
    private static void publish(Path dir, int establishments, Path index) throws IOException {
        Path dump = Files.createDirectories(dir.resolve("dump-" + establishments));
        DumpGenerator.generate(
                dump,
                GeneratorOptions.builder(establishments).seed(5).threads(1).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, establishments));
    }

    @Test
    void anExportIsChargedTheLeadsItDeliveredNotTheLeadsItHeld() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("target"), "shrinking-");
        Path index = dir.resolve("index");
        publish(dir, 600, index);
        RegisterQuery sp = RegisterQuery.builder().ufs("SP").build();
        try (LuceneRegister register = LuceneRegister.open(index);
                WorkerlessMailing w = WorkerlessMailing.over(f, register)) {
            long held = register.count(sp).total();
            Account account = w.account(10_000);
            String key = w.key(account);
            String id = createOn(w, key, "SP", 5_000);
            assertEquals(held, w.balance(account).held(), "the hold is the filter's total at creation");

            // A smaller register is published before any worker takes the job: it delivers fewer leads.
            publish(dir, 150, index);
            assertTrue(register.refresh(), "the new generation is open");
            long delivered = register.count(sp).total();
            assertTrue(delivered >= 1 && delivered < held, "fewer SP leads now: " + delivered + " of " + held);

            var claimed = w.claim();
            assertEquals(id, claimed.work().id());
            w.mailing().process(claimed);

            JsonNode done = statusOn(w, key, id);
            assertEquals("concluido", done.path("status").asText(), done.toString());
            assertEquals(delivered, done.path("quantidade_entregue").asLong(), done.toString());
            assertEquals(delivered, done.path("creditos_consumidos").asLong(), "charged what was delivered");
            assertEquals(10_000 - delivered, w.balance(account).posted());
            assertEquals(0, w.balance(account).held(), "the rest of the hold is released");
            HttpResponse<byte[]> file = download(w.port(), key, id);
            assertEquals(200, file.statusCode());
            assertEquals(delivered, csvCnpjs(onlyEntry(file.body()).getValue()).size());
        }
    }
}
