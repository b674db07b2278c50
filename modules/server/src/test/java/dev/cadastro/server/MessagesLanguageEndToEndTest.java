package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The language of both services' messages through real sockets: Brazilian Portuguese by default,
 * English on {@code Accept-Language: en}, quality values honoured, a garbage header answered in
 * Portuguese (never a 500), and the codes the same in every language. A sample of each endpoint's
 * errors is checked for English words in its Portuguese answers (and Portuguese in its English ones).
 */
class MessagesLanguageEndToEndTest {
    private static final ServerFixture F = ServerFixture.get();

    /** Words that do not occur in Portuguese: one of them in a pt-BR message means a text was not translated. */
    private static final Pattern ENGLISH =
            Pattern.compile("\\b(is|are|must|exceeds|the|was|has|have|only|and|or|of|not|required|maximum|"
                    + "invalid|found|given|with|which|takes|should|cannot|could|neither|nor|retry|after)\\b");

    /** Words that do not occur in English. */
    private static final Pattern PORTUGUESE =
            Pattern.compile("(\\bnão\\b|\\bdeve\\b|\\bé\\b|\\bestá\\b|\\bobrigatório\\b|\\bmáximo\\b|ção\\b)");

    private static String key;
    private static String token;

    private record Case(String name, boolean calls, String method, String path, String body, boolean auth) {}

    private static final List<Case> CASES = List.of(
            new Case("malformed cnpj", false, "GET", "/v1/empresas/123", null, true),
            new Case("cnpj check digits", false, "GET", "/v1/empresas/11222333000182", null, true),
            new Case("limite above the maximum", false, "GET", "/v1/empresas?ufs=SP&limite=500", null, true),
            new Case("no filter", false, "GET", "/v1/empresas?limite=10", null, true),
            new Case("unknown uf", false, "GET", "/v1/empresas?ufs=XX", null, true),
            new Case("unknown parameter", false, "GET", "/v1/empresas?ufs=SP&foo=1", null, true),
            new Case("bad utf-8", false, "GET", "/v1/empresas?ufs=%C3%28", null, true),
            new Case("bad date", false, "GET", "/v1/empresas?ufs=SP&abertura_de=ontem", null, true),
            new Case("no key", false, "GET", "/v1/empresas?ufs=SP", null, false),
            new Case("method not allowed", false, "DELETE", "/v1/empresas", null, true),
            new Case("no such path", false, "GET", "/v2/nada", null, true),
            new Case(
                    "mailing quantity",
                    false,
                    "POST",
                    "/v1/mailing",
                    "{\"filtros\":{\"ufs\":[\"SP\"]},\"quantidade\":0}",
                    true),
            new Case("mailing not json", false, "POST", "/v1/mailing", "{nao e json", true),
            new Case("mailing unknown field", false, "POST", "/v1/mailing", "{\"filtros\":{},\"x\":1}", true),
            new Case("unknown mailing job", false, "GET", "/v1/mailing/mj_nada", null, true),
            new Case("sms fixed line", false, "POST", "/v1/sms/otp", "{\"telefone\":\"(11) 3234-5678\"}", true),
            new Case(
                    "sms validity",
                    false,
                    "POST",
                    "/v1/sms/otp",
                    "{\"telefone\":\"11987654321\",\"validade_segundos\":1}",
                    true),
            new Case("credit document", false, "POST", "/v1/credito/consultar", "{\"documento\":\"123\"}", true),
            new Case("person scope", false, "POST", "/v1/pessoas/consultar", "{\"cpf\":\"1\"}", true),
            new Case("calls without token", true, "GET", "/v1/ligacoes", null, false),
            new Case("calls limite", true, "GET", "/v1/ligacoes?limite=0", null, true),
            new Case("calls cursor", true, "GET", "/v1/ligacoes?cursor=abc", null, true),
            new Case("calls date", true, "GET", "/v1/ligacoes?desde=ontem", null, true),
            new Case("calls unknown parameter", true, "GET", "/v1/ligacoes?pagina=2", null, true),
            new Case("calls unknown call", true, "GET", "/v1/ligacoes/c_nada", null, true),
            new Case("calls no route", true, "GET", "/v2/nada", null, true));

    @BeforeAll
    static void credentials() {
        Account account = F.account(1_000, 100_000);
        key = F.key(
                account,
                Scope.EMPRESAS_READ,
                Scope.MAILING_EXPORT,
                Scope.MAILING_READ,
                Scope.SMS_OTP,
                Scope.CREDITO_READ);
        token = F.server
                .store()
                .callTokens()
                .create("i18n-" + ProcessHandle.current().pid())
                .token();
    }

    @Test
    void answersInPortugueseByDefaultWithoutEnglishWords() {
        List<String> mixed = new ArrayList<>();
        for (Case c : CASES) {
            HttpResponse<String> r = send(c, null);
            assertTrue(
                    r.statusCode() >= 400 && r.statusCode() < 500, c.name() + ": " + r.statusCode() + " " + r.body());
            assertEquals("pt-BR", r.headers().firstValue("content-language").orElse(""), c.name());
            assertEquals("Accept-Language", r.headers().firstValue("vary").orElse(""), c.name());
            for (String text : texts(c, r)) {
                // Rule tokens (regra=mobile-only) are stable identifiers, the same in every language.
                Matcher m = ENGLISH.matcher(text.replaceAll("regra=[a-z0-9-]+", "regra="));
                if (m.find()) {
                    mixed.add(c.name() + " [" + m.group() + "]: " + text);
                }
            }
        }
        assertEquals(List.of(), mixed);
    }

