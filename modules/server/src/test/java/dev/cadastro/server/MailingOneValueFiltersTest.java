package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A multi-value filter of {@code POST /v1/mailing} given one value as a bare string, through a real
 * socket: the same export as the array of that one value, and the same total as the search; a value of
 * another type is still refused naming the field, with an example that is valid for that field.
 */
class MailingOneValueFiltersTest {
    private static final List<String> MULTI_VALUE = List.of(
            "ufs",
            "municipios",
            "bairros",
            "ddds",
            "cnaes",
            "cnaes_secundarios",
            "naturezas",
            "situacao_cadastral",
            "portes");

    private static final ServerFixture f = ServerFixture.get();
    private static final OpenApiContract contract =
            new OpenApiContract(f.get("/v1/openapi.json").body());

    private static HttpResponse<String> post(String key, String body, String language) {
        HttpResponse<String> r = f.send(HttpRequest.newBuilder(f.uri("/v1/mailing"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .header("Accept-Language", language)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
        contract.check("/v1/mailing", "post", r);
        return r;
    }

    private static JsonNode awaitEnd(String key, String jobId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = f.get("/v1/mailing/" + jobId, "Authorization", "Bearer " + key);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode s = json(r);
            if (!s.path("status").asText().equals("processando")) {
                return s;
            }
            Thread.onSpinWait();
        }
        return fail("mailing job " + jobId + " still processando after 30 s");
    }

    /** The export of {@code filtros} by a fresh account: the finished job's status, and what it held. */
    private static JsonNode export(String filtros) {
        Account account = f.account(10_000, 10_000);
        String key = f.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        HttpResponse<String> created = post(key, "{\"filtros\": " + filtros + ", \"quantidade\": 50000}", "pt-BR");
        assertEquals(200, created.statusCode(), created.body());
        JsonNode done = awaitEnd(key, json(created).path("job_id").asText());
        assertEquals("concluido", done.path("status").asText(), done.toString());
        assertEquals(10_000 - done.path("creditos_consumidos").asLong(), f.balance(account));
        return done;
    }

    private static long countOnly(String name, String value) {
        Account account = f.account(0, 10_000);
        HttpResponse<String> r = f.get(
                "/v1/empresas?" + name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8) + "&apenas_total=true",
                "Authorization",
                "Bearer " + f.key(account));
        assertEquals(200, r.statusCode(), r.body());
        assertFalse(json(r).path("aproximado").asBoolean(), r.body());
        return json(r).path("total").asLong();
    }

    @ParameterizedTest
    @CsvSource({"situacao_cadastral, 02", "ufs, SP"})
    void aBareStringIsTheArrayOfThatOneValue(String name, String value) {
        JsonNode bare = export("{\"" + name + "\": \"" + value + "\"}");
        JsonNode array = export("{\"" + name + "\": [\"" + value + "\"]}");
        long total = countOnly(name, value);
        assertTrue(total > 0, "the fixture has establishments for " + name + "=" + value);
        assertEquals(total, bare.path("quantidade_entregue").asLong(), bare.toString());
        assertEquals(total, bare.path("creditos_consumidos").asLong(), bare.toString());
        assertEquals(
                array.path("quantidade_entregue").asLong(),
                bare.path("quantidade_entregue").asLong());
        assertEquals(
                array.path("creditos_consumidos").asLong(),
                bare.path("creditos_consumidos").asLong());
    }

    /** The value quoted right after "por exemplo " or "e.g. " in a refusal. */
    private static String example(String message, String lead) {
        Matcher m = Pattern.compile(Pattern.quote(lead) + "\"([^\"]+)\"").matcher(message);
        assertTrue(m.find(), "an example after '" + lead + "' in: " + message);
        return m.group(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "true", "{}", "[]", "null"})
    void anotherTypeIsRefusedNamingTheFieldWithAnExampleValidForIt(String wrong) {
        Account account = f.account(10_000, 10_000);
        String key = f.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        for (String name : MULTI_VALUE) {
            String body = "{\"filtros\": {\"" + name + "\": " + wrong + "}, \"quantidade\": 1}";
            HttpResponse<String> pt = post(key, body, "pt-BR");
            assertEquals(422, pt.statusCode(), pt.body());
            JsonNode erro = json(pt).path("erro");
            assertEquals("PARAMETRO_INVALIDO", erro.path("code").asText());
            assertEquals(
                    "campo=filtros." + name + "; regra=type",
                    erro.path("detalhe").asText(),
                    pt.body());
            String mensagem = erro.path("mensagem").asText();
            assertTrue(mensagem.startsWith("filtros." + name + " "), mensagem);
            HttpResponse<String> en = post(key, body, "en");
            assertEquals(422, en.statusCode(), en.body());
            String message = json(en).path("erro").path("mensagem").asText();
            assertTrue(message.startsWith("filtros." + name + " "), message);

            // The example is one the field takes: sent as the filter, it makes a job.
            String shown = example(mensagem, "por exemplo ");
            assertEquals(shown, example(message, "e.g. "), "the same example in both languages");
            HttpResponse<String> tried =
                    post(key, "{\"filtros\": {\"" + name + "\": \"" + shown + "\"}, \"quantidade\": 1}", "pt-BR");
            assertEquals(200, tried.statusCode(), name + " example " + shown + ": " + tried.body());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mei", "simples", "com_telefone", "com_telefone_movel", "com_email", "divida"})
    void flagsStayBooleans(String flag) {
        Account account = f.account(10_000, 10_000);
        String key = f.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        HttpResponse<String> r = post(key, "{\"filtros\": {\"" + flag + "\": \"true\"}, \"quantidade\": 1}", "pt-BR");
        assertEquals(422, r.statusCode(), r.body());
        assertEquals(
                "campo=filtros." + flag + "; regra=type",
                json(r).path("erro").path("detalhe").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[\"SP\", 7]", "[7]"})
    void aNumberInsideTheArrayIsStillRefused(String wrong) {
        Account account = f.account(10_000, 10_000);
        String key = f.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        HttpResponse<String> r = post(key, "{\"filtros\": {\"ufs\": " + wrong + "}, \"quantidade\": 1}", "pt-BR");
        assertEquals(422, r.statusCode(), r.body());
        assertEquals(
                "campo=filtros.ufs; regra=type",
                json(r).path("erro").path("detalhe").asText());
    }
}
