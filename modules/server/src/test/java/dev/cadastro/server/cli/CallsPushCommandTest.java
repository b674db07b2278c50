package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code ./cadastro admin calls-push ...} in-process against a real embedded PostgreSQL. */
class CallsPushCommandTest {
    private static EmbeddedDatabase server;
    private static String url;

    @BeforeAll
    static void startDatabase() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "push-cli-pg-"), false);
        url = server.jdbcUrl();
        try (Store s = Store.open(Database.url(url), Clock.systemUTC())) {
            // migrated
        }
        sql("INSERT INTO call_integrations (name, created_at) VALUES ('crm', now()), ('outro', now())");
    }

    @AfterAll
    static void stopDatabase() {
        server.close();
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private record Run(int status, String out, String err) {}

    private static Run push(String... args) {
        List<String> all = new ArrayList<>(List.of("admin", "--database", url, "calls-push"));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        all,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void setRefusesPlainHttpAndLoopbackUnlessAllowedAndPrintsAGeneratedSecretOnceThenShowMasksIt() {
        Run http = push(
                "set",
                "--integration",
                "crm",
                "--url",
                "http://127.0.0.1:9/h",
                "--header",
                "Authorization:Bearer tok-123456789");
        assertEquals(3, http.status(), http.toString());
        assertTrue(http.err().contains("--allow-http"), http.err());
        Run loopback = push(
                "set",
                "--integration",
                "crm",
                "--url",
                "http://127.0.0.1:9/h",
                "--header",
                "Authorization:Bearer tok-123456789",
                "--allow-http");
        assertEquals(3, loopback.status(), loopback.toString());
        assertTrue(loopback.err().contains("loopback"), loopback.err());
        Run privateAddress = push(
                "set",
                "--integration",
                "crm",
                "--url",
                "https://10.0.0.7/h",
                "--header",
                "Authorization:Bearer tok-123456789");
        assertEquals(3, privateAddress.status(), privateAddress.toString());
        assertTrue(privateAddress.err().contains("private"), privateAddress.err());
        Run injected = push(
                "set", "--integration", "crm", "--url", "https://10.0.0.7/h", "--header", "X Bad:v", "--allow-private");
        assertEquals(2, injected.status(), injected.toString());

        Run set = push(
                "set",
                "--integration",
                "crm",
                "--url",
                "http://127.0.0.1:9/h",
                "--header",
                "Authorization:Bearer tok-123456789",
                "--resend-reclassified",
                "no",
                "--generate-secret",
                "--allow-http",
                "--allow-private");
        assertEquals(0, set.status(), set.toString());
        Matcher m = Pattern.compile("(whsec_[A-Za-z0-9+/=]+)").matcher(set.out());
        assertTrue(m.find(), set.out());
        String secret = m.group(1);
        assertEquals(32, dev.cadastro.core.calls.push.WebhookSignature.key(secret).length);

        Run show = push("show", "--integration", "crm");
        assertEquals(0, show.status(), show.toString());
        assertFalse(show.out().contains(secret.substring(10)), show.out());
        assertFalse(show.out().contains("tok-123456789"), show.out());
        assertTrue(show.out().contains("Authorization: Bear"), show.out());
        assertTrue(show.out().contains("resend reclassified:  no"), show.out());
        assertTrue(show.out().contains("enabled"), show.out());

        assertEquals(0, push("pause", "--integration", "crm").status());
        assertTrue(push("show", "--integration", "crm").out().contains("paused"));
        assertEquals(0, push("resume", "--integration", "crm").status());
        try (Store s = Store.open(Database.url(url), Clock.systemUTC())) {
            PushDestination d = s.pushDestinations()
                    .get(s.pushDestinations().integration("crm").orElseThrow().id())
                    .orElseThrow();
            assertEquals(secret, d.signingSecret());
            assertFalse(d.resendReclassified());
            assertTrue(d.enabled());
        }
    }

    private static PushDestination destination(String integration) {
        try (Store s = Store.open(Database.url(url), Clock.systemUTC())) {
            return s.pushDestinations()
                    .get(s.pushDestinations()
                            .integration(integration)
                            .orElseThrow()
                            .id())
                    .orElseThrow();
        }
    }

    private static Run pushWithStdin(String stdin, String... args) {
        InputStream before = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            return push(args);
        } finally {
            System.setIn(before);
        }
    }

    @Test
    void setKeepsAPausedDestinationPausedAndItsSecretUnlessAFlagSaysOtherwiseAndSaysWhatChanged() throws Exception {
        sql("INSERT INTO call_integrations (name, created_at) VALUES ('kept', now()) ON CONFLICT DO NOTHING");
        String[] base = {
            "set", "--integration", "kept", "--url", "https://8.8.8.8/h", "--header", "X-Api-Key:abcdefghijkl"
        };
        Run created = push(concat(base, "--generate-secret"));
        assertEquals(0, created.status(), created.toString());
        assertTrue(created.out().contains("created"), created.out());
        String secret = destination("kept").signingSecret();
        assertEquals(0, push("pause", "--integration", "kept").status());

        Run again = push(
                "set", "--integration", "kept", "--url", "https://8.8.4.4/h", "--header", "X-Api-Key:abcdefghijkl");
        assertEquals(0, again.status(), again.toString());
        assertTrue(again.out().contains("changed: url"), again.out());
        assertFalse(again.out().contains("secret"), again.out());
        assertFalse(destination("kept").enabled(), "still paused");
        assertEquals(secret, destination("kept").signingSecret(), "the secret kept");

        Run unsigned = push(concat(base, "--no-secret", "--enabled", "yes"));
        assertEquals(0, unsigned.status(), unsigned.toString());
        assertTrue(unsigned.out().contains("secret removed") && unsigned.out().contains("enabled"), unsigned.out());
        assertEquals(null, destination("kept").signingSecret());
        assertTrue(destination("kept").enabled());
        assertEquals(2, push(concat(base, "--no-secret", "--generate-secret")).status());
    }

    @Test
    void setReadsTheHeaderValueOrTheSecretFromStdinOrTheEnvironment() throws Exception {
        sql("INSERT INTO call_integrations (name, created_at) VALUES ('piped', now()) ON CONFLICT DO NOTHING");
        String secret = PushDestination.newSecret(new java.util.SplittableRandom(5));
        Run fromStdin = pushWithStdin(
                "Bearer from-stdin-123\n",
                "set",
                "--integration",
                "piped",
                "--url",
                "https://8.8.8.8/h",
                "--header",
                "Authorization",
                "--header-value-stdin");
        assertEquals(0, fromStdin.status(), fromStdin.toString());
        assertFalse(fromStdin.out().contains("from-stdin-123"), fromStdin.out());
        assertEquals("Bearer from-stdin-123", destination("piped").headerValue());

        Run secretFromStdin = pushWithStdin(
                secret + "\n",
                "set",
                "--integration",
                "piped",
                "--url",
                "https://8.8.8.8/h",
                "--header",
                "Authorization:Bearer x-1234",
                "--secret-stdin");
        assertEquals(0, secretFromStdin.status(), secretFromStdin.toString());
        assertTrue(secretFromStdin.out().contains("secret added"), secretFromStdin.out());
        assertEquals(secret, destination("piped").signingSecret());

        Run missing = push(
                "set",
                "--integration",
                "piped",
                "--url",
                "https://8.8.8.8/h",
                "--header",
                "Authorization",
                "--header-value-env",
                "CADASTRO_TEST_NOT_SET_4711");
        assertEquals(2, missing.status(), missing.toString());
        assertTrue(missing.err().contains("CADASTRO_TEST_NOT_SET_4711"), missing.err());
        Run both = push(
                "set",
                "--integration",
                "piped",
                "--url",
                "https://8.8.8.8/h",
                "--header",
                "Authorization:v",
                "--header-value-env",
                "PATH");
        assertEquals(2, both.status(), both.toString());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void replayTakesAFalhouDeliveryBackAndRefusesOthersAndUnknownIntegrationsFail() throws Exception {
        assertEquals(
                0,
                push(
                                "set",
                                "--integration",
                                "outro",
                                "--url",
                                "https://8.8.4.4/h",
                                "--header",
                                "X-Api-Key:abcdefghijkl")
                        .status());
        long integration;
        try (Store s = Store.open(Database.url(url), Clock.systemUTC())) {
            integration =
                    s.pushDestinations().integration("outro").orElseThrow().id();
        }
        sql("INSERT INTO calls (integration_id, id, occurrence_id, agent_login, queue, result_description,"
                + " classified_at, started_at, duration_seconds, archived_at, recording_key, ingested_at, updated_at,"
                + " available_at) VALUES (" + integration
                + ", 'R-1', 'R-1', 'ana', 'vendas', 'Venda', now(), now(), 10,"
                + " now(), 'k', now(), now(), date_trunc('second', now()))");
        sql("INSERT INTO call_deliveries (integration_id, call_id, webhook_id, reason, state, attempts,"
                + " next_attempt_at, created_at, ready_at, last_status, last_error) VALUES"
                + " (" + integration
                + ", 'R-1', 'msg_r1', 'pronta', 'falhou', 7, now(), now(), now(), 500, 'HTTP 500'),"
                + " (" + integration
                + ", 'R-1', 'msg_r2', 'reclassificada', 'entregue', 1, now(), now(), now(), 200, NULL)");
        Run failed = push("deliveries", "--integration", "outro", "--state", "falhou");
        assertEquals(0, failed.status(), failed.toString());
        assertTrue(
                failed.out().contains("R-1")
                        && failed.out().contains("falhou")
                        && failed.out().contains("HTTP 500"),
                failed.out());
        assertFalse(failed.out().contains("entregue"), failed.out());
        String id = failed.out().lines().skip(1).findFirst().orElseThrow().split(" +")[0];

        Run delivered = push("deliveries", "--integration", "outro", "--state", "entregue");
        String deliveredId =
                delivered.out().lines().skip(1).findFirst().orElseThrow().split(" +")[0];
        Run notFailed = push("replay", "--integration", "outro", "--delivery", deliveredId);
        assertEquals(3, notFailed.status(), notFailed.toString());
        assertTrue(notFailed.err().contains("not falhou"), notFailed.err());
        Run otherIntegration = push("replay", "--integration", "crm", "--delivery", id);
        assertEquals(3, otherIntegration.status(), otherIntegration.toString());

        Run replay = push("replay", "--integration", "outro", "--delivery", id);
        assertEquals(0, replay.status(), replay.toString());
        assertTrue(replay.out().contains("msg_r1"), replay.out());
        Run pending = push("deliveries", "--integration", "outro", "--state", "pendente");
        assertTrue(pending.out().contains("pendente"), pending.out());
        assertEquals(0, push("replay", "--integration", "outro", "--failed").status());

        Run unknown = push("show", "--integration", "ninguem");
        assertEquals(3, unknown.status(), unknown.toString());
        assertTrue(unknown.err().contains("does not exist"), unknown.err());
    }
}
