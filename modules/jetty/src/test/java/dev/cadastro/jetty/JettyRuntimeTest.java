package dev.cadastro.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.*;
import dev.cadastro.http.internal.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The adapter and its default runtime through a real socket and a real client. */
class JettyRuntimeTest {
    private static TestHttp http;

    @BeforeAll
    static void start() throws Exception {
        Router router = Router.builder(Service.COMPANY_DATA)
                .get(
                        "/v1/echo",
                        r -> Response.json(200, Json.bytes(g -> {
                            g.writeStartObject();
                            for (var e : r.query().asMap().entrySet()) {
                                g.writeArrayFieldStart(e.getKey());
                                for (String v : e.getValue()) {
                                    g.writeString(v);
                                }
                                g.writeEndArray();
                            }
                            g.writeEndObject();
                        })))
                .get(
                        "/v1/things/{id}",
                        r -> Response.json(200, Json.bytes(g -> {
                            g.writeStartObject();
                            g.writeStringField("id", r.pathParameter("id").orElseThrow());
                            g.writeEndObject();
                        })))
                .get("/v1/things/special", r -> Response.of(200, "text/plain", "literal".getBytes()))
                .post("/v1/things/{id}", r -> {
                    byte[] body = r.body().readAllBytes();
                    return Response.of(200, "text/plain", ("read " + body.length).getBytes());
                })
                .get("/v1/boom", r -> {
                    throw new IllegalStateException("secret connection string jdbc:postgresql://db/x");
                })
                .get("/v1/invalid", r -> {
                    throw InvalidParameterException.of("limite", "max", Message.MAXIMUM.with("limite", 500, 200));
                })
                .build();
        http = new TestHttp(router, Service.COMPANY_DATA);
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    private static void assertEnvelope(HttpResponse<String> r, int status, ErrorCode code) {
        assertEquals(status, r.statusCode(), r.body());
        // Jetty spells it without the optional space, as RFC 9110 allows.
        assertEquals(
                "application/json;charset=utf-8",
                r.headers().firstValue("content-type").orElseThrow().replace("; ", ";"));
        JsonNode erro = TestHttp.json(r).path("erro");
        assertEquals(code.name(), erro.path("code").asText(), r.body());
        assertFalse(erro.path("mensagem").asText().isBlank());
        assertTrue(r.headers().firstValue("x-request-id").isPresent());
    }

    @Test
    void keepsRepeatedQueryParametersAndDecodesUtf8() {
        HttpResponse<String> r = http.get("/v1/echo?ufs=SP&ufs=RJ&municipios=S%C3%A3o+Paulo");
        assertEquals(200, r.statusCode());
        JsonNode body = TestHttp.json(r);
        assertEquals(
                List.of("SP", "RJ"),
                List.of(body.get("ufs").get(0).asText(), body.get("ufs").get(1).asText()));
        assertEquals("São Paulo", body.get("municipios").get(0).asText());
    }

    @Test
    void answersAnInvalidUtf8SequenceWith422NamingTheParameter() {
        HttpResponse<String> r = http.get("/v1/echo?ufs=SP&bairros=%C3%28");
        assertEnvelope(r, 422, ErrorCode.PARAMETRO_INVALIDO);
        assertEquals(
                "campo=bairros; regra=utf-8",
                TestHttp.json(r).path("erro").path("detalhe").asText());
    }

    @Test
    void keepsAnEncodedSlashInsideItsPathSegment() {
        HttpResponse<String> r = http.get("/v1/things/12.345.678%2F0001-95");
        assertEquals(200, r.statusCode());
        assertEquals("12.345.678/0001-95", TestHttp.json(r).get("id").asText());
    }

    @Test
    void prefersALiteralSegmentToAParameter() {
        assertEquals("literal", http.get("/v1/things/special").body());
    }

    @Test
    void answersAnUnknownPathWith404Envelope() {
        assertEnvelope(http.get("/v1/nothing-here"), 404, ErrorCode.NAO_ENCONTRADO);
        assertEnvelope(http.get("/v1/things/"), 404, ErrorCode.NAO_ENCONTRADO);
        assertEnvelope(http.get("/"), 404, ErrorCode.NAO_ENCONTRADO);
    }

    @Test
    void answersAWrongMethodWith405AndAllow() {
        HttpResponse<String> r =
                http.send(HttpRequest.newBuilder(http.uri("/v1/echo")).DELETE().build());
        assertEnvelope(r, 405, ErrorCode.NAO_ENCONTRADO);
        assertEquals("GET, HEAD", r.headers().firstValue("allow").orElseThrow());
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(http.uri("/v1/things/1"))
                .PUT(HttpRequest.BodyPublishers.ofString("x"))
                .build());
        assertEnvelope(put, 405, ErrorCode.NAO_ENCONTRADO);
        assertEquals("GET, HEAD, POST", put.headers().firstValue("allow").orElseThrow());
    }