    @Test
    void answersInEnglishOnAcceptLanguageEnWithoutPortugueseWords() {
        List<String> mixed = new ArrayList<>();
        for (Case c : CASES) {
            HttpResponse<String> r = send(c, "en");
            assertEquals("en", r.headers().firstValue("content-language").orElse(""), c.name());
            for (String text : texts(c, r)) {
                Matcher m = PORTUGUESE.matcher(text);
                if (m.find()) {
                    mixed.add(c.name() + " [" + m.group() + "]: " + text);
                }
            }
        }
        assertEquals(List.of(), mixed);
    }

    @Test
    void theCodeAndStatusAreTheSameInEveryLanguageAndOnlyTheMessageChanges() {
        for (Case c : CASES) {
            HttpResponse<String> pt = send(c, null);
            HttpResponse<String> en = send(c, "en-US");
            assertEquals(pt.statusCode(), en.statusCode(), c.name());
            assertEquals(code(c, pt), code(c, en), c.name());
            assertNotEquals(texts(c, pt).get(0), texts(c, en).get(0), c.name() + " has one text in both languages");
        }
    }

    @Test
    void honoursQualityValues() {
        Case c = CASES.get(0);
        String pt = texts(c, send(c, null)).get(0);
        String en = texts(c, send(c, "en")).get(0);
        assertEquals(pt, texts(c, send(c, "pt-BR;q=0.9, en;q=0.8")).get(0));
        assertEquals(en, texts(c, send(c, "pt-BR;q=0.8, en;q=0.9")).get(0));
        assertEquals(en, texts(c, send(c, "fr-FR, en-GB;q=0.5")).get(0));
        assertEquals(pt, texts(c, send(c, "en;q=0")).get(0));
        assertEquals(pt, texts(c, send(c, "fr, de")).get(0));
    }

    @Test
    void aGarbageHeaderIsAnsweredInPortugueseNeverWithA500() {
        Case c = CASES.get(0);
        String pt = texts(c, send(c, null)).get(0);
        for (String garbage : List.of("!!!", "en;q=x", ";;,,", "en;q=5", "\u00e9n-\u00e7", "en," + "x".repeat(2000))) {
            HttpResponse<String> r = send(c, garbage);
            assertEquals(422, r.statusCode(), garbage + ": " + r.body());
            assertEquals(pt, texts(c, r).get(0), garbage);
        }
        Case calls = CASES.stream().filter(Case::calls).findFirst().orElseThrow();
        HttpResponse<String> r = send(calls, "!!!");
        assertEquals(401, r.statusCode(), r.body());
        assertEquals(texts(calls, send(calls, null)).get(0), texts(calls, r).get(0));
    }

    @Test
    void aSuccessfulAnswerIsTheSameInEveryLanguage() {
        HttpRequest.Builder b = request(false, "/v1/empresas?ufs=SP&apenas_total=true", true);
        HttpResponse<String> pt = F.send(b.GET().build());
        HttpResponse<String> en = F.send(request(false, "/v1/empresas?ufs=SP&apenas_total=true", true)
                .header("Accept-Language", "en")
                .GET()
                .build());
        assertEquals(200, pt.statusCode(), pt.body());
        assertEquals(json(pt).path("total"), json(en).path("total"));
        assertFalse(pt.headers().firstValue("content-language").isPresent());
    }

    @Test
    void theRecordingHostRefusesInTheClientsLanguageToo() {
        String unsigned = F.server.calls().orElseThrow().recordingsBaseUrl() + "/sem-assinatura.wav";
        HttpResponse<String> pt =
                F.send(HttpRequest.newBuilder(URI.create(unsigned)).GET().build());
        HttpResponse<String> en = F.send(HttpRequest.newBuilder(URI.create(unsigned))
                .header("Accept-Language", "en")
                .GET()
                .build());
        assertEquals(403, pt.statusCode(), pt.body());
        assertEquals(403, en.statusCode(), en.body());
        assertEquals(
                "a assinatura do link está ausente ou não é válida", pt.body().strip());
        assertEquals("the link's signature is missing or not valid", en.body().strip());
        // A cache in front of the recording host (a CDN) must keep one refusal per language.
        assertEquals("Accept-Language", en.headers().firstValue("vary").orElse(""));
        assertEquals("Accept-Language", pt.headers().firstValue("vary").orElse(""));
    }

    private static String code(Case c, HttpResponse<String> r) {
        JsonNode body = json(r);
        return c.calls()
                ? body.path("erro").asText()
                : body.path("erro").path("code").asText();
    }

    /** The message, then the detail when there is one. */
    private static List<String> texts(Case c, HttpResponse<String> r) {
        JsonNode body = json(r);
        List<String> out = new ArrayList<>();
        if (c.calls()) {
            out.add(body.path("mensagem").asText());
        } else {
            out.add(body.path("erro").path("mensagem").asText());
            if (body.path("erro").has("detalhe")) {
                out.add(body.path("erro").path("detalhe").asText());
            }
        }
        assertFalse(out.get(0).isBlank(), c.name() + ": " + r.body());
        return out;
    }

    private static HttpResponse<String> send(Case c, String acceptLanguage) {
        HttpRequest.Builder b = request(c.calls(), c.path(), c.auth());
        if (acceptLanguage != null) {
            b.header("Accept-Language", acceptLanguage);
        }
        HttpRequest.BodyPublisher body =
                c.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(c.body());
        if (c.body() != null) {
            b.header("Content-Type", "application/json");
        }
        return F.send(b.method(c.method(), body).build());
    }

    private static HttpRequest.Builder request(boolean calls, String path, boolean auth) {
        int port = calls ? F.server.calls().orElseThrow().port() : F.server.port();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20));
        if (auth) {
            b.header("Authorization", "Bearer " + (calls ? token : key));
        }
        return b;
    }
}
