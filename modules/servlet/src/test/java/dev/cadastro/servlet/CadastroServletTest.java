package dev.cadastro.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.Service;
import dev.cadastro.http.Handler;
import dev.cadastro.http.HttpStatusException;
import dev.cadastro.http.Limits;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * The bridge on a real Jetty 12 through real sockets, with small handlers that show what they receive:
 * the path below the context as sent, HEAD, streamed bodies, the limits in the envelope, request ids,
 * internal errors, a client that leaves mid-body, and the registration helper.
 */
class CadastroServletTest {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Jetty mounted(String contextPath, Handler handler, Service envelope, Limits limits)
            throws Exception {
        return Jetty.start(
                contextPath,
                c -> c.addServlet(new ServletHolder("cadastro", new CadastroServlet(handler, envelope, limits)), "/*"));
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void theHandlerSeesThePathBelowTheContextAndTheQueryStillEncodedAsSent() throws Exception {
        BlockingQueue<Request> seen = new ArrayBlockingQueue<>(1);
        Handler echo = r -> {
            seen.add(r);
            return Response.of(200, "text/plain", new byte[0]);
        };
        try (Jetty jetty = mounted("/dados", echo, Service.COMPANY_DATA, Limits.defaults())) {
            HttpResponse<byte[]> r = send(HttpRequest.newBuilder(
                            jetty.uri("/dados/v1/empresas/12.345.678%2F0001-95?municipio=S%C3%A3o+Paulo&x=a%26b"))
                    .header("X-Trace", "one")
                    .build());
            assertEquals(200, r.statusCode());
            Request request = seen.poll(5, TimeUnit.SECONDS);
            assertEquals("GET", request.method());
            assertEquals("/v1/empresas/12.345.678%2F0001-95", request.rawPath());
            assertEquals("municipio=S%C3%A3o+Paulo&x=a%26b", request.rawQuery());
            assertEquals("São Paulo", request.query().first("municipio").orElseThrow());
            assertEquals("one", request.headers().first("x-trace").orElseThrow());
            assertTrue(request.remote().orElseThrow().getAddress().isLoopbackAddress());
            assertEquals(
                    request.requestId(), r.headers().firstValue("X-Request-Id").orElseThrow());
        }
    }

    @Test
    void rawUtf8InTheTargetReachesTheHandlerAsItsPercentEncodedBytes() throws Exception {
        BlockingQueue<Request> seen = new ArrayBlockingQueue<>(1);
        Handler echo = r -> {
            seen.add(r);
            return Response.of(200, "text/plain", new byte[0]);
        };
        try (Jetty jetty = mounted("/", echo, Service.COMPANY_DATA, Limits.defaults());
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), jetty.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /v1/empresas?municipio=São HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            socket.getInputStream().readAllBytes();
            Request request = seen.poll(5, TimeUnit.SECONDS);
            assertEquals("municipio=S%C3%A3o", request.rawQuery());
            assertEquals("São", request.query().first("municipio").orElseThrow());
        }
    }

