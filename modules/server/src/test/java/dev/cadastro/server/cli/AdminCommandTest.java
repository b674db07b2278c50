package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Authenticator;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.ledger.CreditKind;
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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code ./cadastro admin} in-process against a real embedded PostgreSQL. */
class AdminCommandTest {
    private static EmbeddedDatabase server;
    private static String url;

    @BeforeAll
    static void startDatabase() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "admin-pg-"), false);
        url = server.jdbcUrl();
    }

    @AfterAll
    static void stopDatabase() {
        server.close();
    }

    private record Run(int status, String out, String err) {}

    private static Run admin(String... args) {
        List<String> all = new ArrayList<>(List.of("admin", "--database", url));
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

    private static String find(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> regex + " not in: " + text);
        return m.group(1);
    }

    @Test
    void operatorSetsUpAnAccountWhoseKeyThenWorksAgainstTheStore() {
        Run created = admin("create-account", "--name", "Padaria Boa Ltda", "--plan", "pro", "--daily-limit", "20000");
        assertEquals(0, created.status(), created.err());
        String account = find("account (\\d+) created", created.out());

        assertEquals(
                0,
                admin("top-up", "--account", account, "--credits", "500", "--reference", "nf-1")
                        .status());
        Run replay = admin("top-up", "--account", account, "--credits", "500", "--reference", "nf-1");
        assertTrue(replay.out().contains("already applied"), replay.out());
        assertEquals(0, admin("top-up", "--account", account, "--sms", "20").status());

        Run key = admin("create-key", "--account", account, "--scopes", "empresas:read,pessoas:read", "--label", "erp");
        assertEquals(0, key.status(), key.err());
        String secret = find("\\n  (cad_\\S+)\\n", key.out());
        String prefix = find("key (\\w{12}) for account", key.out());

        assertEquals(0, admin("approve-accreditation", "--account", account).status());
        assertEquals(0, admin("release-person", "--prefix", prefix).status());
        Run contracted = admin(
                "contract-purpose", "--account", account, "--purpose", "KYC_CADASTRO", "--fields", "nome,situacao_cpf");
        assertTrue(contracted.out().contains("[nome, situacao_cpf]"), contracted.out());

        Run keys = admin("list-keys", "--account", account);
        assertTrue(keys.out().contains(prefix) && !keys.out().contains(secret), keys.out());

        try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
            Principal p = new Authenticator(store.apiKeys()).authenticate("Bearer " + secret, null);
            assertEquals(Set.of("nome", "situacao_cpf"), p.requirePersonLookup(Purpose.KYC_CADASTRO));
            p.requireAccreditation();
            assertEquals(Set.of(Scope.EMPRESAS_READ, Scope.PESSOAS_READ), p.scopes());
            assertEquals(
                    500,
                    store.ledger().balance(p.accountId(), CreditKind.CREDITS).posted());
            assertEquals(
                    20,
                    store.ledger()
                            .balance(p.accountId(), CreditKind.SMS_CREDITS)
                            .posted());

            assertEquals(0, admin("revoke-key", "--prefix", prefix).status());
            CadastroException revoked = org.junit.jupiter.api.Assertions.assertThrows(
                    CadastroException.class, () -> new Authenticator(store.apiKeys()).authenticate(null, secret));
            assertEquals(ErrorCode.CHAVE_REVOGADA, revoked.code());
        }

        Run statement = admin("statement", "--account", account);
        assertTrue(statement.out().contains("TOP_UP") && statement.out().contains("balance 500"), statement.out());
        Run shown = admin("show-account", "--account", account);
        assertTrue(shown.out().contains("APPROVED") && shown.out().contains("KYC_CADASTRO"), shown.out());
    }

    @Test
    void mistakesAreUsageErrorsNamingTheFlag() {
        Run unknownScope = admin("create-key", "--account", "1", "--scopes", "empresas:write");
        assertEquals(2, unknownScope.status());
        assertTrue(unknownScope.err().contains("empresas:write"), unknownScope.err());
        Run missing = admin("top-up", "--account", "1");
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("--credits"), missing.err());
        Run unknownFlag = admin("list-keys", "--account", "1", "--colour", "red");
        assertEquals(2, unknownFlag.status());
        assertTrue(unknownFlag.err().contains("--colour"), unknownFlag.err());
        Run badSub = admin("make-coffee");
        assertEquals(2, badSub.status());
    }

    @Test
    void embeddedFolderDefaultKeepsDataBetweenInvocations() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "admin-embedded-");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        int status = Cli.standard()
                .run(List.of("admin", "--embedded-db", dir.toString(), "create-account", "--name", "Embutida"), ps, ps);
        assertEquals(0, status, out.toString(StandardCharsets.UTF_8));
        out.reset();
        Cli.standard().run(List.of("admin", "--embedded-db", dir.toString(), "list-accounts"), ps, ps);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Embutida"), out.toString(StandardCharsets.UTF_8));
    }
}
