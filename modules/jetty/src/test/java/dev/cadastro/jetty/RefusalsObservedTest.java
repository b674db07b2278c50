package dev.cadastro.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.Service;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.http.*;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the JDK runtime and its connection guard answer before any handler runs is counted and logged
 * as the handler's requests are: route {@code sem_rota}, the method as a label, the answer's request id.
 * Through a real socket, the telemetry port recorded, the access log captured on its logger.
 */
class RefusalsObservedTest {
    private static final Pattern REQUEST_ID = Pattern.compile("(?i)x-request-id: *([^\\r\\n]+)");

    private record Event(String service, String method, String route, int status) {}

    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
    private final RequestTelemetry recording =
            (service, method, route, status, nanos) -> events.add(new Event(service, method, route, status));
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final java.util.logging.Handler capture = new java.util.logging.Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private final Logger access = Logger.getLogger(AccessLog.LOGGER);
    private final AtomicInteger handled = new AtomicInteger();

    @BeforeEach
    void capture() {
        access.setLevel(Level.INFO);
        access.setUseParentHandlers(false);
        access.addHandler(capture);
    }

    @AfterEach
    void release() {
        access.removeHandler(capture);
        access.setUseParentHandlers(true);
        access.setLevel(null);
    }

    private JettyRuntime start(RuntimeOptions options) throws IOException {
        AccessLog log = AccessLog.toSystemLogger();
        Handler handler = Observed.around(
                r -> {
                    handled.incrementAndGet();
                    return Response.json(200, "{}".getBytes(StandardCharsets.UTF_8));
                },
                Service.COMPANY_DATA,
                Telemetry.NONE,
                recording,
                log);
        return JettyRuntime.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                handler,
                Service.COMPANY_DATA,
                options,
                Observed.refusals(Service.COMPANY_DATA, recording, log));
    }

    /** Sends the bytes; the status and request id of the answer. */
    private static String[] exchange(JettyRuntime server, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            Matcher id = REQUEST_ID.matcher(text);
            assertTrue(id.find(), text);
            return new String[] {text.substring(9, 12), id.group(1).trim()};
        }
    }

    /** Waits for the reports, which follow the answer. */
    private List<Event> events(int count) throws InterruptedException {
        for (int i = 0; i < 200 && (events.size() < count || lines.size() < count); i++) {
            Thread.sleep(10);
        }
        return List.copyOf(events);
    }

    @Test
    void theRuntimesOwnRefusalsAreCountedAndLoggedWithoutARoute() throws Exception {
        RuntimeOptions options = RuntimeOptions.defaults();
        Limits limits = options.limits();
        try (JettyRuntime server = start(options)) {
            String[] tooLong =
                    exchange(server, "GET /" + "a".repeat(limits.maxUriLength() + 10) + " HTTP/1.1\r\nHost: x\r\n\r\n");
            String[] tooLarge = exchange(
                    server,
                    "POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: " + (limits.maxBodyBytes() + 1) + "\r\n\r\n");
            assertEquals("414", tooLong[0]);
            assertEquals("413", tooLarge[0]);
            List<Event> seen = events(2);
            assertEquals(
                    List.of(
                            new Event("company-data", "GET", "sem_rota", 414),
                            new Event("company-data", "POST", "sem_rota", 413)),
                    seen);
            assertEquals(0, handled.get(), "the handler never ran");
            List<String> logged = List.copyOf(lines);
            assertEquals(2, logged.size(), logged.toString());
            assertTrue(
                    logged.get(0).startsWith("service=company-data method=GET route=sem_rota status=414 "),
                    logged.get(0));
            assertTrue(logged.get(0).contains(" request_id=" + tooLong[1] + " account=-"), logged.get(0));
            assertTrue(logged.get(1).contains(" request_id=" + tooLarge[1] + " "), logged.get(1));
        }
    }

    @Test
    void jettysOwnRefusalsAreCountedAndLoggedWithABoundedMethodLabel() throws Exception {
        try (JettyRuntime server = start(RuntimeOptions.defaults())) {
            String[] badMethod = exchange(server, "G@T / HTTP/1.1\r\nHost: x\r\n\r\n");
            String[] control = exchange(server, "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n");
            String[] badLine = exchange(server, "GET  /\r\nHost: x\r\n\r\n");
            assertEquals("400", badMethod[0]);
            assertEquals("400", control[0]);
            assertEquals("400", badLine[0]);
            List<Event> seen = events(3);
            assertEquals(
                    List.of(
                            new Event("company-data", "OTHER", "sem_rota", 400),
                            new Event("company-data", "GET", "sem_rota", 400),
                            new Event("company-data", "OTHER", "sem_rota", 400)),
                    seen);
            assertEquals(0, handled.get(), "the handler never ran");
            List<String> logged = List.copyOf(lines);
            assertEquals(3, logged.size(), logged.toString());
            assertTrue(logged.get(0).contains(" request_id=" + badMethod[1] + " "), logged.get(0));
            assertTrue(logged.get(1).contains(" request_id=" + control[1] + " "), logged.get(1));
            assertTrue(logged.get(2).contains(" request_id=" + badLine[1] + " "), logged.get(2));
            for (String line : logged) {
                assertTrue(!line.contains("G@T"), "the raw method is never logged: " + line);
            }
        }
    }
}
