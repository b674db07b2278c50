package dev.cadastro.server;

import static dev.cadastro.server.RawHttp.concat;
import static dev.cadastro.server.RawHttp.latin1;
import static dev.cadastro.server.RawHttp.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.server.RawHttp.Answer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reproductions of issue 13's HTTP findings, against the real server (index, embedded
 * PostgreSQL, the default runtime) through raw sockets.
 */
class HttpHardeningEndToEndTest {
    private static ServerFixture f;
    private static String key;

    @BeforeAll
    static void start() {
        f = ServerFixture.get();
        key = f.key(f.account(1_000_000, 1_000_000));
    }

    private static Answer send(byte[] request) throws Exception {
        return RawHttp.send(f.server.port(), request);
    }

    private static byte[] get(byte[] target, String... headerLines) {
        StringBuilder h = new StringBuilder(" HTTP/1.1\r\nHost: localhost\r\n");
        for (String line : headerLines) {
            h.append(line).append("\r\n");
        }
        return concat(latin1("GET "), target, latin1(h.append("\r\n").toString()));
    }

    @Test
    void readsARawUtf8QueryAsUtf8() throws Exception {
        // As curl sends ?municipios=São: the bytes C3 A3, not percent-encoded.
        Answer sao = send(get(utf8("/v1/empresas?municipios=São"), "Authorization: Bearer " + key));
        assertEquals(422, sao.status(), sao.toString());
        assertTrue(sao.text().contains("'São'"), "the value is named as sent: " + sao.text());
        assertFalse(sao.text().contains("Ã"), sao.text());

        Answer saoPaulo =
                send(get(utf8("/v1/empresas?municipios=São+Paulo&apenas_total=true"), "Authorization: Bearer " + key));
        assertEquals(200, saoPaulo.status(), "the reproduction answered 500 here: " + saoPaulo);

        // Ç and Ã are C3 87 and C3 83 in UTF-8: java.net.URI takes 0x87 and 0x83 for C1 controls, so the
        // JDK's server refused these raw bytes with an HTML 400; Jetty reads the target as UTF-8.
        Answer raw =
                send(get(utf8("/v1/empresas?bairros=CONSOLAÇÃO&apenas_total=true"), "Authorization: Bearer " + key));
        Answer encoded = send(get(
                latin1("/v1/empresas?bairros=CONSOLA%C3%87%C3%83O&apenas_total=true"), "Authorization: Bearer " + key));
        assertEquals(200, raw.status(), raw.toString());
        assertEquals(200, encoded.status(), encoded.toString());
        assertTrue(encoded.json().path("total").asLong() > 0, "the synthetic register has this neighbourhood");
        assertEquals(
                encoded.json().path("total").asLong(), raw.json().path("total").asLong());
    }

    @Test
    void answersARawNonUtf8ByteInThePathWith400InTheEnvelopeWithoutAnyKey() throws Exception {
        // Jetty refuses a path that is not UTF-8 before any handler; the answer is still the envelope.
        Answer a = send(get(latin1("/v1/empresas/\u00e9x")));
        assertEquals(400, a.status(), a.toString());
        assertEquals("PARAMETRO_INVALIDO", a.code());
        assertEquals("close", a.header("Connection"));
        assertTrue(a.header("Content-Type").startsWith("application/json"), a.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {0x00, 0x01, 0x1f, 0x7f})
    void refusesAValidKeyFollowedByAControlCharacter(int control) throws Exception {
        // A control character in any header value is refused by Jetty before the key is read: a 400 in the
        // envelope, so the key with a trailing control character is never taken for the key itself.
        Answer bad = send(
                get(latin1("/v1/empresas?ufs=SP&apenas_total=true"), "Authorization: Bearer " + key + (char) control));
        assertEquals(400, bad.status(), bad.toString());
        assertEquals("PARAMETRO_INVALIDO", bad.code());
        assertEquals("close", bad.header("Connection"));
        Answer good = send(get(latin1("/v1/empresas?ufs=SP&apenas_total=true"), "Authorization: Bearer " + key));
        assertEquals(200, good.status(), "the same key without the control character is valid: " + good);
    }

    @Test
    void everyUnauthorizedAnswerNamesTheBearerScheme() {
        HttpResponse<String> none = f.get("/v1/empresas?ufs=SP");
        assertEquals(401, none.statusCode());
        assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElseThrow());
        HttpResponse<String> wrong = f.get("/v1/empresas/11222333000181", "X-API-Key", "cad_nope");
        assertEquals(401, wrong.statusCode());
        assertEquals("Bearer", wrong.headers().firstValue("WWW-Authenticate").orElseThrow());
    }

