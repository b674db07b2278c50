package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.api.io.TempDir;

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

    /** ISO 8601 to the second with the Sao Paulo offset, as the API writes company-data times. */
    private static final String ONE_TIME_FORMAT = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}-03:00";

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
        assertTrue(
                Pattern.compile(prefix + " +" + ONE_TIME_FORMAT + " ")
                        .matcher(keys.out())
                        .find(),
                "created in the one time format: " + keys.out());

        try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
            Principal p = new Authenticator(store.apiKeys()).authenticate(secret);
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
                    CadastroException.class, () -> new Authenticator(store.apiKeys()).authenticate(secret));
            assertEquals(ErrorCode.CHAVE_REVOGADA, revoked.code());
        }

        Run statement = admin("statement", "--account", account);
        assertTrue(statement.out().contains("TOP_UP") && statement.out().contains("balance 500"), statement.out());
        assertTrue(
                Pattern.compile("\\n[0-9]+ +" + ONE_TIME_FORMAT + " +TOP_UP")
                        .matcher(statement.out())
                        .find(),
                "each entry's time in the one format: " + statement.out());
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
        Run badNumber = admin("statement", "--account", "1", "--limit", "1e3");
        assertEquals(2, badNumber.status());
        assertTrue(badNumber.err().contains("'1e3' is not a whole number"), badNumber.err());
        Run zero = admin("show-account", "--account", "0");
        assertEquals(2, zero.status());
        assertTrue(zero.err().contains("--account 0 must be a positive account number"), zero.err());
    }

    @Test
    void anEmbeddedDatabaseIsCreatedOnlyWhenAskedAndThenKeepsItsData() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "admin-embedded-");
        CliRuns.Run refused =
                CliRuns.inProcess("admin", "--embedded-db", dir.toString(), "create-account", "--name", "Embutida");
        assertEquals(3, refused.status(), refused.err());
        assertTrue(refused.err().contains("no database in " + dir.toAbsolutePath()), refused.err());
        assertEquals(1, refused.err().lines().count(), refused.err());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "nothing is created in a folder without a database");
        }

        CliRuns.Run created = CliRuns.inProcess(
                "admin", "--embedded-db", dir.toString(), "--create-db", "create-account", "--name", "Embutida");
        assertEquals(0, created.status(), created.err());
        CliRuns.Run listed = CliRuns.inProcess("admin", "list-accounts", "--embedded-db", dir.toString());
        assertEquals(0, listed.status(), listed.err());
        assertTrue(listed.out().contains("Embutida"), listed.out());
        assertFalse(Files.exists(dir.resolve(EmbeddedDatabase.ADDRESS_FILE)), "a stopped database leaves no address");
    }

    @Test
    void aHomeOrFolderWithoutADatabaseIsAFailureThatCreatesNothing(@TempDir Path home) throws Exception {
        for (List<String> where : List.of(
                List.of("--home", home.toString()),
                List.of("--embedded-db", home.resolve("db").toString()),
                List.of("--home", home.resolve("missing").toString()))) {
            List<String> args = new ArrayList<>(List.of("admin", "list-accounts"));
            args.addAll(where);
            CliRuns.Run run = CliRuns.inProcess(args);
            assertEquals(3, run.status(), () -> where + ": " + run.err());
            assertTrue(run.err().contains("no database in "), run.err());
            assertTrue(run.err().contains("--create-db"), run.err());
        }
        try (var files = Files.list(home)) {
            assertEquals(List.of(), files.toList());
        }
    }

    /** Every admin subcommand that names an account, with the other flags it requires. */
    static List<List<String>> onAccount(String account) {
        return List.of(
                List.of("show-account", "--account", account),
                List.of("set-plan", "--account", account, "--plan", "pro", "--daily-limit", "5"),
                List.of("top-up", "--account", account, "--credits", "5", "--reference", "r"),
                List.of("create-key", "--account", account, "--scopes", "all"),
                List.of("list-keys", "--account", account),
                List.of("approve-accreditation", "--account", account),
                List.of("contract-purpose", "--account", account, "--purpose", "KYC_CADASTRO", "--fields", "nome"),
                List.of("remove-purpose", "--account", account, "--purpose", "KYC_CADASTRO"),
                List.of("disable-api", "--account", account),
                List.of("enable-api", "--account", account),
                List.of("statement", "--account", account),
                List.of("jobs", "--account", account),
                List.of("set-justification", "--account", account, "--text", "Politica de KYC da empresa"),
                List.of("set-batch-limit", "--account", account, "--limit", "10"),
                List.of("set-company-batch-limit", "--account", account, "--limit", "10"),
                List.of("audit", "--account", account, "--from", "2026-01-01"));
    }

    @Test
    void anUnknownAccountOrKeyIsTheSameFailureInEverySubcommand() {
        List<List<String>> lines = new ArrayList<>(onAccount("99999"));
        lines.add(List.of("revoke-key", "--prefix", "zzzzzzzzzzzz"));
        lines.add(List.of("release-person", "--prefix", "zzzzzzzzzzzz"));
        lines.add(List.of("release-person", "--prefix", "zzzzzzzzzzzz", "--withdraw"));
        java.util.Set<String> accountSubcommands = new java.util.HashSet<>();
        for (List<String> line : lines) {
            Run run = admin(line.toArray(String[]::new));
            assertEquals(3, run.status(), () -> line + ": " + run.err());
            assertEquals("", run.out(), () -> line + " printed " + run.out());
            String expected = line.contains("--prefix")
                    ? "no API key has the prefix 'zzzzzzzzzzzz' (./cadastro admin list-keys --account ID lists an account's keys)"
                    : "account 99999 does not exist (./cadastro admin list-accounts lists the accounts)";
            assertEquals(
                    "cadastro admin " + line.get(0) + ": " + expected, run.err().strip(), line::toString);
            if (!line.contains("--prefix")) {
                accountSubcommands.add(line.get(0));
            }
        }
        // The list above covers every subcommand that takes --account, as the model declares them.
        java.util.Set<String> declared = new java.util.HashSet<>();
        Cli.standard()
                .commandLine(new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()))
                .getSubcommands()
                .get("admin")
                .getSubcommands()
                .forEach((name, sub) -> {
                    if (sub.getCommandSpec().findOption("--account") != null) {
                        declared.add(name);
                    }
                });
        assertEquals(declared, accountSubcommands);
    }
}
