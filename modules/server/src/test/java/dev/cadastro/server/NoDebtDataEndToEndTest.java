package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.exports.ZipLeadFileWriter;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A register loaded from a dump without PGFN debt files, through a real socket: a search, a count and
 * an export with {@code divida} (true or false) are {@code 422} naming {@code divida} and saying the
 * register has no debt data; never a count, never a charge, never a job. Other filters are answered.
 */
class NoDebtDataEndToEndTest {
    private static final ManualClock clock = new ManualClock(ServerFixture.START);
    private static ServerFixture f;
    private static OpenApiContract contract;
    private static LuceneRegister register;
    private static TestRuntime.Listener http;

    @BeforeAll
    static void start() throws IOException {
        f = ServerFixture.get();
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
        Path dir = Files.createTempDirectory(Path.of("target"), "no-debt-");
        Path dump = dir.resolve("dump");
        DumpGenerator.generate(
                dump,
                GeneratorOptions.builder(1_000).seed(5).debtShare(0).threads(2).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, dir.resolve("index"), DumpLoader.buildOptionsFor(load, 1_000));
        register = LuceneRegister.open(dir.resolve("index"));
        MailingService mailing = new MailingService(
                register,
                f.server.store().mailingJobs(),
                new LocalFolderFileStore(dir.resolve("files")),
                ZipLeadFileWriter.standard(),
                new CostRules(clock),
                clock,
                new SecureRandom(),
                Duration.ofDays(7),
                () -> {});
        http = f.listen(CompanyDataRoutes.router(
                register, f.server.store(), f.server.store().admission(10_000, clock), clock, mailing));
    }

    @AfterAll
    static void stop() {
        http.close();
        register.close();
    }

    private static HttpResponse<String> get(String key, String query, String language) {
        HttpResponse<String> r =
                f.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/v1/empresas?" + query))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + key)
                        .header("Accept-Language", language)
                        .GET()
                        .build());
        contract.check("/v1/empresas", r);
        return r;
    }

    private static HttpResponse<String> post(String key, String body, String language) {
        HttpResponse<String> r =
                f.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/v1/mailing"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .header("Accept-Language", language)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build());
        contract.check("/v1/mailing", "post", r);
        return r;
    }

    private static void assertRefused(HttpResponse<String> r, String field) {
        assertEquals(422, r.statusCode(), r.body());
        JsonNode erro = json(r).path("erro");
        assertEquals("PARAMETRO_INVALIDO", erro.path("code").asText(), r.body());
        assertEquals(
                "campo=" + field + "; regra=no-debt-data", erro.path("detalhe").asText(), r.body());
        assertTrue(erro.path("mensagem").asText().contains("sem os dados de dívida ativa da PGFN"), r.body());
        assertFalse(r.body().contains("\"total\""), "never a count: " + r.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void searchCountAndExportWithDividaAreRefusedSayingTheRegisterHasNoDebtData(String divida) {
        Account account = f.account(1_000, 10_000);
        String read = f.key(account, Scope.EMPRESAS_READ);
        String export = f.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);

        assertRefused(get(read, "ufs=SP&divida=" + divida, "pt-BR"), "divida");
        assertRefused(get(read, "divida=" + divida + "&apenas_total=true", "pt-BR"), "divida");
        assertRefused(
                post(export, "{\"filtros\": {\"divida\": " + divida + "}, \"quantidade\": 10}", "pt-BR"), "divida");

        HttpResponse<String> en = get(read, "divida=" + divida + "&apenas_total=true", "en");
        assertEquals(422, en.statusCode(), en.body());
        assertTrue(json(en).path("erro").path("mensagem").asText().contains("without PGFN debt data"), en.body());
        assertEquals(1_000, f.balance(account), "nothing charged, nothing held");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ufs=SP&apenas_total=true", "ufs=SP&limite=2"})
    void otherFiltersAreAnswered(String query) {
        Account account = f.account(1_000, 10_000);
        HttpResponse<String> r = get(f.key(account, Scope.EMPRESAS_READ), query, "pt-BR");
        assertEquals(200, r.statusCode(), r.body());
    }
}