    @Test
    void hidesAnUnexpectedExceptionBehindErroInternoWithTheRequestId() {
        HttpResponse<String> r = http.get("/v1/boom");
        assertEnvelope(r, 500, ErrorCode.ERRO_INTERNO);
        assertFalse(r.body().contains("jdbc"), r.body());
        assertFalse(r.body().contains("Exception"), r.body());
        String id = r.headers().firstValue("x-request-id").orElseThrow();
        assertEquals(
                "request_id=" + id,
                TestHttp.json(r).path("erro").path("detalhe").asText());
        assertEquals("pt-BR", r.headers().firstValue("content-language").orElseThrow());
    }

    @Test
    void rendersACadastroExceptionWithItsMessageAndDetail() {
        HttpResponse<String> r = http.get("/v1/invalid");
        assertEnvelope(r, 422, ErrorCode.PARAMETRO_INVALIDO);
        assertEquals(
                "limite 500 excede o máximo 200",
                TestHttp.json(r).path("erro").path("mensagem").asText());
    }

    @Test
    void rendersTheMessageAndDetailInTheLanguageTheClientPrefers() {
        HttpResponse<String> en = http.get("/v1/invalid", "Accept-Language", "pt-BR;q=0.5, en-US;q=0.9");
        assertEnvelope(en, 422, ErrorCode.PARAMETRO_INVALIDO);
        assertEquals(
                "limite 500 exceeds the maximum 200",
                TestHttp.json(en).path("erro").path("mensagem").asText());
        assertEquals(
                "field=limite; rule=max",
                TestHttp.json(en).path("erro").path("detalhe").asText());
        assertEquals("en", en.headers().firstValue("content-language").orElseThrow());
        HttpResponse<String> pt = http.get("/v1/invalid", "Accept-Language", "en;q=0.1, pt");
        assertEquals(
                "limite 500 excede o máximo 200",
                TestHttp.json(pt).path("erro").path("mensagem").asText());
        assertEquals(
                "campo=limite; regra=max",
                TestHttp.json(pt).path("erro").path("detalhe").asText());
        assertEquals("pt-BR", pt.headers().firstValue("content-language").orElseThrow());
    }

    @Test
    void givesEveryRequestItsOwnId() {
        String a = http.get("/v1/echo?a=1").headers().firstValue("x-request-id").orElseThrow();
        String b = http.get("/v1/echo?a=1").headers().firstValue("x-request-id").orElseThrow();
        assertFalse(a.equals(b));
    }

    @Test
    void answersAnOverlongRequestTargetWith414() {
        HttpResponse<String> r = http.get("/v1/echo?bairros=" + "A".repeat(9000));
        assertEnvelope(r, 414, ErrorCode.PARAMETRO_INVALIDO);
        assertTrue(TestHttp.json(r).path("erro").path("mensagem").asText().contains("8192"));
    }

    @Test
    void answersOversizedHeadersWith431() {
        HttpResponse<String> r = http.get("/v1/echo?a=1", "X-Big", "v".repeat(17_000));
        assertEnvelope(r, 431, ErrorCode.PARAMETRO_INVALIDO);
    }

    @Test
    void answersTooManyHeaderFieldsWith431() {
        String[] headers = new String[2 * 70];
        for (int i = 0; i < 70; i++) {
            headers[2 * i] = "X-H" + i;
            headers[2 * i + 1] = "v";
        }
        assertEnvelope(http.get("/v1/echo?a=1", headers), 431, ErrorCode.PARAMETRO_INVALIDO);
    }

