package dev.cadastro.server;

import static dev.cadastro.server.RawHttp.latin1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.server.RawHttp.Answer;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pipelined requests on the server's own listeners, through a raw socket: every request written in one
 * go is answered, in order, and a paid lookup is charged exactly as its answer says (the campaign
 * behind issue 40 saw 19 answers for 20 charges).
 */
class PipeliningEndToEndTest {
    private final ServerFixture f = ServerFixture.get();

    private List<String> cnpjs(String uf, int n) {
        return f
                .server
                .register()
                .search(RegisterQuery.builder().ufs(uf).limite(n).build())
                .dados()
                .stream()
                .map(e -> e.cnpj())
                .toList();
    }

    private static Answer[] pipelined(int port, List<String> requests) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(latin1(String.join("", requests)));
            s.getOutputStream().flush();
            InputStream in = new BufferedInputStream(s.getInputStream());
            Answer[] answers = new Answer[requests.size()];
            for (int i = 0; i < answers.length; i++) {
                answers[i] = RawHttp.read(in, false);
            }
            return answers;
        }
    }

    @Test
    void twentyPipelinedPaidLookupsAreAllAnsweredAndChargedAsAnswered() throws Exception {
        Account payer = f.account(1_000, 1_000_000);
        String key = f.key(payer);
        List<String> cnpjs = cnpjs("SP", 20);
        assertEquals(20, cnpjs.size());
        Answer[] answers = pipelined(
                f.port(),
                cnpjs.stream()
                        .map(c -> "GET /v1/empresas/" + c + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                                + key + "\r\n\r\n")
                        .toList());
        long charged = 0;
        for (int i = 0; i < answers.length; i++) {
            assertEquals(200, answers[i].status(), answers[i].toString());
            assertEquals(
                    cnpjs.get(i), answers[i].json().path("dados").path("cnpj").asText(), "answer " + i);
            charged += answers[i].json().path("creditos_consumidos").asLong();
        }
        assertEquals(20, charged);
        assertEquals(1_000 - charged, f.balance(payer), "the ledger moved exactly as the answers say");
    }

    @Test
    void twoHundredPipelinedRequestsAreAnsweredInOrder() throws Exception {
        Account payer = f.account(1_000, 1_000_000);
        String key = f.key(payer);
        List<String> cnpjs = cnpjs("SP", 200);
        Answer[] answers = pipelined(
                f.port(),
                cnpjs.stream()
                        .map(c -> "GET /v1/empresas/" + c + " HTTP/1.1\r\nHost: localhost\r\nX-API-Key: " + key
                                + "\r\n\r\n")
                        .toList());
        for (int i = 0; i < answers.length; i++) {
            assertEquals(200, answers[i].status(), answers[i].toString());
            assertEquals(
                    cnpjs.get(i), answers[i].json().path("dados").path("cnpj").asText(), "answer " + i);
        }
        assertEquals(1_000 - cnpjs.size(), f.balance(payer));
    }

    @Test
    void theCallRecordsListenerAnswersTwentyPipelinedRequests() throws Exception {
        int port = f.server.calls().orElseThrow().port();
        Answer[] answers = pipelined(
                port, java.util.Collections.nCopies(20, "GET /v1/ligacoes HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        for (Answer a : answers) {
            assertEquals(401, a.status(), a.toString());
            assertEquals("nao_autorizado", a.json().path("erro").asText(), a.toString());
        }
    }
}
