package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.Integration;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code ./cadastro admin calls-token} in-process against a real embedded PostgreSQL. */
class CallsTokenCommandTest {
    private static final Pattern TOKEN = Pattern.compile("crt_[A-Za-z0-9_-]{43}");
    private static EmbeddedDatabase server;
    private static String url;

    @BeforeAll
    static void startDatabase() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "calls-token-pg-"), false);
        url = server.jdbcUrl();
    }

    @AfterAll
    static void stopDatabase() {
        server.close();
    }

    private record Run(int status, String out, String err) {}

    private static Run admin(String... args) {
        List<String> all = new ArrayList<>(List.of("admin", "--database", url, "calls-token"));
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

    private static String token(Run r) {
        Matcher m = TOKEN.matcher(r.out());
        assertTrue(m.find(), r.out());
        return m.group();
    }

    private static Optional<Integration> authenticate(String token) {
        try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
            return store.callTokens().authenticate(token);
        }
    }

    @Test
    void createPrintsTheTokenOnceWithAWarningAndListNeverShowsIt() {
        Run created = admin("create", "--integration", "crm-acme");
        assertEquals(Cli.DONE, created.status(), created.err());
        String token = token(created);
        assertTrue(created.out().contains("shown this once"), created.out());
        assertEquals("crm-acme", authenticate(token).orElseThrow().name());
        Run list = admin("list", "--integration", "crm-acme");
        assertEquals(Cli.DONE, list.status(), list.err());
        assertFalse(list.out().contains(token), list.out());
        assertTrue(list.out().contains(token.substring(0, 8)) && list.out().contains("active"), list.out());
    }

    @Test
    void rotateRefusesTheOldTokenAtOnceAndRevokeRefusesOne() {
        String old = token(admin("create", "--integration", "crm-rot"));
        Run rotated = admin("rotate", "--integration", "crm-rot");
        assertEquals(Cli.DONE, rotated.status(), rotated.err());
        String fresh = token(rotated);
        assertEquals(Optional.empty(), authenticate(old));
        assertTrue(authenticate(fresh).isPresent());
        Matcher id = Pattern.compile("token (\\d+) issued").matcher(rotated.out());
        assertTrue(id.find(), rotated.out());
        Run revoked = admin("revoke", "--token-id", id.group(1));
        assertEquals(Cli.DONE, revoked.status(), revoked.err());
        assertEquals(Optional.empty(), authenticate(fresh));
        Run again = admin("revoke", "--token-id", id.group(1));
        assertEquals(Cli.FAILURE, again.status());
        assertTrue(again.err().contains("no active token has the id " + id.group(1)), again.err());
    }

    @Test
    void errorsNameTheFieldAndTheRule() {
        Run badName = admin("create", "--integration", "CRM Acme");
        assertEquals(Cli.USAGE, badName.status());
        assertTrue(badName.err().contains("--integration 'CRM Acme' breaks the rule"), badName.err());
        Run unknown = admin("rotate", "--integration", "nobody");
        assertEquals(Cli.FAILURE, unknown.status());
        assertTrue(unknown.err().contains("integration 'nobody' does not exist"), unknown.err());
        Run unknownList = admin("list", "--integration", "nobody");
        assertEquals(Cli.FAILURE, unknownList.status());
        Run badId = admin("revoke", "--token-id", "0");
        assertEquals(Cli.USAGE, badId.status());
        assertTrue(badId.err().contains("--token-id 0 must be at least 1"), badId.err());
    }
}
