package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.telemetry.Telemetry;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Observed} around a router on the JDK runtime, through a real socket: what reaches the
 * telemetry (request events and the domain's refusals) (the route template, never the path; the status; a rate-limit refusal) and the line
 * the access log writes, captured with a {@code java.util.logging} handler on its logger.
 */
class ObservedTest {
    private record Event(String service, String method, String route, int status, long nanos) {}

    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> refusals = new ConcurrentLinkedQueue<>();
    private final RequestTelemetry requests =
            (service, method, route, status, nanos) -> events.add(new Event(service, method, route, status, nanos));
    private final Telemetry recording = new Telemetry() {
        @Override
        public void rateLimitRefused(String service, String code) {
            refusals.add(service + " " + code);
        }
    };
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

    private Router router() {
        return Router.builder(Service.COMPANY_DATA)
                .get("/v1/empresas/{cnpj}", r -> {
                    r.facts().account(42);
                    return Response.json(200, "{}".getBytes());
                })
                .get("/v1/limitado", r -> {
                    r.facts().refusedBy("LIMITE_MINUTO");
                    return Response.json(429, "{}".getBytes());
                })
                .get("/v1/falha", r -> {
                    throw new HttpStatusException(
                            413, ErrorCode.PARAMETRO_INVALIDO, Message.BODY_HAS_MORE.with(1), null, Headers.empty());
                })
                .build();
    }

    @Test
    void reportsTheRouteTemplateNeverThePathAndTheStatus() throws Exception {
        Handler observed =
                Observed.around(router(), Service.COMPANY_DATA, recording, requests, AccessLog.toSystemLogger());
        try (TestHttp http = new TestHttp(observed, Service.COMPANY_DATA)) {
            HttpResponse<String> ok = http.get("/v1/empresas/11222333000181?cpf=52998224725");
            assertEquals(200, ok.statusCode());
            assertEquals(404, http.get("/v1/empresas/11222333000181/x/y").statusCode());
            assertEquals(
                    405,
                    http.send(java.net.http.HttpRequest.newBuilder(http.uri("/v1/empresas/1"))
                                    .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                                    .build())
                            .statusCode());
            assertEquals(429, http.get("/v1/limitado").statusCode());
            assertEquals(413, http.get("/v1/falha").statusCode());
        }
        List<Event> seen = List.copyOf(events);
        assertEquals(5, seen.size(), seen.toString());
        assertEquals(
                new Event(
                        "company-data",
                        "GET",
                        "/v1/empresas/{cnpj}",
                        200,
                        seen.get(0).nanos()),
                seen.get(0));
        assertTrue(seen.get(0).nanos() > 0);
        assertEquals("sem_rota", seen.get(1).route());
        assertEquals(404, seen.get(1).status());
        // A path that matches with another method: labelled by the template it matched, never the path.
        assertEquals(405, seen.get(2).status());
        assertEquals("POST", seen.get(2).method());
        assertEquals("/v1/empresas/{cnpj}", seen.get(2).route());
        assertEquals(429, seen.get(3).status());
        assertEquals(List.of("company-data LIMITE_MINUTO"), List.copyOf(refusals));
        assertEquals("/v1/falha", seen.get(4).route());
        assertEquals(413, seen.get(4).status());
        for (Event e : seen) {
            assertTrue(!e.route().contains("11222333000181") && !e.route().contains("52998224725"), e.toString());
        }
    }

    @Test
    void writesOneAccessLineWithTheRequestIdAndTheAccount() throws Exception {
        Handler observed = Observed.around(
                router(), Service.COMPANY_DATA, Telemetry.NONE, RequestTelemetry.NONE, AccessLog.toSystemLogger());
        String id;
        try (TestHttp http = new TestHttp(observed, Service.COMPANY_DATA)) {
            HttpResponse<String> r = http.get("/v1/empresas/11222333000181?telefone=11987654321");
            id = r.headers().firstValue("X-Request-Id").orElseThrow();
            http.get("/v1/limitado", "X-API-Key", "cad_secretkey");
        }
        List<String> seen = List.copyOf(lines);
        assertEquals(2, seen.size(), seen.toString());
        assertTrue(
                seen.get(0)
                        .matches("service=company-data method=GET route=/v1/empresas/\\{cnpj} status=200"
                                + " duration_ms=[0-9]+\\.[0-9]{3} request_id=" + java.util.regex.Pattern.quote(id)
                                + " account=42"),
                seen.get(0));
        assertTrue(seen.get(1).endsWith(" account=- refused_by=LIMITE_MINUTO"), seen.get(1));
        for (String line : seen) {
            assertTrue(
                    !line.contains("11222333000181") && !line.contains("11987654321") && !line.contains("secretkey"),
                    line);
        }
    }

    @Test
    void withNothingToReportTheHandlerIsMountedAsItIs() {
        Router router = router();
        assertSame(
                router,
                Observed.around(router, Service.COMPANY_DATA, Telemetry.NONE, RequestTelemetry.NONE, AccessLog.off()));
    }

    @Test
    void formatsTheDurationInMillisecondsWithThreeDecimals() {
        RequestFacts facts = new RequestFacts();
        assertEquals(
                "service=s method=GET route=/r status=200 duration_ms=0.005 request_id=i account=-",
                AccessLog.line("s", "GET", "/r", 200, 5_400, "i", facts));
        facts.account(7);
        assertEquals(
                "service=s method=GET route=/r status=200 duration_ms=1234.050 request_id=i account=7",
                AccessLog.line("s", "GET", "/r", 200, 1_234_050_999L, "i", facts));
    }
}
