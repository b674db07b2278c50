package dev.cadastro.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Response;
import dev.cadastro.http.Router;
import dev.cadastro.http.internal.JsonBody;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The edge of the server's runtime through raw sockets: pipelining, chunked bodies with trailers,
 * framing errors and timeouts answered in the envelope, client faults never a 5xx nor a SEVERE line,
 * connection caps per address, and the head timeout against slowloris.
 */
class EdgeTest {
    private static final Logger ROOT = Logger.getLogger("");
    private final ConcurrentLinkedQueue<LogRecord> severe = new ConcurrentLinkedQueue<>();
    private final java.util.logging.Handler capture = new java.util.logging.Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                severe.add(record);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private final List<JettyRuntime> started = new ArrayList<>();

    @BeforeEach
    void capture() {
        ROOT.addHandler(capture);
    }

    @AfterEach
    void release() {
        ROOT.removeHandler(capture);
        started.forEach(JettyRuntime::close);
    }

    private static final Handler ROUTER = Router.builder(Service.COMPANY_DATA)
            .get("/v1/n", r -> text(200, r.query().first("i").orElse("?")))
            .get("/v1/echo", r -> text(200, r.query().first("m").orElse("")))
            .post("/v1/json", r -> text(200, "keys " + JsonBody.object(r.body()).size()))
            .post("/v1/read", r -> text(200, "read " + r.body().readAllBytes().length))
            .post("/v1/refuse", r -> {
                throw InvalidParameterException.of("x", "rule", Message.FIELD_REQUIRED.with("x"));
            })
            .build();

    private static Response text(int status, String body) {
        return Response.of(status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    private JettyRuntime start(Service envelope, RuntimeOptions options) throws IOException {
        JettyRuntime runtime = JettyRuntime.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), ROUTER, envelope, options);
        started.add(runtime);
        return runtime;
    }

    private JettyRuntime start() throws IOException {
        return start(Service.COMPANY_DATA, RuntimeOptions.defaults());
    }

