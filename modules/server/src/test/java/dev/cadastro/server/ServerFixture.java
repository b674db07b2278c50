package dev.cadastro.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * One real stack per test JVM: a synthetic dump generated and loaded into a real Lucene index, a real
 * embedded PostgreSQL, the server on a free loopback port, and a second listener on the same store
 * whose admission allows only {@value #TIGHT_PER_MINUTE} requests a minute (for the 429 tests).
 *
 * <p>{@link #on(TestRuntime)} gives the same stack seen through another runtime: the server's engine
 * handlers ({@link CadastroEngine#companyData()}) and a tight router mounted on Jetty through the
 * servlet bridge, so a suite parameterized by runtime runs its requests on both.
 */
final class ServerFixture {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int ESTABLISHMENTS = 3_000;
    static final long TIGHT_PER_MINUTE = 3;
    /** 2026-03-10 12:00 in America/Sao_Paulo (UTC-3). */
    static final Instant START = Instant.parse("2026-03-10T15:00:00Z");

    private static ServerFixture instance;
    private static ServerFixture onJetty;

    final ManualClock clock;
    final CadastroServer server;
    final Path index;
    final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ApiKeyIssuer issuer;
    /** The runtime this view's requests go through. */
    final TestRuntime runtime;

    private final int port;
    private final int tightPort;

    /** The JDK stack seen through {@code runtime}'s listeners of its engine's handlers. */
    private ServerFixture(ServerFixture jdk, TestRuntime runtime) throws IOException {
        this.clock = jdk.clock;
        this.server = jdk.server;
        this.index = jdk.index;
        this.issuer = jdk.issuer;
        this.runtime = runtime;
        TestRuntime.Listener api = runtime.listen(server.engine().companyData(), Service.COMPANY_DATA);
        TestRuntime.Listener tight = runtime.listen(tightRouter(server, clock), Service.COMPANY_DATA);
        this.port = api.port();
        this.tightPort = tight.port();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            tight.close();
            api.close();
        }));
    }

    private static dev.cadastro.http.Router tightRouter(CadastroServer server, ManualClock clock) {
        return CompanyDataRoutes.router(
                server.register(),
                server.store(),
                server.store().admission(TIGHT_PER_MINUTE, clock),
                clock,
                server.mailing());
    }

    private ServerFixture() throws IOException {
        clock = new ManualClock(START);
        runtime = TestRuntime.SERVER;
        Path dir = Files.createTempDirectory(Path.of("target"), "e2e-");
        Path dump = dir.resolve("dump");
        index = dir.resolve("index");
        DumpGenerator.generate(
                dump,
                GeneratorOptions.builder(ESTABLISHMENTS).seed(7).threads(2).build(),
                GENERATED::add);
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, dir.resolve("index"), DumpLoader.buildOptionsFor(load, ESTABLISHMENTS));
        Database database = Database.builder()
                .embedded(dir.resolve("db"))
                .durableCommits(false)
                .build();
        server = CadastroServer.start(
                EngineConfig.builder(dir.resolve("index"), database)
                        .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                        .runtime(RuntimeOptions.defaults())
                        .requestsPerMinute(OptionalLong.of(10_000))
                        .clock(clock)
                        .build(),
                // The call-records service on free ports (CallRecordsServerTest).
                CallRecordsOptions.of(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
        JettyRuntime tight = JettyRuntime.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                tightRouter(server, clock),
                Service.COMPANY_DATA,
                RuntimeOptions.defaults());
        port = server.port();
        tightPort = tight.port();
        issuer = new ApiKeyIssuer(server.store().accounts(), server.store().apiKeys(), clock, new SecureRandom());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            tight.close();
            server.close();
        }));
    }

    /** The establishments the generator handed the load, as a correct loader loads them (NameSearchEndToEndTest). */
    private static final java.util.List<dev.cadastro.core.register.Establishment> GENERATED =
            java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    static java.util.List<dev.cadastro.core.register.Establishment> generated() {
        get();
        return java.util.List.copyOf(GENERATED);
    }

    static synchronized ServerFixture get() {
        if (instance == null) {
            try {
                instance = new ServerFixture();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** The stack on {@code runtime}: the server itself, or its engine mounted on a plain Jetty host. */
    static synchronized ServerFixture on(TestRuntime runtime) {
        ServerFixture jdk = get();
        if (runtime == TestRuntime.SERVER) {
            return jdk;
        }
        if (onJetty == null) {
            try {
                onJetty = new ServerFixture(jdk, runtime);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return onJetty;
    }

    /** The company-data port of this view. */
    int port() {
        return port;
    }

    /** The port of the listener whose admission allows {@value #TIGHT_PER_MINUTE} requests a minute. */
    int tightPort() {
        return tightPort;
    }

    /** A listener of {@code handler} on this view's runtime (for a router over a broken adapter). */
    TestRuntime.Listener listen(dev.cadastro.http.Handler handler) {
        try {
            return runtime.listen(handler, Service.COMPANY_DATA);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Account account(long credits, long dailyLimit) {
        Account a = server.store().accounts().create("e2e " + UUID.randomUUID(), new Plan("e2e", dailyLimit));
        if (credits > 0) {
            server.store()
                    .ledger()
                    .topUp(a.id(), CreditKind.CREDITS, credits, IdempotencyKey.of("e2e:" + UUID.randomUUID()), "e2e");
        }
        return a;
    }

    String key(Account account, Scope... scopes) {
        Set<Scope> set = scopes.length == 0 ? EnumSet.of(Scope.EMPRESAS_READ) : EnumSet.of(scopes[0], scopes);
        IssuedApiKey issued = issuer.issue(account.id(), "e2e", set);
        return issued.secret();
    }

    long balance(Account account) {
        return server.store().ledger().balance(account.id(), CreditKind.CREDITS).posted();
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    HttpResponse<String> get(String pathAndQuery, String... headers) {
        return get(port, pathAndQuery, headers);
    }

    HttpResponse<String> getTight(String pathAndQuery, String... headers) {
        return get(tightPort, pathAndQuery, headers);
    }

    private HttpResponse<String> get(int port, String pathAndQuery, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(20));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.GET().build());
    }

    /** An answer's body as a JSON tree; a body that is not JSON fails the test, showing it. */
    static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError(r.body(), e);
        }
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
