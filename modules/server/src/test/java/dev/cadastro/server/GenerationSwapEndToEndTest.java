package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.jetty.RuntimeOptions;
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
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A register generation swapped in while an answer is being made, or between an answer and its
 * idempotent replay: {@code X-Dados-Referencia} names the month of the generation that produced the
 * records (or of the first answer), never the one current when the answer is written. A server of its
 * own (the swaps must not reach the shared fixture), on the fixture's database, over a copy of its index;
 * a swap is a real new generation (the same records, another month) pointed to and refreshed.
 */
class GenerationSwapEndToEndTest {
    private static final String HEADER = "X-Dados-Referencia";
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Path root;
    private static CadastroServer server;
    private static String jdbcUrl;
    private static List<String> cnpjs;

    @BeforeAll
    static void start() throws IOException {
        ServerFixture f = ServerFixture.get();
        root = Files.createTempDirectory(Path.of("target"), "swap-");
        String current = Files.readString(f.index.resolve("CURRENT")).strip();
        copy(f.index.resolve(current), root.resolve(current), null, 0);
        Files.writeString(root.resolve("CURRENT"), current + "\n");
        jdbcUrl = f.server.store().embedded().orElseThrow().jdbcUrl();
        server = CadastroServer.start(EngineConfig.builder(
                        root,
                        Database.builder()
                                .url(jdbcUrl)
                                // A charge waits on the test's row lock while the generation is swapped.
                                .networkTimeout(Duration.ofSeconds(60))
                                .build())
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(1_000_000))
                .clock(Clock.systemUTC())
                .files(root.resolveSibling(root.getFileName() + "-files"))
                .mailing(MailingOptions.defaults())
                .build());
        cnpjs = server
                .register()
                .search(SearchParameters.parse(Map.of("situacao_cadastral", List.of("02"), "limite", List.of("5"))))
                .dados()
                .stream()
                .map(Empresa::cnpj)
                .toList();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Copies a generation folder, hard-linking its index files; the metadata gets {@code generation} and {@code month}. */
    private static void copy(Path from, Path to, String month, long generation) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (month != null && p.getFileName().toString().equals("generation.properties")) {
                    StringBuilder meta = new StringBuilder();
                    for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                        if (line.startsWith("generation=")) {
                            line = "generation=" + generation;
                        } else if (line.startsWith("referenceMonth=")) {
                            line = "referenceMonth=" + month;
                        }
                        meta.append(line).append('\n');
                    }
                    Files.writeString(target, meta);
                } else {
                    Files.createLink(target, p);
                }
            }
        }
    }

    /** Publishes the records being served again as a new generation of {@code month}, and swaps it in. */
    /**
     * Sends {@code request} while the test holds the account's balance row, waits until its charge waits on
     * that row (the register was read), swaps in a generation of {@code month}, then lets the charge go.
     */
    private HttpResponse<String> answeredAcrossASwap(Account account, HttpRequest request, String month)
            throws Exception {
        CompletableFuture<HttpResponse<String>> answer;
        try (Connection lock = DriverManager.getConnection(jdbcUrl);
                Connection watch = DriverManager.getConnection(jdbcUrl)) {
            lock.setAutoCommit(false);
            try (PreparedStatement ps =
                    lock.prepareStatement("SELECT posted FROM balances WHERE account_id = ? FOR UPDATE")) {
                ps.setLong(1, account.id().value());
                ps.executeQuery().close();
            }
            answer = CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString());
            Await.until(
                    "the request's charge waits on the balance row",
                    () -> aChargeWaitsOnTheLock(watch),
                    Duration.ofSeconds(30));
            swapTo(month);
            lock.rollback();
        }
        return answer.get();
    }

    private static void swapTo(String month) {
        try {
            String current = Files.readString(root.resolve("CURRENT")).strip();
            long next = Long.parseLong(current.substring("gen-".length())) + 1;
            copy(root.resolve(current), root.resolve("gen-" + next), month, next);
            Path pointer = root.resolve("CURRENT.tmp");
            Files.writeString(pointer, "gen-" + next + "\n");
            Files.move(pointer, root.resolve("CURRENT"), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertTrue(server.register().refresh(), "generation of " + month + " swapped in");
        assertEquals(month, server.register().reference().orElseThrow().wire());
    }

    private static Account account() {
        Account a = server.store().accounts().create("swap " + UUID.randomUUID(), new Plan("e2e", 1_000_000));
        server.store()
                .ledger()
                .topUp(a.id(), CreditKind.CREDITS, 1_000_000, IdempotencyKey.of("e2e:" + UUID.randomUUID()), "e2e");
        server.store().accounts().setAccreditation(a.id(), AccreditationStatus.APPROVED);
        return a;
    }

    private static String key(Account a, Scope scope) {
        return new ApiKeyIssuer(
                        server.store().accounts(), server.store().apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(a.id(), "e2e", EnumSet.of(scope))
                .secret();
    }

    private static HttpRequest.Builder request(String path, String key) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(90))
                .header("Authorization", "Bearer " + key);
    }

    private static HttpResponse<String> send(HttpRequest r) {
        try {
            return CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean aChargeWaitsOnTheLock(Connection c) {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a"
                        + " ON a.pid = l.pid WHERE NOT l.granted"
                        + " AND (a.query LIKE '%ledger_charge_in_order%' OR a.query LIKE '%UPDATE balances%')");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1) > 0;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBatchNamesTheMonthOfTheGenerationItsRecordsWereReadFromThoughAnotherIsSwappedInBeforeItAnswers()
            throws Exception {
        String before = server.register().reference().orElseThrow().wire();
        Account account = account();
        String key = key(account, Scope.EMPRESAS_READ);
        String body = "{\"cnpjs\": [\"" + String.join("\", \"", cnpjs) + "\"]}";
        // The batch reads its records, then waits to charge them while another generation is swapped in.
        HttpResponse<String> r = answeredAcrossASwap(
                account,
                request("/v1/empresas/lote", key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                "2031-01");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(cnpjs.size(), json(r).path("creditos_consumidos").asLong(), r.body());
        assertEquals(before, r.headers().firstValue(HEADER).orElse("(absent)"), "the month of the records' generation");
        assertNotEquals(before, server.register().reference().orElseThrow().wire());
    }

    @Test
    void anEnrichmentNamesTheMonthOfTheGenerationItsPartnersWereReadFromThoughAnotherIsSwappedInBeforeItAnswers()
            throws Exception {
        String before = server.register().reference().orElseThrow().wire();
        Account account = account();
        String key = key(account, Scope.ENRIQUECIMENTO_READ);
        // The enrichment reads the register, then waits to charge while another generation is swapped in.
        HttpResponse<String> r = answeredAcrossASwap(
                account,
                request("/v1/enriquecimento/" + cnpjs.get(1), key).GET().build(),
                "2033-03");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(
                before,
                r.headers().firstValue(HEADER).orElse("(absent)"),
                "the month of the generation the answer was read from");
        assertNotEquals(before, server.register().reference().orElseThrow().wire());
    }

    @Test
    void aDoneExportsStatusAndFileNameTheMonthItsFileWasReadFromAfterAnotherIsSwappedIn() throws Exception {
        String built = server.register().reference().orElseThrow().wire();
        Account account = account();
        String key = new ApiKeyIssuer(
                        server.store().accounts(), server.store().apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(account.id(), "e2e", EnumSet.of(Scope.MAILING_READ, Scope.MAILING_EXPORT))
                .secret();
        HttpResponse<String> created = send(request("/v1/mailing", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"filtros\": {\"situacao_cadastral\": [\"02\"]}, \"quantidade\": 3}"))
                .build());
        assertEquals(200, created.statusCode(), created.body());
        String job = json(created).path("job_id").asText();
        HttpRequest status = request("/v1/mailing/" + job, key).GET().build();
        Await.until(
                "export " + job + " done",
                () -> json(send(status)).path("status").asText().equals("concluido"),
                Duration.ofSeconds(30));
        swapTo("2034-04");
        HttpResponse<String> done = send(status);
        assertEquals(200, done.statusCode(), done.body());
        assertEquals(built, done.headers().firstValue(HEADER).orElse("(absent)"), "the month the file was read from");
        HttpResponse<String> file =
                send(request("/v1/mailing/" + job + "/arquivo", key).GET().build());
        assertEquals(200, file.statusCode());
        assertEquals(built, file.headers().firstValue(HEADER).orElse("(absent)"), "the file's month");
        HttpResponse<String> estimate = send(request("/v1/mailing/estimativa", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"filtros\": {\"situacao_cadastral\": [\"02\"]}}"))
                .build());
        assertEquals(200, estimate.statusCode(), estimate.body());
        assertEquals("2034-04", estimate.headers().firstValue(HEADER).orElse("(absent)"), "an estimate reads now");
    }

    @Test
    void anEnrichmentReplayedByItsIdempotencyKeyNamesTheMonthOfItsFirstAnswer() {
        String key = key(account(), Scope.ENRIQUECIMENTO_READ);
        HttpRequest enrich = request("/v1/enriquecimento/" + cnpjs.get(0), key)
                .header("Idempotency-Key", "swap-" + UUID.randomUUID())
                .GET()
                .build();
        HttpResponse<String> first = send(enrich);
        assertEquals(200, first.statusCode(), first.body());
        String month = first.headers().firstValue(HEADER).orElseThrow();
        swapTo("2032-02");
        HttpResponse<String> replay = send(enrich);
        assertEquals(200, replay.statusCode(), replay.body());
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse("(absent)"));
        assertEquals(first.body(), replay.body());
        assertEquals(month, replay.headers().firstValue(HEADER).orElse("(absent)"), "the first answer's month");
    }
}