    @Test
    void rawBytesThatAreNotUtf8InTheQueryAre422AsOnTheJdkRuntime() throws Exception {
        Handler reader = r ->
                Response.of(200, "text/plain", r.query().first("q").orElse("").getBytes(StandardCharsets.UTF_8));
        try (Jetty jetty = mounted("/", reader, Service.COMPANY_DATA, Limits.defaults());
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), jetty.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /v1/a?q=".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[] {(byte) 0xFF, 'x'});
            out.write(" HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 422 "), answer);
            assertTrue(answer.contains("\"code\":\"PARAMETRO_INVALIDO\""), answer);
            assertTrue(answer.contains("regra=utf-8"), answer);
        }
    }

    @Test
    void aPercentEncodedReplacementCharacterIsStillAccepted() throws Exception {
        Handler reader = r ->
                Response.of(200, "text/plain", r.query().first("q").orElse("").getBytes(StandardCharsets.UTF_8));
        try (Jetty jetty = mounted("/", reader, Service.COMPANY_DATA, Limits.defaults())) {
            HttpResponse<byte[]> r =
                    send(HttpRequest.newBuilder(jetty.uri("/v1/a?q=%EF%BF%BDx")).build());
            assertEquals(200, r.statusCode(), text(r));
            assertEquals("\uFFFDx", text(r));
        }
    }

    @Test
    void headAnswersTheHeadersOfGetWithTheLengthAndNoBody() throws Exception {
        byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
        try (Jetty jetty = mounted("/", r -> Response.json(200, body), Service.COMPANY_DATA, Limits.defaults());
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), jetty.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write("HEAD /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("content-length: " + body.length), answer);
            assertTrue(answer.endsWith("\r\n\r\n"), "no body after the head: " + answer);
        }
    }

    @Test
    void aStreamedBodyIsCopiedWithItsLengthAndClosed() throws Exception {
        byte[] audio = new byte[3 * 1024 * 1024 + 17];
        new Random(5).nextBytes(audio);
        AtomicBoolean closed = new AtomicBoolean();
        Handler files = r -> Response.stream(200, "audio/wav", new Response.Streamed() {
                    @Override
                    public long length() {
                        return audio.length;
                    }

                    @Override
                    public void writeTo(OutputStream out) throws IOException {
                        out.write(audio);
                    }

                    @Override
                    public void close() {
                        closed.set(true);
                    }
                })
                .withHeader("Accept-Ranges", "bytes");
        try (Jetty jetty = mounted("/", files, Service.CALL_RECORDS, Limits.defaults())) {
            HttpResponse<byte[]> r =
                    send(HttpRequest.newBuilder(jetty.uri("/a.wav")).build());
            assertEquals(200, r.statusCode());
            assertEquals("audio/wav", r.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(
                    Long.toString(audio.length),
                    r.headers().firstValue("Content-Length").orElseThrow());
            assertEquals("bytes", r.headers().firstValue("Accept-Ranges").orElseThrow());
            assertArrayEquals(audio, r.body());
            assertTrue(closed.get(), "the streamed body was closed");
        }
    }

    @Test
    void aBodyBeyondTheLimitIs413InTheEnvelopeWhetherDeclaredOrRead() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        Handler reader = r -> {
            ran.incrementAndGet();
            return Response.of(200, "text/plain", r.body().readAllBytes());
        };
        Limits small = Limits.defaults().toBuilder().maxBodyBytes(1024).build();
        try (Jetty jetty = mounted("/", reader, Service.COMPANY_DATA, small)) {
            HttpResponse<byte[]> declared = send(HttpRequest.newBuilder(jetty.uri("/p"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[2000]))
                    .build());
            assertEquals(413, declared.statusCode(), text(declared));
            assertTrue(text(declared).contains("\"code\":\"PARAMETRO_INVALIDO\""), text(declared));
            assertEquals(0, ran.get(), "a declared length beyond the limit is refused before the handler");

            // Chunked, so only reading finds out.
            HttpResponse<byte[]> read = send(HttpRequest.newBuilder(jetty.uri("/p"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(
                            () -> new java.io.ByteArrayInputStream(new byte[5000])))
                    .build());
            assertEquals(413, read.statusCode(), text(read));
            assertTrue(text(read).contains("\"code\":\"PARAMETRO_INVALIDO\""), text(read));
            assertEquals(1, ran.get());

            HttpResponse<byte[]> fits = send(HttpRequest.newBuilder(jetty.uri("/p"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1024]))
                    .build());
            assertEquals(200, fits.statusCode());
            assertEquals(1024, fits.body().length);
        }
    }

    @Test
    void aLongTargetIs414AndTooManyHeaderFieldsAre431InTheEnvelope() throws Exception {
        try (Jetty jetty = mounted(
                "/", r -> Response.of(200, "text/plain", new byte[0]), Service.CALL_RECORDS, Limits.defaults())) {
            HttpResponse<byte[]> longTarget = send(HttpRequest.newBuilder(jetty.uri("/a?q=" + "x".repeat(9000)))
                    .build());
            assertEquals(414, longTarget.statusCode());
            assertTrue(text(longTarget).contains("\"erro\":\"parametro_invalido\""), text(longTarget));
            HttpRequest.Builder many = HttpRequest.newBuilder(jetty.uri("/a"));
            for (int i = 0; i < 70; i++) {
                many.header("X-H" + i, "v");
            }
            HttpResponse<byte[]> headers = send(many.build());
            assertEquals(431, headers.statusCode());
            assertTrue(text(headers).contains("\"erro\":\"parametro_invalido\""), text(headers));
            assertTrue(headers.headers().firstValue("X-Request-Id").isPresent());
        }
    }

    @Test
    void aFailingHandlerIs500ErroInternoWithTheRequestIdAndNoTrace() throws Exception {
        Handler failing = r -> {
            throw new IllegalStateException("secret detail of the failure");
        };
        try (Jetty jetty = mounted("/", failing, Service.COMPANY_DATA, Limits.defaults())) {
            HttpResponse<byte[]> r =
                    send(HttpRequest.newBuilder(jetty.uri("/x")).build());
            assertEquals(500, r.statusCode());
            String id = r.headers().firstValue("X-Request-Id").orElseThrow();
            assertTrue(text(r).contains("\"code\":\"ERRO_INTERNO\""), text(r));
            assertTrue(text(r).contains(id), text(r));
            assertFalse(text(r).contains("secret detail"), text(r));
        }
    }

    @Test
    void aClientThatLeavesMidBodyCostsNeither500NorAnErrorLog() throws Exception {
        ConcurrentLinkedQueue<LogRecord> errors = new ConcurrentLinkedQueue<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    errors.add(record);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        BlockingQueue<Throwable> failures = new ArrayBlockingQueue<>(1);
        Handler reader = r -> {
            try {
                return Response.of(200, "text/plain", r.body().readAllBytes());
            } catch (RuntimeException | IOException e) {
                failures.add(e);
                throw e;
            }
        };
        try (Jetty jetty = mounted("/", reader, Service.COMPANY_DATA, Limits.defaults())) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), jetty.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(10))
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(200);
            }
            Throwable failure = failures.poll(10, TimeUnit.SECONDS);
            HttpStatusException refused = assertInstanceOf(HttpStatusException.class, failure);
            assertEquals(400, refused.status(), "a body cut short is the client's doing, not a 500");
            Thread.sleep(200);
            assertEquals(
                    java.util.List.of(),
                    errors.stream().map(LogRecord::getMessage).toList(),
                    "nothing is logged as an error");
        } finally {
            root.removeHandler(capture);
        }
    }

    /** Sends {@code head} and {@code body} on a raw socket left open, and reads the whole answer. */
    private static String exchangeLeftOpen(Jetty jetty, String head, byte[] body) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), jetty.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            // The socket stays open: only the server can end this exchange.
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void assertEnveloped400WithClose(String answer) {
        assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
        String lower = answer.toLowerCase(java.util.Locale.ROOT);
        assertTrue(lower.contains("\r\nconnection: close\r\n"), answer);
        assertTrue(lower.contains("\r\nx-request-id: "), answer);
        assertTrue(answer.contains("\"code\":\"PARAMETRO_INVALIDO\""), answer);
    }

    @Test
    void aMalformedChunkIs400InTheEnvelopeNotAnEmpty200() throws Exception {
        Handler reader = r -> Response.of(200, "text/plain", r.body().readAllBytes());
        try (Jetty jetty = mounted("/", reader, Service.COMPANY_DATA, Limits.defaults())) {
            String answer = exchangeLeftOpen(
                    jetty,
                    "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
                    "zz\r\nhello\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEnveloped400WithClose(answer);
        }
    }

    @Test
    void aClientThatWroteItsWholeRefusedBodyStillReadsThe413() throws Exception {
        // A declared length beyond the limit is refused before the handler runs. The client writes all
        // of its body, then reads: had the bridge answered and closed before reading those bytes, the
        // body would arrive at a closed connection, which resets it, and the 413 would be lost.
        Handler never = r -> Response.of(200, "text/plain", new byte[0]);
        try (Jetty jetty = mounted("/", never, Service.COMPANY_DATA, Limits.defaults());
                java.net.Socket socket =
                        new java.net.Socket("127.0.0.1", jetty.uri("/").getPort())) {
            socket.setSoTimeout(20_000);
            byte[] body = new byte[1024 * 1024 + 1];
            var out = socket.getOutputStream();
            out.write(("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // The head arrives alone, as a client streaming its body sends it: the refusal is decided
            // before the body is on the wire.
            Thread.sleep(300);
            out.write(body);
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.contains("\"code\":\"PARAMETRO_INVALIDO\""), answer);
        }
    }

    @Test
    void aClientWaitingForTheAnswerBeforeSendingItsRefusedBodyGetsThe413AtOnce() throws Exception {
        // The rest of a refused body is read only once the 413 is written, so the refusal does not wait
        // for a body that is not coming (here until the container's idle timeout).
        Handler never = r -> Response.of(200, "text/plain", new byte[0]);
        try (Jetty jetty = mounted("/", never, Service.COMPANY_DATA, Limits.defaults());
                java.net.Socket socket =
                        new java.net.Socket("127.0.0.1", jetty.uri("/").getPort())) {
            socket.setSoTimeout(3_000);
            var out = socket.getOutputStream();
            out.write(("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: " + (1024 * 1024 + 1) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] head = socket.getInputStream().readNBytes(12);
            assertEquals("HTTP/1.1 413", new String(head, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void aBodyShorterThanItsLengthIs408InTheEnvelopeAtTheIdleTimeout() throws Exception {
        Handler reader = r -> Response.of(200, "text/plain", r.body().readAllBytes());
        try (Jetty jetty =
                mounted("/", reader, Service.COMPANY_DATA, Limits.defaults()).idleTimeout(1000)) {
            String answer = exchangeLeftOpen(
                    jetty,
                    "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n",
                    "x".repeat(10).getBytes(StandardCharsets.US_ASCII));
            // The container gave up waiting for the rest: a timeout, the client's, not a 500.
            assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
            String lower = answer.toLowerCase(java.util.Locale.ROOT);
            assertTrue(lower.contains("\r\nconnection: close\r\n"), answer);
            assertTrue(answer.contains("\"code\":\"PARAMETRO_INVALIDO\""), answer);
        }
    }

    @Test
    void aHandlerThatSwallowsABrokenBodyStillYieldsThe400() throws Exception {
        Handler swallowing = r -> {
            try {
                r.body().readAllBytes();
            } catch (RuntimeException | IOException e) {
                // A handler that ignores the failure must not turn the broken request into a 200.
            }
            return Response.of(200, "text/plain", "fine".getBytes(StandardCharsets.US_ASCII));
        };
        try (Jetty jetty = mounted("/", swallowing, Service.COMPANY_DATA, Limits.defaults())) {
            String answer = exchangeLeftOpen(
                    jetty,
                    "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
                    "zz\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEnveloped400WithClose(answer);
        }
    }

    @Test
    void underAPrefixMappingTheHandlerSeesThePathBelowThePrefix() throws Exception {
        Handler echo = r ->
                Response.of(200, "text/plain", (r.rawPath() + "?" + r.rawQuery()).getBytes(StandardCharsets.UTF_8));
        try (Jetty jetty = Jetty.start("/app", c -> {
            c.addServlet(new ServletHolder("dados", new CadastroServlet(echo, Service.COMPANY_DATA)), "/dados/*");
            c.addServlet(new ServletHolder("ligacoes", new CadastroServlet(echo, Service.CALL_RECORDS)), "/ligacoes/*");
        })) {
            assertEquals(
                    "/v1/empresas/12.345.678%2F0001-95?a=1",
                    text(send(HttpRequest.newBuilder(jetty.uri("/app/dados/v1/empresas/12.345.678%2F0001-95?a=1"))
                            .build())));
            assertEquals(
                    "/health/ready?",
                    text(send(HttpRequest.newBuilder(jetty.uri("/app/ligacoes/health/ready"))
                            .build())));
        }
    }

    @Test
    void aTargetThatMatchesTheMountOnlyOnceDecodedIs404InTheEnvelopeWithoutTheHandler() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        Handler echo = r -> {
            ran.incrementAndGet();
            return Response.of(200, "text/plain", r.rawPath().getBytes(StandardCharsets.UTF_8));
        };
        try (Jetty jetty = Jetty.start("/", c -> {
            c.addServlet(new ServletHolder("dados", new CadastroServlet(echo, Service.COMPANY_DATA)), "/dados/*");
            c.addServlet(new ServletHolder("ligacoes", new CadastroServlet(echo, Service.CALL_RECORDS)), "/ligacoes/*");
        })) {
            for (String target : java.util.List.of("/%64ados/v1/a", "/ligacoes/../dados/v1/a", "/dados;x=1/v1/a")) {
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), jetty.port())) {
                    socket.setSoTimeout(5000);
                    OutputStream out = socket.getOutputStream();
                    out.write(("GET " + target + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertTrue(answer.startsWith("HTTP/1.1 404 "), target + ": " + answer);
                    assertTrue(answer.contains("\"code\":\"NAO_ENCONTRADO\""), target + ": " + answer);
                }
            }
            assertEquals(0, ran.get(), "no such target reaches a handler");
            HttpResponse<byte[]> mounted =
                    send(HttpRequest.newBuilder(jetty.uri("/dados/v1/a")).build());
            assertEquals("/v1/a", text(mounted));
        }
    }

    @Test
    void mountRegistersTheServletFromAContextListenerAtTheRootOfItsContext() throws Exception {
        CadastroServlet servlet = new CadastroServlet(
                r -> Response.of(200, "text/plain", r.rawPath().getBytes(StandardCharsets.UTF_8)),
                Service.COMPANY_DATA);
        try (Jetty jetty = Jetty.start(
                "/ligacoes",
                c -> c.addEventListener(new ServletContextListener() {
                    @Override
                    public void contextInitialized(ServletContextEvent e) {
                        servlet.mount(e.getServletContext(), "cadastro-calls", "/*");
                    }
                }))) {
            HttpResponse<byte[]> r = send(HttpRequest.newBuilder(jetty.uri("/ligacoes/v1/ligacoes/abc"))
                    .build());
            assertEquals(200, r.statusCode());
            assertEquals("/v1/ligacoes/abc", text(r));
            HttpResponse<byte[]> root =
                    send(HttpRequest.newBuilder(jetty.uri("/ligacoes/")).build());
            assertEquals("/", text(root), "the context itself is the handler's root");
        }
    }
}