    private static Socket connect(JettyRuntime runtime) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), runtime.port());
        s.setSoTimeout(20_000);
        return s;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private void assertNoSevereLine() {
        assertTrue(
                severe.isEmpty(),
                () -> "SEVERE lines: "
                        + severe.stream().map(LogRecord::getMessage).toList());
    }

    @Test
    void answersTwentyAndTwoHundredPipelinedRequestsInOrder() throws Exception {
        JettyRuntime runtime = start();
        for (int n : new int[] {20, 200}) {
            try (Socket s = connect(runtime)) {
                StringBuilder all = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    all.append("GET /v1/n?i=").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
                }
                s.getOutputStream().write(ascii(all.toString()));
                s.getOutputStream().flush();
                RawAnswers answers = new RawAnswers(s.getInputStream());
                Set<String> ids = new HashSet<>();
                for (int i = 0; i < n; i++) {
                    RawAnswers.Answer a = answers.next();
                    assertNotNull(a, n + " pipelined: answer " + i + " never came");
                    assertEquals(200, a.status(), a.head());
                    assertEquals(Integer.toString(i), a.body(), n + " pipelined: answers in order");
                    ids.add(a.header("X-Request-Id"));
                }
                assertEquals(n, ids.size(), "each answer its own request");
            }
        }
    }

    @Test
    void readsAChunkedBodyWithTrailersAndKeepsTheConnection() throws Exception {
        JettyRuntime runtime = start();
        try (Socket s = connect(runtime)) {
            String json = "{\"a\":1,\"b\":2}";
            s.getOutputStream()
                    .write(ascii("POST /v1/json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                            + "Content-Type: application/json\r\nTrailer: X-Checksum\r\n\r\n"
                            + "5\r\n" + json.substring(0, 5) + "\r\n"
                            + Integer.toHexString(json.length() - 5) + "\r\n" + json.substring(5) + "\r\n"
                            + "0\r\nX-Checksum: abc\r\n\r\n"
                            + "GET /v1/n?i=after HTTP/1.1\r\nHost: x\r\n\r\n"));
            s.getOutputStream().flush();
            RawAnswers answers = new RawAnswers(s.getInputStream());
            RawAnswers.Answer first = answers.next();
            assertEquals(200, first.status(), first.head() + first.body());
            assertEquals("keys 2", first.body());
            RawAnswers.Answer second = answers.next();
            assertEquals("after", second.body(), "the connection was kept for the next request");
        }
        assertNoSevereLine();
    }

    @Test
    void answersTwoContentLengthsInTheEnvelopeOfEachService() throws Exception {
        for (Service service : Service.values()) {
            JettyRuntime runtime = start(service, RuntimeOptions.defaults());
            for (String lengths :
                    new String[] {"Content-Length: 2\r\nContent-Length: 2", "Content-Length: 2\r\nContent-Length: 3"}) {
                try (Socket s = connect(runtime)) {
                    s.getOutputStream().write(ascii("POST /v1/read HTTP/1.1\r\nHost: x\r\n" + lengths + "\r\n\r\nab"));
                    RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
                    assertEquals(400, a.status(), a.head());
                    assertTrue(a.header("Content-Type").startsWith("application/json"), a.head());
                    assertTrue(a.closes(), a.head());
                    assertNotNull(a.header("X-Request-Id"), a.head());
                    if (service == Service.COMPANY_DATA) {
                        assertTrue(a.body().startsWith("{\"erro\":{\"code\":\"PARAMETRO_INVALIDO\""), a.body());
                    } else {
                        assertTrue(a.body().startsWith("{\"erro\":\"parametro_invalido\""), a.body());
                    }
                }
            }
        }
    }

    @Test
    void answersAnUnknownTransferCodingAndBadFramingWith4xxInTheEnvelope() throws Exception {
        JettyRuntime runtime = start();
        for (String head : new String[] {
            "POST /v1/read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            "POST /v1/read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
            "POST /v1/read HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST /v1/read HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
            "GET /v1/n HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n",
        }) {
            try (Socket s = connect(runtime)) {
                s.getOutputStream().write(ascii(head));
                RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
                assertNotNull(a, head);
                assertTrue(a.status() >= 400 && a.status() < 500, head + " -> " + a.head());
                assertTrue(a.header("Content-Type").startsWith("application/json"), a.head());
                assertTrue(a.body().contains("\"code\":\"PARAMETRO_INVALIDO\""), a.body());
            }
        }
        assertNoSevereLine();
    }

    @Test
    void aBodyCutShortAbortedOrTooSlowIsNeverA5xxNorASevereLine() throws Exception {
        JettyRuntime runtime = start(
                Service.COMPANY_DATA,
                RuntimeOptions.builder()
                        .idleTimeout(Duration.ofSeconds(2))
                        .bodyTimeout(Duration.ofSeconds(1))
                        .build());
        // Cut short: fewer bytes than declared, then the client half-closes.
        for (String path : new String[] {"/v1/json", "/v1/read"}) {
            try (Socket s = connect(runtime)) {
                s.getOutputStream()
                        .write(ascii("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":"));
                s.shutdownOutput();
                RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
                assertTrue(a == null || (a.status() >= 400 && a.status() < 500), path + " cut: " + a);
            }
        }
        // Aborted: the client resets the connection mid-body.
        try (Socket s = connect(runtime)) {
            s.getOutputStream()
                    .write(ascii(
                            "POST /v1/read HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(5000)));
            s.getOutputStream().flush();
            s.setSoLinger(true, 0);
        }
        // Stalled: part of the body, then silence until the idle timeout.
        try (Socket s = connect(runtime)) {
            s.getOutputStream().write(ascii("POST /v1/read HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nxxxxx"));
            s.getOutputStream().flush();
            RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
            assertTrue(a == null || a.status() == 408 || a.status() == 400, "stalled: " + a);
        }
        // Trickled: a byte at a time, past the body timeout.
        try (Socket s = connect(runtime)) {
            OutputStream out = s.getOutputStream();
            out.write(ascii("POST /v1/read HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"));
            out.flush();
            Thread trickler = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        out.write('x');
                        out.flush();
                        Thread.sleep(50); // the client's pace, not a wait on the server
                    }
                } catch (IOException | InterruptedException e) {
                    // the server answered and closed
                }
            });
            RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
            trickler.interrupt();
            assertNotNull(a, "the trickled body was answered");
            assertEquals(408, a.status(), a.head() + a.body());
            assertTrue(a.closes(), a.head());
            assertTrue(a.body().contains("\"code\":\"PARAMETRO_INVALIDO\""), a.body());
        }
        // The server still answers, and nothing of the above was logged as SEVERE.
        try (Socket s = connect(runtime)) {
            s.getOutputStream().write(ascii("GET /v1/n?i=ok HTTP/1.1\r\nHost: x\r\n\r\n"));
            assertEquals("ok", new RawAnswers(s.getInputStream()).next().body());
        }
        assertNoSevereLine();
    }

    @Test
    void anEarlyRefusalOfAMegabyteBodyClosesAndTheNextConnectionWorks() throws Exception {
        JettyRuntime runtime = start();
        int size = 1_000_000;
        try (Socket s = connect(runtime)) {
            OutputStream out = s.getOutputStream();
            out.write(ascii("POST /v1/refuse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + size + "\r\n\r\n"));
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    out.write(new byte[size]);
                    out.flush();
                } catch (IOException e) {
                    // the server may close before reading it all
                }
            });
            RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
            assertNotNull(a, "the refusal reached the client");
            assertEquals(422, a.status(), a.head());
            assertTrue(a.closes(), "the body was not read: " + a.head());
            assertTrue(a.body().contains("\"code\":\"PARAMETRO_INVALIDO\""), a.body());
            writer.join();
        }
        try (Socket s = connect(runtime)) {
            s.getOutputStream().write(ascii("GET /v1/n?i=next HTTP/1.1\r\nHost: x\r\n\r\n"));
            assertEquals("next", new RawAnswers(s.getInputStream()).next().body());
        }
    }

    @Test
    void readsRawUtf8InTheTargetAsUtf8() throws Exception {
        JettyRuntime runtime = start();
        try (Socket s = connect(runtime)) {
            s.getOutputStream()
                    .write("GET /v1/echo?m=São+Paulo&x=CONSOLAÇÃO HTTP/1.1\r\nHost: x\r\n\r\n"
                            .getBytes(StandardCharsets.UTF_8));
            RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
            assertEquals(200, a.status(), a.head() + a.body());
            assertEquals("São Paulo", a.body());
        }
    }

    @Test
    void threeHundredIdleConnectionsFromOneAddressDoNotLockOutAnother() throws Exception {
        // 280 connections in all, 256 per address: without the per-address cap, 127.0.0.2 would hold all
        // 280 and the listener would stop accepting.
        JettyRuntime runtime = start(
                Service.COMPANY_DATA,
                RuntimeOptions.builder()
                        .maxConnections(280)
                        .maxConnectionsPerAddress(256)
                        .headTimeout(Duration.ofMinutes(5))
                        .idleTimeout(Duration.ofMinutes(5))
                        .build());
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                Socket s = new Socket();
                s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), runtime.port()), 5_000);
                idle.add(s);
            }
            try (Socket s = new Socket()) {
                s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), runtime.port()), 5_000);
                s.setSoTimeout(20_000);
                s.getOutputStream().write(ascii("GET /v1/n?i=other HTTP/1.1\r\nHost: x\r\n\r\n"));
                RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
                assertNotNull(a, "127.0.0.1 was locked out");
                assertEquals("other", a.body());
            }
            // The 44 beyond the cap were closed by the server: reading them ends at once.
            int closed = 0;
            for (Socket s : idle) {
                s.setSoTimeout(1);
                try {
                    if (s.getInputStream().read() < 0) {
                        closed++;
                    }
                } catch (java.net.SocketTimeoutException e) {
                    // open and idle
                } catch (SocketException e) {
                    closed++;
                }
            }
            assertEquals(44, closed, "connections from 127.0.0.2 beyond maxConnectionsPerAddress");
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }

    @Test
    void aSlowlorisHeadIsAnswered408AndClosedAtTheHeadTimeout() throws Exception {
        JettyRuntime runtime = start(
                Service.COMPANY_DATA,
                RuntimeOptions.builder().headTimeout(Duration.ofMillis(500)).build());
        try (Socket s = connect(runtime)) {
            OutputStream out = s.getOutputStream();
            out.write(ascii("GET /v1/n?i=1 HTTP/1.1\r\nHost: x\r\n"));
            out.flush();
            Thread trickler = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; ; i++) {
                        out.write(ascii("X-" + i + ": a\r\n"));
                        out.flush();
                        Thread.sleep(50); // the attacker's pace, not a wait on the server
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the server
                }
            });
            RawAnswers answers = new RawAnswers(s.getInputStream());
            RawAnswers.Answer a = answers.next();
            trickler.interrupt();
            assertNotNull(a);
            assertEquals(408, a.status(), a.head());
            assertTrue(a.closes(), a.head());
            assertTrue(a.body().contains("\"code\":\"PARAMETRO_INVALIDO\""), a.body());
            assertNull(answers.next(), "the server closed the connection");
        }
        // A connection that sends nothing at all is closed the same way; one that keeps its pace is not.
        try (Socket s = connect(runtime)) {
            RawAnswers answers = new RawAnswers(s.getInputStream());
            assertEquals(408, answers.next().status());
            assertNull(answers.next());
        }
        try (Socket s = connect(runtime)) {
            RawAnswers answers = new RawAnswers(s.getInputStream());
            for (int i = 0; i < 3; i++) {
                s.getOutputStream().write(ascii("GET /v1/n?i=" + i + " HTTP/1.1\r\nHost: x\r\n\r\n"));
                assertEquals(Integer.toString(i), answers.next().body());
            }
        }
        assertNoSevereLine();
    }

    @Test
    void answersEveryRefusalWithoutTheHtmlOfTheContainer() throws Exception {
        JettyRuntime runtime = start();
        for (String request : new String[] {
            "GET /v1/n HTTP/1.1\r\n\r\n",
            "GET /" + "a".repeat(100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /v1/n HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(100_000) + "\r\n\r\n",
            "GET /v1/n HTTP/2.0\r\nHost: x\r\n\r\n",
            "G@T /v1/n HTTP/1.1\r\nHost: x\r\n\r\n",
        }) {
            try (Socket s = connect(runtime)) {
                s.getOutputStream().write(ascii(request));
                RawAnswers.Answer a = new RawAnswers(s.getInputStream()).next();
                assertNotNull(a, request.substring(0, Math.min(30, request.length())));
                assertTrue(a.status() >= 400 && a.status() < 500, a.head());
                assertTrue(a.header("Content-Type").startsWith("application/json"), a.head());
                assertFalse(a.body().contains("<html"), a.body());
            }
        }
        assertNoSevereLine();
    }
}
