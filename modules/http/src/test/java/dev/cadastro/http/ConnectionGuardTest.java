package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.internal.Json;
import dev.cadastro.http.jdk.RuntimeOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the default runtime does before and around the handler, through raw sockets, so that the
 * bytes are exactly those a careless or hostile client sends: raw UTF-8 in the target, malformed
 * heads, control characters in a key, HEAD, idle connections, and the cap per client address.
 */
class ConnectionGuardTest {
    private static TestHttp http;

    @BeforeAll
    static void start() throws Exception {
        Router router = Router.builder(Service.COMPANY_DATA)
                .get(
                        "/v1/echo",
                        r -> json(g -> {
                            for (var e : r.query().asMap().entrySet()) {
                                g.writeStringField(e.getKey(), String.join("|", e.getValue()));
                            }
                        }))
                .get(
                        "/v1/things/{id}",
                        r -> json(g ->
                                g.writeStringField("id", r.pathParameter("id").orElseThrow())))
                .post("/v1/things/{id}", r -> {
                    byte[] body = r.body().readAllBytes();
                    return json(g -> g.writeStringField("read", new String(body, StandardCharsets.UTF_8)));
                })
                .get(
                        "/v1/peer",
                        r -> json(g -> {
                            g.writeStringField(
                                    "address",
                                    r.remote().orElseThrow().getAddress().getHostAddress());
                            g.writeNumberField("port", r.remote().orElseThrow().getPort());
                        }))
                .get("/v1/locked", r -> {
                    throw new CadastroException(ErrorCode.SEM_CHAVE, Message.NO_KEY.with());
                })
                .build();
        http = new TestHttp(
                router,
                Service.COMPANY_DATA,
                RuntimeOptions.builder()
                        .headTimeout(Duration.ofMillis(1500))
                        .maxConnectionsPerAddress(3000)
                        .maxConnections(3500)
                        .build());
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    private static Response json(Json.Body fields) {
        return Response.json(200, Json.bytes(g -> {
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        }));
    }

    /** One answer read off a raw socket: status line, headers (lower-case names), body. */
    record Answer(int status, String head, byte[] body) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        JsonNode json() {
            return TestHttp.json(new String(body, StandardCharsets.UTF_8));
        }

        String code() {
            return json().path("erro").path("code").asText();
        }
    }

    private static Answer exchange(byte[] request) throws IOException {
        return exchangeAll(request, 1, false).get(0);
    }

