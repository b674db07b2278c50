package dev.cadastro.server;

import static dev.cadastro.server.RawHttp.latin1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.server.RawHttp.Answer;
import org.junit.jupiter.api.Test;

/**
 * A client's faults on the server's own listeners are the client's: an over-long number in a JSON body
 * is a 422 naming the field, and two different credentials in one request are a 401 that says why.
 */
class ClientFaultsEndToEndTest {
    private final ServerFixture f = ServerFixture.get();

    private Answer send(String request) throws Exception {
        return RawHttp.send(f.port(), latin1(request));
    }

    private static String post(String path, String auth, String json) {
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\n" + auth + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + json.length() + "\r\n\r\n" + json;
    }

    @Test
    void aNumberOfAThousandAndOneDigitsIs422NamingTheField() throws Exception {
        Account account = f.account(1_000, 1_000_000);
        String key = f.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        Answer a = send(post(
                "/v1/mailing",
                "Authorization: Bearer " + key,
                "{\"filtros\":{\"ufs\":[\"SP\"]},\"quantidade\":" + "1".repeat(1001) + "}"));
        assertEquals(422, a.status(), a.toString());
        assertEquals("PARAMETRO_INVALIDO", a.code());
        assertTrue(a.json().path("erro").path("detalhe").asText().contains("campo=quantidade"), a.text());
        assertEquals(1_000, f.balance(account), "nothing held or charged");
    }

    @Test
    void twoDifferentKeysAre401SayingWhyAndTwoEqualOnesAreOneKey() throws Exception {
        Account a = f.account(1_000, 1_000_000);
        Account b = f.account(1_000, 1_000_000);
        String keyA = f.key(a);
        String keyB = f.key(b);
        String target = "GET /v1/empresas?ufs=SP&apenas_total=true HTTP/1.1\r\nHost: localhost\r\n";
        for (String twoKeys : new String[] {
            "Authorization: Bearer " + keyA + "\r\nX-API-Key: " + keyB,
            "Authorization: Bearer " + keyA + "\r\nAuthorization: Bearer " + keyB,
            "X-API-Key: " + keyA + "\r\nX-API-Key: " + keyB,
        }) {
            Answer refused = send(target + twoKeys + "\r\n\r\n");
            assertEquals(401, refused.status(), refused.toString());
            assertEquals("CHAVE_INVALIDA", refused.code());
            assertTrue(
                    refused.json().path("erro").path("mensagem").asText().contains("chaves de API diferentes"),
                    refused.text());
        }
        for (String sameKey : new String[] {
            "Authorization: Bearer " + keyA + "\r\nX-API-Key: " + keyA,
            "Authorization: Bearer " + keyA + "\r\nAuthorization: Bearer  " + keyA,
        }) {
            Answer ok = send(target + sameKey + "\r\n\r\n");
            assertEquals(200, ok.status(), ok.toString());
        }
    }

    @Test
    void twoDifferentCallTokensAre401AndTheSameOneTwiceIsAccepted() throws Exception {
        var issued = f.server
                .store()
                .callTokens()
                .create("two-tokens-" + ProcessHandle.current().pid());
        var other = f.server
                .store()
                .callTokens()
                .create("two-tokens-other-" + ProcessHandle.current().pid());
        int port = f.server.calls().orElseThrow().port();
        String target = "GET /v1/ligacoes HTTP/1.1\r\nHost: localhost\r\n";
        Answer refused = RawHttp.send(
                port,
                latin1(target + "Authorization: Bearer " + issued.token() + "\r\nAuthorization: Bearer " + other.token()
                        + "\r\n\r\n"));
        assertEquals(401, refused.status(), refused.toString());
        assertEquals("nao_autorizado", refused.json().path("erro").asText());
        Answer same = RawHttp.send(
                port,
                latin1(target + "Authorization: Bearer " + issued.token() + "\r\nAuthorization: Bearer "
                        + issued.token() + "\r\n\r\n"));
        assertEquals(200, same.status(), same.toString());
    }
}
