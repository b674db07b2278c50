package dev.cadastro.benchmarks.http;

import dev.cadastro.core.error.Service;
import dev.cadastro.http.AccessLog;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Headers;
import dev.cadastro.http.Limits;
import dev.cadastro.http.Observed;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import dev.cadastro.http.Router;
import dev.cadastro.metrics.PrometheusTelemetry;
import dev.cadastro.server.AccessLogLines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What observing a request adds to the handler a runtime calls: {@code Observed.around(router, ...)},
 * the production path of every request on every listener when {@code serve} runs with {@code
 * --metrics-port} and the access log ({@code Observed.handle}: the timing, the route-template label
 * set's histogram data point looked up and observed, then the access line built and written by the
 * launcher's handler, {@code AccessLogLines}, flushed to a file). The router answers a constant at
 * once, so what is measured is the observation alone, per request: read it against a lookup's
 * whole cost on the same machine ({@code HttpLoadBenchmark --observe on|off}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservedBenchmark {
    private Handler bare;
    private Handler metrics;
    private Handler metricsAndLog;
    private Path log;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        byte[] body = "{\"ok\":true}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        bare = Router.builder(Service.COMPANY_DATA)
                .get("/v1/empresas/{cnpj}", r -> {
                    r.facts().account(42);
                    return Response.json(200, body);
                })
                .build();
        PrometheusTelemetry telemetry = PrometheusTelemetry.create();
        metrics = Observed.around(bare, Service.COMPANY_DATA, telemetry, telemetry::requestCompleted, AccessLog.off());
        log = Files.createTempFile("observed-benchmark", ".log");
        AccessLogLines.to(Files.newOutputStream(log));
        metricsAndLog = Observed.around(
                bare, Service.COMPANY_DATA, telemetry, telemetry::requestCompleted, AccessLog.toSystemLogger());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(log);
    }

    private static Request request() {
        return Request.of(
                "GET",
                "/v1/empresas/11222333000181",
                null,
                Headers.empty(),
                null,
                "5f1c09aa-2b",
                null,
                Limits.defaults());
    }

    @Benchmark
    public Response bare() throws Exception {
        return bare.handle(request());
    }

    @Benchmark
    public Response metrics() throws Exception {
        return metrics.handle(request());
    }

    @Benchmark
    public Response metricsAndAccessLog() throws Exception {
        return metricsAndLog.handle(request());
    }
}
