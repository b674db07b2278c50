package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.server.cli.CliRuns;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet harness's small version ({@code benchmarks/fleet/run.sh} is the full one): two real {@code
 * ./cadastro serve} processes on one database and one shared files folder, paid search pages through
 * both from clients that send an {@code Idempotency-Key} and retry a request with it on the other server
 * when a server does not answer, one server killed with SIGKILL under that load, and then the ledger:
 * each account's balance is its opening balance minus exactly the credits its answered requests said
 * they consumed, nothing held, no request left unanswered.
 */
class FleetKillTest {
    private static final Pattern PORT = Pattern.compile("company data\\s+http://[^:/]+:(\\d+)/health/live");
    private static final Pattern CREDITS = Pattern.compile("\"creditos_consumidos\"\\s*:\\s*(\\d+)");
    private static final long OPENING = 1_000_000;
    private static final int ACCOUNTS = 3;
    private static final int CLIENTS = 6;

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    @Test
    void aServerKilledUnderPaidLoadLosesNoChargeAndChargesNoRetryTwice() throws Exception {
        ServerFixture f = ServerFixture.get();
        String server = f.server.store().embedded().orElseThrow().jdbcUrl();
        String name = "fleet_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        String url = server.replace("/postgres?", "/" + name + "?");
        List<Account> accounts = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
            ApiKeyIssuer issuer =
                    new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom());
            for (int i = 0; i < ACCOUNTS; i++) {
                Account a = store.accounts().create("fleet " + i, new Plan("teste", 1_000_000));
                store.accounts().setAccreditation(a.id(), AccreditationStatus.APPROVED);
                store.ledger().topUp(a.id(), CreditKind.CREDITS, OPENING, IdempotencyKey.of("t:" + i), "t");
                accounts.add(a);
                keys.add(issuer.issue(a.id(), "fleet", EnumSet.of(Scope.EMPRESAS_READ))
                        .secret());
            }
        }

        Path files = tmp.resolve("files");
        List<String> flags = List.of(
                "--files",
                files.toString(),
                "--sms-dir",
                tmp.resolve("sms").toString(),
                "--requests-per-minute",
                "1000000",
                "--drain-seconds",
                "0",
                "--access-log",
                "off");
        Process[] children = new Process[2];
        try {
            List<String> bases = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                bases.add("http://127.0.0.1:" + start(children, i, f.index, url, flags));
            }
            Process a = children[0];
            Process b = children[1];

            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong answeredByB = new AtomicLong();
            long[] acknowledged = new long[ACCOUNTS];
            List<Future<long[]>> clients = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int c = 0; c < CLIENTS; c++) {
                    int id = c;
                    clients.add(pool.submit(() -> client(id, bases, keys, running, answeredByB)));
                }
                // Kill B once it has answered paid requests, so some were in flight on it.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (answeredByB.get() < 20 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(answeredByB.get() >= 20, "server B answered no paid request");
                b.destroyForcibly();
                assertTrue(b.waitFor(30, TimeUnit.SECONDS));
                long afterKill = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (System.nanoTime() < afterKill) {
                    Thread.sleep(50);
                }
                running.set(false);
                for (Future<long[]> client : clients) {
                    long[] seen = client.get(60, TimeUnit.SECONDS);
                    for (int i = 0; i < ACCOUNTS; i++) {
                        acknowledged[i] += seen[i];
                    }
                }
            }

            try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
                long total = 0;
                for (int i = 0; i < ACCOUNTS; i++) {
                    var balance = store.ledger().balance(accounts.get(i).id(), CreditKind.CREDITS);
                    assertEquals(
                            OPENING - acknowledged[i],
                            balance.posted(),
                            "account " + i + ": opening minus the credits its answers acknowledged");
                    assertEquals(0, balance.held());
                    total += acknowledged[i];
                }
                assertTrue(total > 0, "some credits were charged");
            }
        } finally {
            for (Process p : children) {
                if (p != null) {
                    p.destroyForcibly();
                    p.waitFor(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    /**
     * Starts child {@code i} and returns its port; a child that exits before it listens (a server refuses
     * to start while the database does not answer, which a loaded machine can make happen) is started
     * again, as its supervisor would.
     */
    private int start(Process[] children, int i, Path index, String url, List<String> flags) throws Exception {
        for (int attempt = 1; ; attempt++) {
            Path log = tmp.resolve("server-" + i + "-" + attempt + ".log");
            children[i] = CliRuns.startServe("384m", index, url, log, flags);
            try {
                return awaitReady(children[i], log);
            } catch (AssertionError e) {
                children[i].destroyForcibly();
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /** A careful client: each page with its own key, retried with it (on the other server) until answered. */
    private long[] client(int id, List<String> bases, List<String> keys, AtomicBoolean running, AtomicLong answeredByB)
            throws Exception {
        long[] seen = new long[ACCOUNTS];
        int n = 0;
        while (running.get()) {
            int account = (id + n) % ACCOUNTS;
            String idem = "fleet-" + UUID.randomUUID();
            String path = "/v1/empresas?situacao_cadastral=02&limite=5&pagina=" + (1 + n % 3);
            int server = n % 2;
            n++;
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                HttpRequest request = HttpRequest.newBuilder(URI.create(bases.get(server) + path))
                        .timeout(Duration.ofSeconds(5))
                        .header("Authorization", "Bearer " + keys.get(account))
                        .header("Idempotency-Key", idem)
                        .build();
                HttpResponse<String> r = null;
                try {
                    r = http.send(request, HttpResponse.BodyHandlers.ofString());
                } catch (IOException e) {
                    // no answer: the other server, same key
                }
                if (r != null && r.statusCode() < 500) {
                    assertEquals(200, r.statusCode(), r.body());
                    Matcher m = CREDITS.matcher(r.body());
                    assertTrue(m.find(), r.body());
                    seen[account] += Long.parseLong(m.group(1));
                    if (server == 1) {
                        answeredByB.incrementAndGet();
                    }
                    break;
                }
                if (System.nanoTime() > giveUp) {
                    fail("a page stayed unanswered for 30 s: " + (r == null ? "no answer" : r.body()));
                }
                server = 1 - server;
                Thread.sleep(r == null ? 50 : 200);
            }
        }
        return seen;
    }

    private static int awaitReady(Process child, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                fail("the server stopped: " + CliRuns.logOf(log));
            }
            Matcher m = PORT.matcher(CliRuns.logOf(log));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            Thread.sleep(50);
        }
        fail("the server did not start within 60 s: " + CliRuns.logOf(log));
        return -1;
    }
}
