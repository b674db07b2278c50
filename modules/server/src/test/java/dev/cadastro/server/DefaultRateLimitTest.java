package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.EnumSet;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract's 120 requests per minute per key (docs/rules.md) as the server applies it when no
 * limit is configured: a server started with {@code requestsPerMinute} empty, exactly as {@code serve}
 * starts it without {@code --requests-per-minute}, on its own embedded PostgreSQL and a clock the test
 * holds still, so all requests fall in one minute window.
 */
class DefaultRateLimitTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Written from the contract, not read from the production constant. */
    private static final int SPEC_PER_MINUTE = 120;

    private static ServerFixture f;
    private static ManualClock clock;
    private static CadastroServer server;

    @BeforeAll
    static void start() throws IOException {
        f = ServerFixture.get();
        clock = new ManualClock(ServerFixture.START);
        Path dir = Files.createTempDirectory(Path.of("target"), "default-limit-");
        Database database = Database.builder()
                .embedded(dir.resolve("db"))
                .durableCommits(false)
                .build();
        server = CadastroServer.start(EngineConfig.builder(f.index, database)
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.empty())
                .clock(clock)
                .build());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static HttpResponse<String> count(String key) {
        return f.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/v1/empresas?ufs=SP&apenas_total=true"))
                .header("Authorization", "Bearer " + key)
                .timeout(Duration.ofSeconds(20))
                .build());
    }

    @Test
    void aKeyGets120RequestsAMinuteThenLimiteMinutoUntilTheNextMinute() throws IOException {
        Account account = server.store().accounts().create("default limit", new Plan("sem limite diario", 1_000_000));
        String key = new ApiKeyIssuer(server.store().accounts(), server.store().apiKeys(), clock, new SecureRandom())
                .issue(account.id(), "default", EnumSet.of(Scope.EMPRESAS_READ))
                .secret();
        for (int i = 1; i <= SPEC_PER_MINUTE; i++) {
            HttpResponse<String> ok = count(key);
            assertEquals(200, ok.statusCode(), "request " + i + ": " + ok.body());
            assertEquals(
                    String.valueOf(SPEC_PER_MINUTE),
                    ok.headers().firstValue("X-RateLimit-Limit").orElseThrow());
            assertEquals(
                    String.valueOf(SPEC_PER_MINUTE - i),
                    ok.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
        }
        HttpResponse<String> limited = count(key);
        assertEquals(429, limited.statusCode(), limited.body());
        assertEquals(
                "LIMITE_MINUTO",
                JSON.readTree(limited.body()).path("erro").path("code").asText());

        clock.advance(Duration.ofMinutes(1));
        HttpResponse<String> nextMinute = count(key);
        assertEquals(200, nextMinute.statusCode(), nextMinute.body());
        assertEquals(
                String.valueOf(SPEC_PER_MINUTE - 1),
                nextMinute.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
    }
}