    private static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Sends the bytes and reads {@code count} answers (bodies skipped when {@code head}). */
    static List<Answer> exchangeAll(byte[] request, int count, boolean head) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), http.server.port())) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(request);
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            List<Answer> answers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                answers.add(readAnswer(in, head));
            }
            return answers;
        }
    }

    static Answer readAnswer(InputStream in, boolean headOnly) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed after " + head.size() + " bytes: " + head);
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1
                    : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(text.substring(9, 12));
        Answer a = new Answer(status, text, new byte[0]);
        String length = a.header("content-length");
        if (headOnly || length == null) {
            return a;
        }
        return new Answer(status, text, in.readNBytes(Integer.parseInt(length)));
    }

    private static void assertEnvelope(Answer a, int status, ErrorCode code, String detailPart) {
        assertEquals(status, a.status(), a.head() + new String(a.body(), StandardCharsets.UTF_8));
        assertTrue(a.header("content-type").startsWith("application/json"), a.head());
        assertEquals(code.name(), a.code(), new String(a.body(), StandardCharsets.UTF_8));
        assertFalse(a.json().path("erro").path("mensagem").asText().isBlank());
        if (detailPart != null) {
            String detail = a.json().path("erro").path("detalhe").asText();
            assertTrue(detail.contains(detailPart), detail);
        }
        assertTrue(a.header("x-request-id") != null, a.head());
    }

    @Test
    void readsRawUtf8InTheQueryAsTheClientSentIt() throws Exception {
        // "São Paulo" and "SÃO PAULO" as curl sends them: UTF-8 bytes, not percent-encoded. 0x83 (the
        // second byte of Ã) is a C1 control character to java.net.URI, which the JDK server refuses.
        Answer lower = exchange(concat(
                bytes("GET /v1/echo?municipios=S"),
                utf8("ão+Paulo"),
                bytes("&apenas_total=true HTTP/1.1\r\nHost: x\r\n\r\n")));
        assertEquals(200, lower.status(), lower.head());
        assertEquals("São Paulo", lower.json().path("municipios").asText());
        Answer upper =
                exchange(concat(bytes("GET /v1/echo?municipios="), utf8("SÃO+PAULO"), bytes(" HTTP/1.1\r\n\r\n")));
        assertEquals(200, upper.status(), upper.head());
        assertEquals("SÃO PAULO", upper.json().path("municipios").asText());
        Answer path = exchange(concat(bytes("GET /v1/things/"), utf8("ação"), bytes(" HTTP/1.1\r\n\r\n")));
        assertEquals("ação", path.json().path("id").asText());
    }

    @Test
    void answersMalformedRawUtf8With422NamingTheParameterOrThePathParameter() throws Exception {
        assertEnvelope(
                exchange(bytes("GET /v1/things/\u00e9x HTTP/1.1\r\n\r\n")),
                422,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=id; regra=utf-8");
        assertEnvelope(
                exchange(bytes("GET /v1/echo?municipios=S\u00e3o HTTP/1.1\r\n\r\n")),
                422,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=municipios; regra=utf-8");
        assertEnvelope(
                exchange(bytes("GET /v1/echo?municipios=%C3%28 HTTP/1.1\r\n\r\n")),
                422,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=municipios; regra=utf-8");
    }

    @Test
    void answersWhatTheJdkServerWouldAnswerInHtmlInTheEnvelope() throws Exception {
        assertEnvelope(
                exchange(bytes("GET /v1/echo?a=%ZZ HTTP/1.1\r\n\r\n")),
                400,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=uri; regra=syntax");
        assertEnvelope(
                exchange(bytes("POST /v1/things/1 HTTP/1.1\r\nContent-Length: abc\r\n\r\n")),
                400,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=Content-Length");
        assertEnvelope(
                exchange(bytes("POST /v1/things/1 HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx")),
                400,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=Content-Length; regra=single-value");
        assertEnvelope(exchange(bytes("OPTIONS * HTTP/1.1\r\n\r\n")), 404, ErrorCode.NAO_ENCONTRADO, "caminho=*");
        assertEnvelope(
                exchange(bytes("GET /v1/echo HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n")),
                501,
                ErrorCode.PARAMETRO_INVALIDO,
                "regra=chunked");
        assertEnvelope(exchange(bytes("GET /v1/echo HTTP/2.0\r\n\r\n")), 505, ErrorCode.PARAMETRO_INVALIDO, null);
        assertEnvelope(exchange(bytes("GET /v1/echo\r\n\r\n")), 400, ErrorCode.PARAMETRO_INVALIDO, "regra=syntax");
        assertEnvelope(
                exchange(bytes("GET /v1/echo HTTP/1.1\r\nBad Name: x\r\n\r\n")),
                400,
                ErrorCode.PARAMETRO_INVALIDO,
                "regra=name");
        assertEnvelope(
                exchange(bytes("GET /v1/echo HTTP/1.1\r\nX-A: 1\r\n continued\r\n\r\n")),
                400,
                ErrorCode.PARAMETRO_INVALIDO,
                "regra=obs-fold");
        assertEnvelope(
                exchange(bytes("GET /v1/echo HTTP/1.1\r\nX-Note: a\u0000b\r\n\r\n")),
                400,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=X-Note; regra=control-character");
    }

    @Test
    void answersHeadsNearAndBeyondTheHardLimitInTheEnvelope() throws Exception {
        // 250 fields of 250 bytes: under the guard's 64 KiB, over the adapter's 16 KiB and 64 fields.
        // The JDK counts 32 more bytes a field; at the guard's size it would close without an answer.
        String field = "X-Pad-%03d: " + "v".repeat(237) + "\r\n";
        StringBuilder near = new StringBuilder("GET /v1/echo HTTP/1.1\r\n");
        for (int i = 0; i < 250; i++) {
            near.append(String.format(field, i));
        }
        assertEnvelope(exchange(bytes(near + "\r\n")), 431, ErrorCode.PARAMETRO_INVALIDO, "campo=headers");
        StringBuilder beyond = new StringBuilder("GET /v1/echo HTTP/1.1\r\n");
        for (int i = 0; i < 300; i++) {
            beyond.append(String.format(field, i));
        }
        assertEnvelope(exchange(bytes(beyond + "\r\n")), 431, ErrorCode.PARAMETRO_INVALIDO, "campo=headers");
        assertEnvelope(
                exchange(bytes("GET /v1/echo?q=" + "a".repeat(70_000) + " HTTP/1.1\r\n\r\n")),
                414,
                ErrorCode.PARAMETRO_INVALIDO,
                "campo=uri");
    }

    @Test
    void refusesAKeyFollowedByAControlCharacterAsChaveInvalida() throws Exception {
        // The JDK server trims trailing bytes up to 0x20 off a header value: the key would pass.
        String key = "cad_abcdefghijkl_" + "A".repeat(43);
        for (String header : List.of("Authorization: Bearer " + key, "X-API-Key: " + key)) {
            for (char control : new char[] {0x00, 0x01, 0x1f, 0x7f}) {
                Answer a = exchange(bytes("GET /v1/echo HTTP/1.1\r\n" + header + control + "\r\n\r\n"));
                assertEnvelope(a, 401, ErrorCode.CHAVE_INVALIDA, null);
                assertEquals("Bearer", a.header("www-authenticate"));
            }
        }
    }

    @Test
    void aUnauthorizedAnswerNamesTheBearerScheme() {
        HttpResponse<String> r = http.get("/v1/locked");
        assertEquals(401, r.statusCode());
        assertEquals("Bearer", r.headers().firstValue("www-authenticate").orElseThrow());
    }

    @Test
    void answersHeadWhereverGetAnswersWithTheSameHeadersAndNoBody() throws Exception {
        for (String target : List.of("/v1/things/1", "/v1/echo?a=b", "/v1/nowhere", "/v1/things/%C3%28")) {
            Answer get = exchange(bytes("GET " + target + " HTTP/1.1\r\n\r\n"));
            Answer head = exchangeAll(bytes("HEAD " + target + " HTTP/1.1\r\n\r\n"), 1, true)
                    .get(0);
            assertEquals(get.status(), head.status(), target);
            assertEquals(get.header("content-type"), head.header("content-type"), target);
            assertEquals(Integer.toString(get.body().length), head.header("content-length"), target);
            // HEAD then GET on one connection: were a body sent after HEAD's headers, the GET's answer
            // would not start where they end.
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), http.server.port())) {
                s.setSoTimeout(5000);
                s.getOutputStream()
                        .write(bytes("HEAD " + target + " HTTP/1.1\r\n\r\nGET " + target + " HTTP/1.1\r\n\r\n"));
                Answer h = readAnswer(s.getInputStream(), true);
                Answer g = readAnswer(s.getInputStream(), false);
                assertEquals(get.status(), h.status());
                assertEquals(get.status(), g.status(), "the answer after HEAD starts where HEAD's headers end");
                assertEquals(get.body().length, g.body().length);
            }
        }
    }

    @Test
    void keepsAConnectionAliveAndAnswersPipelinedRequestsInOrder() throws Exception {
        List<Answer> answers = exchangeAll(
                bytes("GET /v1/echo?n=1 HTTP/1.1\r\n\r\nGET /v1/echo?n=2 HTTP/1.1\r\n\r\n"
                        + "POST /v1/things/1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"
                        + "GET /v1/echo?n=4 HTTP/1.1\r\n\r\n"),
                4,
                false);
        assertEquals("1", answers.get(0).json().path("n").asText());
        assertEquals("2", answers.get(1).json().path("n").asText());
        assertEquals("abcde", answers.get(2).json().path("read").asText());
        assertEquals("4", answers.get(3).json().path("n").asText());
    }

    @Test
    void aChunkSizeTheServerWouldReadAsAnotherNumberEndsTheConnectionUnforwarded() throws Exception {
        // 0x100000000 is 2^32 to a long and 0 to the JDK's int: forwarded, the JDK would end the body at
        // once and read what follows (here a request with a NUL in its key) as a request the guard never checked.
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), http.server.port())) {
            s.setSoTimeout(5000);
            s.getOutputStream()
                    .write(bytes("POST /v1/things/1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n100000000\r\n\r\n"
                            + "GET /v1/echo?n=smuggled HTTP/1.1\r\nX-API-Key: k\u0000\r\n\r\n"));
            byte[] all = s.getInputStream().readAllBytes();
            String text = new String(all, java.nio.charset.StandardCharsets.ISO_8859_1);
            assertFalse(text.contains("smuggled"), text);
        }
        // Trailer fields are refused too: the JDK would not read them.
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), http.server.port())) {
            s.setSoTimeout(5000);
            s.getOutputStream()
                    .write(bytes("POST /v1/things/1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n"
                            + "X-Trailer: 1\r\n\r\nGET /v1/echo?n=after HTTP/1.1\r\n\r\n"));
            String text = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertFalse(text.contains("after"), text);
        }
    }

    @Test
    void handsTheHandlerTheClientsAddressNotTheGuards() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), http.server.port())) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(bytes("GET /v1/peer HTTP/1.1\r\n\r\n"));
            Answer a = readAnswer(s.getInputStream(), false);
            assertEquals(s.getLocalPort(), a.json().path("port").asInt());
        }
    }

    @Test
    void closesAConnectionThatSendsNoCompleteHeadInTime() throws Exception {
        for (String partial : List.of("", "GET /v1/echo HTTP/1.1\r\nHost: x\r\n")) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), http.server.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(bytes(partial));
                long start = System.nanoTime();
                int read = s.getInputStream().read();
                long waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
                assertEquals(-1, read, "closed without an answer");
                assertTrue(
                        waited >= 1000 && waited < 8000, "closed after " + waited + " ms; the head timeout is 1.5 s");
            }
        }
    }

    @Test
    void keepsAnsweringWhileThousandsOfIdleConnectionsAreHeld() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 2500; i++) {
                idle.add(new Socket(InetAddress.getLoopbackAddress(), http.server.port()));
            }
            long start = System.nanoTime();
            HttpResponse<String> r = http.get("/v1/echo?still=here");
            assertEquals(200, r.statusCode());
            assertTrue(
                    Duration.ofNanos(System.nanoTime() - start).toSeconds() < 5,
                    "answered within the bound while 2,500 connections idle");
            // And they do not stay: each is closed once its head timeout passes.
            Socket last = idle.get(idle.size() - 1);
            last.setSoTimeout(10_000);
            assertEquals(-1, last.getInputStream().read());
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }

    @Test
    void closesConnectionsBeyondTheCapOfOneAddressAtOnce() throws Exception {
        Router router = Router.builder(Service.COMPANY_DATA)
                .get("/v1/ok", r -> Response.of(200, "text/plain", "ok".getBytes(StandardCharsets.US_ASCII)))
                .build();
        try (TestHttp capped = new TestHttp(
                router,
                Service.COMPANY_DATA,
                RuntimeOptions.builder().maxConnectionsPerAddress(5).build())) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    held.add(new Socket(InetAddress.getLoopbackAddress(), capped.server.port()));
                }
                try (Socket sixth = new Socket(InetAddress.getLoopbackAddress(), capped.server.port())) {
                    sixth.setSoTimeout(5000);
                    sixth.getOutputStream().write(bytes("GET /v1/ok HTTP/1.1\r\n\r\n"));
                    assertEquals(-1, readOrEnd(sixth), "the sixth connection of one address is closed");
                } catch (java.net.SocketException reset) {
                    // closed at accept: the write or the read may see a reset instead of an end
                }
                held.remove(0).close();
                assertEquals(200, eventually(() -> capped.get("/v1/ok").statusCode(), 200));
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    @Test
    void aNewClientTakesThePlaceOfTheLongestSilentConnectionAtTheCap() throws Exception {
        Router router = Router.builder(Service.COMPANY_DATA)
                .get("/v1/ok", r -> Response.of(200, "text/plain", "ok".getBytes(StandardCharsets.US_ASCII)))
                .build();
        try (TestHttp full = new TestHttp(
                router,
                Service.COMPANY_DATA,
                RuntimeOptions.builder()
                        .maxConnections(50)
                        .maxConnectionsPerAddress(1000)
                        .headTimeout(Duration.ofSeconds(60))
                        .build())) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 50; i++) {
                    held.add(new Socket(InetAddress.getLoopbackAddress(), full.server.port()));
                    Thread.sleep(2); // accept order is the order of waiting
                }
                // All 50 slots are held by connections that send nothing, with a minute to go.
                HttpResponse<String> r = full.get("/v1/ok");
                assertEquals(200, r.statusCode());
                Socket first = held.get(0);
                first.setSoTimeout(5000);
                assertEquals(-1, first.getInputStream().read(), "the longest-waiting connection made room");
                Socket last = held.get(held.size() - 1);
                last.setSoTimeout(300);
                assertEquals(-2, readOrEnd(last), "the most recent one is still open");
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    private static int readOrEnd(Socket s) throws IOException {
        try {
            return s.getInputStream().read();
        } catch (SocketTimeoutException e) {
            return -2;
        }
    }

    private static int eventually(java.util.function.IntSupplier call, int wanted) throws InterruptedException {
        int last = -1;
        for (int i = 0; i < 50; i++) {
            try {
                last = call.getAsInt();
                if (last == wanted) {
                    return last;
                }
            } catch (RuntimeException e) {
                // refused while the freed slot was not yet released
            }
            Thread.sleep(100);
        }
        return last;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
