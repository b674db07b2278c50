package dev.cadastro.server;

import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.providers.FaultPlan;
import dev.cadastro.providers.ProviderPolicy;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A company-data listener of its own over the fixture's register and PostgreSQL, with a clock, fault
 * plans and guards of its own, so that tests can move the day, break the providers and open circuits
 * without touching the shared server. The guards time out after {@value #TIMEOUT_MILLIS} ms.
 */
final class BureauStack implements AutoCloseable {
    static final long TIMEOUT_MILLIS = 200;

    final ServerFixture f;
    final ManualClock clock = new ManualClock(ServerFixture.START);
    final FaultPlan bureauFaults = FaultPlan.none();
    final FaultPlan creditFaults = FaultPlan.none();
    final TestRuntime.Listener http;

    private BureauStack(ServerFixture f, ProviderPolicy policy) {
        this.f = f;
        ProviderOptions.Providers providers = ProviderOptions.simulated()
                .withFaults(bureauFaults, creditFaults)
                .withPolicy(policy)
                .build(f.server.register());
        http = f.listen(CompanyDataRoutes.router(
                f.server.register(),
                f.server.store(),
                f.server.store().admission(100_000, clock),
                clock,
                f.server.mailing(),
                providers));
    }

    /** Guards whose circuit never opens in a test's few calls: failures stay failures of their own kind. */
    static BureauStack steady(ServerFixture f) {
        return new BureauStack(
                f,
                ProviderPolicy.defaults().toBuilder()
                        .timeout(Duration.ofMillis(TIMEOUT_MILLIS))
                        .slidingWindowSize(10_000)
                        .minimumCalls(10_000)
                        .build());
    }

    /** Guards whose circuit opens after two failures in a row and probes again after {@code wait}. */
    static BureauStack tripping(ServerFixture f, Duration wait) {
        return new BureauStack(
                f,
                ProviderPolicy.defaults().toBuilder()
                        .timeout(Duration.ofMillis(TIMEOUT_MILLIS))
                        .slidingWindowSize(2)
                        .minimumCalls(2)
                        .failureRateThreshold(100)
                        .waitInOpenState(wait)
                        .permittedCallsInHalfOpen(1)
                        .build());
    }

    int port() {
        return http.port();
    }

    HttpResponse<String> enrich(String cnpj, String... headers) {
        return send("GET", "/v1/enriquecimento/" + cnpj, null, headers);
    }

    HttpResponse<String> consult(String body, String... headers) {
        return send("POST", "/v1/credito/consultar", body, headers);
    }

    /** The JSON body of a credit report on this document. */
    static String body(String documento) {
        return "{\"documento\": \"" + documento + "\"}";
    }

    HttpResponse<String> send(String method, String pathAndQuery, String body, String... headers) {
        return send(http.port(), method, pathAndQuery, body, headers);
    }

    HttpResponse<String> send(int port, String method, String pathAndQuery, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return f.send(b.build());
    }

    @Override
    public void close() {
        http.close();
    }
}