    @Test
    void answersADeclaredOversizedBodyWith413() {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(http.uri("/v1/things/1"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1024 * 1024 + 1]))
                .build());
        assertEnvelope(r, 413, ErrorCode.PARAMETRO_INVALIDO);
    }

    @Test
    void aClientWritingItsRefusedBodyAfterTheHeadStillReadsThe413() throws Exception {
        // The head alone first, as a client streaming its body sends it; the refusal is decided before
        // the body arrives, which must not find a closed (resetting) connection.
        try (java.net.Socket socket =
                new java.net.Socket("127.0.0.1", http.uri("/").getPort())) {
            socket.setSoTimeout(20_000);
            byte[] body = new byte[1024 * 1024 + 1];
            var out = socket.getOutputStream();
            out.write(("POST /v1/things/1 HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(300);
            out.write(body);
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        }
    }

    @Test
    void aClientWaitingForTheAnswerBeforeSendingItsRefusedBodyGetsThe413AtOnce() throws Exception {
        // A client that sends the head and waits for an answer before its body (without Expect: the JDK
        // server answers 100-continue itself): the rest of the body is read only after the answer is on
        // the wire, so the refusal does not wait for a body that is not coming.
        try (java.net.Socket socket =
                new java.net.Socket("127.0.0.1", http.uri("/").getPort())) {
            socket.setSoTimeout(3_000);
            var out = socket.getOutputStream();
            out.write(("POST /v1/things/1 HTTP/1.1\r\nHost: x\r\nContent-Length: " + (1024 * 1024 + 1) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] head = socket.getInputStream().readNBytes(12);
            assertEquals("HTTP/1.1 413", new String(head, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void answersAStreamedOversizedBodyWith413() throws Exception {
        String chunk = Integer.toHexString(600_000) + "\r\n" + "x".repeat(600_000) + "\r\n";
        String raw = http.raw("POST /v1/things/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk
                + chunk + "0\r\n\r\n");
        assertTrue(raw.startsWith("HTTP/1.1 413"), raw.substring(0, Math.min(200, raw.length())));
        assertTrue(raw.contains("PARAMETRO_INVALIDO"), raw);
    }

    @Test
    void acceptsABodyWithinTheLimit() {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(http.uri("/v1/things/1"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}", StandardCharsets.UTF_8))
                .build());
        assertEquals("read 7", r.body());
    }

    @Test
    void answersAMalformedPercentEscapeWith422NamingTheParameter() throws Exception {
        // Jetty passes "%ZZ" in the query through; the adapter's strict decoding names the parameter.
        String raw = http.raw("GET /v1/echo?ufs=%ZZ HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(raw.startsWith("HTTP/1.1 422"), raw);
        assertTrue(raw.contains("\"code\":\"PARAMETRO_INVALIDO\""), raw);
        assertTrue(raw.contains("campo=ufs; regra=percent-encoding"), raw);
    }

    @Test
    void keepsConnectionsAliveAcrossRequests() throws Exception {
        // One socket, three requests one after the other, each answered in full before the next is sent:
        // the connection is reused only if every answer arrives on it and the server never closes it.
        try (java.net.Socket socket =
                new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), http.server.port())) {
            socket.setSoTimeout(5_000);
            var in = new java.io.BufferedInputStream(socket.getInputStream());
            java.util.Set<String> requestIds = new java.util.HashSet<>();
            for (int i = 1; i <= 3; i++) {
                socket.getOutputStream()
                        .write(("GET /v1/echo?a=" + i + " HTTP/1.1\r\nHost: x\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                String head = readHead(in);
                assertTrue(head.startsWith("HTTP/1.1 200"), "request " + i + ": " + head);
                assertFalse(head.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), head);
                int length = Integer.parseInt(header(head, "content-length"));
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                assertEquals("{\"a\":[\"" + i + "\"]}", body, "request " + i + " got its own answer");
                requestIds.add(header(head, "x-request-id"));
            }
            assertEquals(3, requestIds.size(), "three requests were handled on the one connection");
            assertFalse(socket.isInputShutdown());
        }
    }

    /** The status line and headers of one response, up to the blank line. */
    private static String readHead(java.io.InputStream in) throws java.io.IOException {
        java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            assertTrue(b >= 0, "the server closed the connection after: " + head);
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + head);
    }
}
