package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.error.Service;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The call-records service answers a wrong path and a wrong method alike: 404 rota_inexistente. */
class CallRecordsEnvelopeTest {

    @Test
    void answersWrongPathsAndMethodsWithRotaInexistente() throws Exception {
        Router router = Router.builder(Service.CALL_RECORDS)
                .get("/v1/ligacoes", r -> Response.of(200, "application/json", "{}".getBytes()))
                .build();
        try (TestHttp http = new TestHttp(router, Service.CALL_RECORDS)) {
            for (HttpResponse<String> r : new HttpResponse[] {
                http.get("/v1/nada"),
                http.send(HttpRequest.newBuilder(http.uri("/v1/ligacoes"))
                        .DELETE()
                        .build())
            }) {
                assertEquals(404, r.statusCode());
                JsonNode body = TestHttp.json(r);
                assertEquals("rota_inexistente", body.path("erro").asText());
                assertEquals(2, body.size());
            }
        }
    }
}
