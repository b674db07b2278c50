package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.server.cli.CliRuns;
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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admissions share commits ({@code --admission-group-commit}), and a request is answered only after its batch committed:
 * a real {@code ./cadastro serve} process admitting requests from many parallel clients is killed with
 * SIGKILL ({@code destroyForcibly}) mid-load, and the account's counter in the database holds at least
 * every request a client got an answer for, and at most those plus the ones still in flight (nothing
 * counted twice by a batch's fallback).
 */
class AdmissionKillTest {
    private static final int CLIENTS = 16;
    private static final Pattern PORT = Pattern.compile("serving the company-data API on http://127.0.0.1:(\\d+)/");

    @TempDir
    Path tmp;

    @Test
    void everyAnsweredRequestIsCountedWhenTheServerIsKilledMidBatch() throws Exception {
        Path dump = tmp.resolve("dump");
        Path index = tmp.resolve("index");
        DumpGenerator.generate(
                dump, GeneratorOptions.builder(200).seed(3).threads(1).build());
        LoadOptions load = LoadOptions.builder(dump).build();
        DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, 200));

        PushFixture db = PushFixture.fresh();
        Account account;
        String key;
        try (Store store = db.open(Clock.systemUTC())) {
            account = store.accounts().create("kill", new Plan("p", 10_000_000));
            key = new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom())
                    .issue(account.id(), "kill", EnumSet.of(Scope.EMPRESAS_READ))
                    .secret();
        }

        Process child = startServe(index, db.url);
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger sent = new AtomicInteger();
        List<Thread> clients = new ArrayList<>();
        try {
            int port = awaitPort(child);
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            HttpRequest count = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/v1/empresas?ufs=SP&apenas_total=true"))
                    .header("X-Api-Key", key)
                    .timeout(Duration.ofSeconds(20))
                    .build();
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(Thread.ofVirtual().start(() -> {
                    while (true) {
                        sent.incrementAndGet();
                        try {
                            HttpResponse<Void> r = http.send(count, HttpResponse.BodyHandlers.discarding());
                            if (r.statusCode() != 200) {
                                return;
                            }
                            answered.incrementAndGet();
                        } catch (IOException | InterruptedException e) {
                            return; // the server is gone
                        }
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (answered.get() < 600 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(answered.get() >= 600, () -> "the child answered " + answered + " requests: " + log());
        } finally {
            child.destroyForcibly();
        }
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        for (Thread t : clients) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        long counted = counted(db.url, account);
        int got = answered.get();
        assertTrue(counted >= got, () -> "answered " + got + " requests but only " + counted + " were counted");
        assertTrue(
                counted <= got + CLIENTS,
                () -> "counted " + counted + " for " + got + " answered and at most " + CLIENTS + " in flight");
    }

    private static long counted(String url, Account account) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps =
                        c.prepareStatement("SELECT coalesce(sum(requests), 0) FROM rate_day WHERE account_id = ?")) {
            ps.setLong(1, account.id().value());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private int awaitPort(Process child) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            Matcher m = PORT.matcher(log());
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            assertTrue(child.isAlive(), () -> "the child exited: " + log());
            Thread.sleep(50);
        }
        throw new AssertionError("the child never listened: " + log());
    }

    private Process startServe(Path index, String url) throws IOException {
        return CliRuns.startServe(
                "256m",
                index,
                url,
                tmp.resolve("serve.log"),
                List.of(
                        "--files",
                        tmp.resolve("files").toString(),
                        "--sms-dir",
                        tmp.resolve("sms").toString(),
                        "--requests-per-minute",
                        "1000000",
                        "--admission-group-commit"));
    }

    private String log() {
        return CliRuns.logOf(tmp.resolve("serve.log"));
    }
}
