package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.loader.generate.GeneratorOptions;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code X-Dados-Referencia} through real sockets: every answer read from the register names the
 * reference month of the dump the fixture loaded, which the generator wrote beside the dump and the
 * loader recorded with the generation; the account, the readiness check and the export's ZIP name it
 * too.
 */
class FreshnessEndToEndTest {
    private static final String HEADER = "X-Dados-Referencia";

    private static ServerFixture f;
    private static OpenApiContract contract;
    /** The month the fixture's dump was generated for: its extraction date's, 2026-08 by default. */
    private static String month;

    private static String cnpj;

    @BeforeAll
    static void start() {
        f = ServerFixture.get();
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
        month = YearMonth.from(GeneratorOptions.builder(1).build().extractionDate())
                .toString();
        assertEquals("2026-08", month);
        List<Empresa> sample = f.server
                .register()
                .search(SearchParameters.parse(Map.of("situacao_cadastral", List.of("02"), "limite", List.of("1"))))
                .dados();
        cnpj = sample.get(0).cnpj();
    }

    private static HttpResponse<String> send(String method, String path, String template, String key, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(f.uri(path)).timeout(Duration.ofSeconds(30));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = f.send(b.method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build());
        assertTrue(r.statusCode() / 100 == 2, method + " " + path + ": " + r.statusCode() + " " + r.body());
        contract.check(template, method.toLowerCase(java.util.Locale.ROOT), r);
        return r;
    }

    private static void assertMonth(HttpResponse<String> r) {
        assertEquals(month, r.headers().firstValue(HEADER).orElse("(absent)"), r.uri() + " " + r.body());
    }

    @Test
    void everyAnswerReadFromTheRegisterNamesTheLoadedDumpsMonth() {
        assertEquals(
                month,
                f.server.register().published().referenceMonth().orElseThrow().toString(),
                "the loader recorded the month the generator wrote");
        Account account = f.account(1_000, 10_000);
        f.server.store().accounts().setAccreditation(account.id(), AccreditationStatus.APPROVED);
        String key = f.key(
                account, Scope.EMPRESAS_READ, Scope.ENRIQUECIMENTO_READ, Scope.MAILING_READ, Scope.MAILING_EXPORT);

        assertMonth(send("GET", "/v1/empresas?ufs=SP&limite=2", "/v1/empresas", key, null));
        assertMonth(send("GET", "/v1/empresas?ufs=SP&apenas_total=true", "/v1/empresas", key, null));
        assertMonth(send("GET", "/v1/empresas/" + cnpj, "/v1/empresas/{cnpj}", key, null));
        assertMonth(send("POST", "/v1/empresas/lote", "/v1/empresas/lote", key, "{\"cnpjs\": [\"" + cnpj + "\"]}"));
        assertMonth(send("GET", "/v1/enriquecimento/" + cnpj, "/v1/enriquecimento/{cnpj}", key, null));
        assertMonth(send(
                "POST", "/v1/mailing/estimativa", "/v1/mailing/estimativa", key, "{\"filtros\": {\"ufs\": [\"AC\"]}}"));
        HttpResponse<String> created = send(
                "POST", "/v1/mailing", "/v1/mailing", key, "{\"filtros\": {\"ufs\": [\"AC\"]}, \"quantidade\": 3}");
        String job = json(created).path("job_id").asText();
        assertMonth(send("GET", "/v1/mailing/" + job, "/v1/mailing/{job_id}", key, null));

        HttpResponse<String> conta = send("GET", "/v1/conta", "/v1/conta", key, null);
        assertMonth(conta);
        JsonNode reference = json(conta).path("dados_referencia");
        assertEquals(month, reference.path("mes").asText(), conta.body());
        assertEquals(
                SaoPauloTime.format(f.server.register().published().publishedAt()),
                reference.path("publicado_em").asText());

        HttpResponse<String> ready = f.get("/health/ready");
        assertEquals(200, ready.statusCode(), ready.body());
        assertMonth(ready);
        assertEquals(month, json(ready).path("dados_referencia").asText(), ready.body());
    }

    @Test
    void theExportsZipNamesTheMonthAndThePublicationInItsComment() throws IOException {
        Account account = f.account(1_000, 10_000);
        String key = f.key(account, Scope.MAILING_READ, Scope.MAILING_EXPORT);
        String job = json(send(
                        "POST",
                        "/v1/mailing",
                        "/v1/mailing",
                        key,
                        "{\"filtros\": {\"ufs\": [\"RJ\"]}, \"quantidade\": 5}"))
                .path("job_id")
                .asText();
        AtomicReference<JsonNode> status = new AtomicReference<>();
        Await.until(
                "export " + job + " ends",
                () -> {
                    status.set(json(send("GET", "/v1/mailing/" + job, "/v1/mailing/{job_id}", key, null)));
                    return !status.get().path("status").asText().equals("processando");
                },
                Duration.ofSeconds(30));
        assertEquals(
                "concluido", status.get().path("status").asText(), status.get().toString());
        HttpResponse<byte[]> file = f.client
                .sendAsync(
                        HttpRequest.newBuilder(f.uri("/v1/mailing/" + job + "/arquivo"))
                                .header("Authorization", "Bearer " + key)
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray())
                .join();
        assertEquals(200, file.statusCode());
        Path zip = Files.createTempFile(Path.of("target"), "freshness-", ".zip");
        try {
            Files.write(zip, file.body());
            try (ZipFile z = new ZipFile(zip.toFile())) {
                assertEquals(
                        "dados_referencia=" + month + "; publicado_em="
                                + SaoPauloTime.format(
                                        f.server.register().published().publishedAt()),
                        z.getComment());
                assertEquals(1, z.size(), "still one entry of leads");
            }
        } finally {
            Files.deleteIfExists(zip);
        }
    }
}