    @Test
    void answersHeadLikeGetWithoutTheBody() throws Exception {
        for (String target : new String[] {"/v1/openapi.json", "/v1/mailing/no-such-job", "/v1/nada"}) {
            Answer get = send(get(latin1(target), "Authorization: Bearer " + key));
            Answer head = send(concat(latin1(
                    "HEAD " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key + "\r\n\r\n")));
            assertEquals(get.status(), head.status(), target);
            assertEquals(get.header("Content-Type"), head.header("Content-Type"), target);
            assertEquals(Integer.toString(get.body().length), head.header("Content-Length"), target);
            assertEquals(0, head.body().length);
        }
    }

    @Test
    void refusesHeadOnEveryRouteThatChargesAndChargesNothing() throws Exception {
        Account payer = f.account(1_000, 1_000_000);
        f.server.store().accounts().setAccreditation(payer.id(), AccreditationStatus.APPROVED);
        String paying = f.key(payer, Scope.EMPRESAS_READ, Scope.ENRIQUECIMENTO_READ);
        String cnpj = f.server
                .register()
                .search(RegisterQuery.builder().ufs("SP").limite(1).build())
                .dados()
                .getFirst()
                .cnpj();
        for (String target :
                new String[] {"/v1/empresas?ufs=SP&limite=50", "/v1/empresas/" + cnpj, "/v1/enriquecimento/" + cnpj}) {
            Answer head = send(concat(latin1("HEAD " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + paying + "\r\n\r\n")));
            assertEquals(405, head.status(), target + ": " + head);
            assertEquals("GET", head.header("Allow"), target);
        }
        assertEquals(1_000, f.balance(payer), "a HEAD would have charged for a body it never delivers");
        Answer get = send(get(latin1("/v1/enriquecimento/" + cnpj), "Authorization: Bearer " + paying));
        assertEquals(200, get.status(), get.toString());
        assertEquals(995, f.balance(payer), "the same route by GET charges");
    }

    @ParameterizedTest
    @ValueSource(strings = {"+5", "%2B5", "0005", "05", "-5", "%205", "5%20"})
    void readsLimiteAsTheOpenApiPatternSays(String limite) {
        HttpResponse<String> r = f.get("/v1/empresas?ufs=SP&limite=" + limite, "Authorization", "Bearer " + key);
        assertEquals(422, r.statusCode(), r.body());
        assertTrue(r.body().contains("campo=limite"), r.body());
    }

    @Test
    void namesLimitsInTheApisTermsNotTheCodes() {
        HttpResponse<String> r = f.get("/v1/empresas?ufs=" + "S".repeat(9000));
        assertEquals(414, r.statusCode());
        assertFalse(r.body().contains("Limits."), r.body());
        assertTrue(r.body().contains("8192"), r.body());
    }

    @Test
    void aDailyRefusalDoesNotSpendTheMinute() {
        // The tight listener allows 3 requests a minute; this account's plan allows 1 a day.
        Account account = f.account(100, 1);
        String k = f.key(account);
        HttpResponse<String> first =
                f.getTight("/v1/empresas?ufs=SP&apenas_total=true", "Authorization", "Bearer " + k);
        assertEquals(200, first.statusCode(), first.body());
        assertEquals("2", first.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> refused =
                    f.getTight("/v1/empresas?ufs=SP&apenas_total=true", "Authorization", "Bearer " + k);
            assertEquals(429, refused.statusCode());
            assertTrue(refused.body().contains("LIMITE_DIARIO"), refused.body());
            assertEquals(
                    "2",
                    refused.headers().firstValue("X-RateLimit-Remaining").orElseThrow(),
                    "the refusal " + (i + 1) + " left the minute's allowance as it was");
        }
    }

    @Test
    void answersMalformedRequestsInTheEnvelope() throws Exception {
        for (byte[] request : new byte[][] {
            latin1("GET /v1/empresas?ufs=%ZZ HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            latin1("POST /v1/empresas HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n"),
            latin1("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            latin1("GET /v1/empresas?a={b} HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            // HTTP/1.1 without Host (RFC 9112, section 3.2): Jetty's 400, in the envelope.
            latin1("GET /v1/empresas HTTP/1.1\r\n\r\n"),
        }) {
            Answer a = send(request);
            assertTrue(a.status() >= 400 && a.status() < 500, a.toString());
            assertTrue(a.header("Content-Type").startsWith("application/json"), a.toString());
            assertTrue(a.code() != null, a.toString());
        }
        // A brace has no role in a URI: it is encoded, so the request reaches the API, which asks for a key.
        assertEquals(
                "SEM_CHAVE",
                send(latin1("GET /v1/empresas?a={b} HTTP/1.1\r\nHost: localhost\r\n\r\n"))
                        .code());
    }
}
