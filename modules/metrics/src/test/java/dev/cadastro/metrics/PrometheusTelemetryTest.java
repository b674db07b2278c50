package dev.cadastro.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What the scrape of a {@link PrometheusTelemetry} holds after events, in the Prometheus text format. */
class PrometheusTelemetryTest {
    private static String text(PrometheusTelemetry t) {
        return new String(t.scrape(), StandardCharsets.UTF_8);
    }

    @Test
    void countsEachRequestInItsLabelSetsHistogram() {
        PrometheusTelemetry t = PrometheusTelemetry.create();
        for (int i = 0; i < 3; i++) {
            t.requestCompleted("company-data", "GET", "/v1/empresas/{cnpj}", 200, 2_000_000);
        }
        t.requestCompleted("company-data", "GET", "/v1/empresas/{cnpj}", 404, 20_000_000_000L);
        String s = text(t);
        String labels = "method=\"GET\",route=\"/v1/empresas/{cnpj}\",service=\"company-data\"";
        assertTrue(s.contains("cadastro_http_request_duration_seconds_count{" + labels + ",status=\"200\"} 3"), s);
        assertTrue(s.contains("cadastro_http_request_duration_seconds_count{" + labels + ",status=\"404\"} 1"), s);
        // 2 ms falls in the 2.5 ms bucket, not in the 1 ms one; 20 s only in +Inf.
        assertTrue(
                s.contains(
                        "cadastro_http_request_duration_seconds_bucket{" + labels + ",status=\"200\",le=\"0.001\"} 0"),
                s);
        assertTrue(
                s.contains(
                        "cadastro_http_request_duration_seconds_bucket{" + labels + ",status=\"200\",le=\"0.0025\"} 3"),
                s);
        assertTrue(
                s.contains(
                        "cadastro_http_request_duration_seconds_bucket{" + labels + ",status=\"404\",le=\"10.0\"} 0"),
                s);
        assertTrue(
                s.contains(
                        "cadastro_http_request_duration_seconds_bucket{" + labels + ",status=\"404\",le=\"+Inf\"} 1"),
                s);
        assertTrue(s.contains("# TYPE cadastro_http_request_duration_seconds histogram"), s);
    }

    @Test
    void countsCreditsLedgerEntriesRefusalsAndPushOutcomes() {
        PrometheusTelemetry t = PrometheusTelemetry.create();
        t.creditsCharged("lookup", "CREDITS", 1);
        t.creditsCharged("lookup", "CREDITS", 5);
        t.creditsCharged("search", "CREDITS", 0);
        t.ledgerEntryWritten("CHARGE");
        t.rateLimitRefused("company-data", "LIMITE_DIARIO");
        t.pushAttempted("DELIVERED");
        t.pushAttempted("TIMEOUT");
        t.pushAttempted("STATUS");
        String s = text(t);
        assertTrue(s.contains("cadastro_credits_charged_total{kind=\"CREDITS\",operation=\"lookup\"} 6.0"), s);
        assertFalse(s.contains("operation=\"search\""), "a free operation adds no series: " + s);
        assertTrue(s.contains("cadastro_ledger_entries_total{type=\"CHARGE\"} 1.0"), s);
        assertTrue(
                s.contains("cadastro_rate_limit_refusals_total{limit=\"LIMITE_DIARIO\",service=\"company-data\"} 1.0"),
                s);
        assertTrue(s.contains("cadastro_push_attempts_total{outcome=\"TIMEOUT\"} 1.0"), s);
        assertTrue(s.contains("cadastro_push_failures_total 2.0"), s);
    }

    @Test
    void readsGaugesAndCallbackCountersWhenScraped() {
        PrometheusTelemetry t = PrometheusTelemetry.create();
        AtomicInteger depth = new AtomicInteger(4);
        t.gauge("cadastro_queue_depth", "depth", List.of("queue"), s -> s.add(depth.get(), "mailing"));
        t.counter("cadastro_provider_calls", "calls", List.of("provider", "outcome"), s -> s.add(7, "bureau", "ok"));
        assertTrue(text(t).contains("cadastro_queue_depth{queue=\"mailing\"} 4.0"));
        depth.set(9);
        String s = text(t);
        assertTrue(s.contains("cadastro_queue_depth{queue=\"mailing\"} 9.0"), s);
        assertTrue(s.contains("cadastro_provider_calls_total{outcome=\"ok\",provider=\"bureau\"} 7.0"), s);
    }

    @Test
    void twoTelemetriesKeepTheirOwnRegistries() {
        PrometheusTelemetry a = PrometheusTelemetry.create();
        PrometheusTelemetry b = PrometheusTelemetry.create();
        a.ledgerEntryWritten("CHARGE");
        assertTrue(text(a).contains("cadastro_ledger_entries_total{type=\"CHARGE\"} 1.0"));
        assertFalse(text(b).contains("type=\"CHARGE\""), text(b));
    }
}
