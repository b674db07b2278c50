package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.providers.SmsInbox;
import dev.cadastro.server.CallsSecrets;
import dev.cadastro.server.OtpSecrets;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code ./cadastro admin} subcommand, nested ones included, takes the store flags ({@code --home},
 * {@code --embedded-db}, {@code --database}) before the subcommand and after it, and works on the store
 * or home they name: each run is checked against that store or home. The home's embedded database runs
 * here, so admin reaches it through the address it recorded; the default home ({@code .cadastro}) does
 * not exist, so a subcommand that ignored the flags would fail or read nothing.
 */
class AdminStoreFlagsTest {
    private static final String SEEDED_NAME = "Loja Da Home";
    private static final String PHONE = "11987654321";
    private static final String INBOX_TEXT = "Cadastro: seu codigo de verificacao e 424242.";

    private static Path home;
    private static EmbeddedDatabase database;
    private static Store store;
    private static AccountId seeded;
    private static String seededPrefix;
    private static Integration crm;

    private final Set<String> covered = new TreeSet<>();
    private int runs;

    @BeforeAll
    static void startTheHome() throws Exception {
        home = Files.createTempDirectory(Path.of("target"), "admin-home-");
        database = EmbeddedDatabase.start(home.resolve("db"), false);
        store = Store.open(Database.url(database.jdbcUrl()), Clock.systemUTC());
        seeded =
                store.accounts().create(SEEDED_NAME, new Plan("basico", 10_000)).id();
        seededPrefix = newKey();
        crm = store.callTokens().create("crm").integration();
        SmsInbox.at(home.resolve("sms-inbox.tsv"))
                .deliver(Instant.parse("2026-11-23T15:00:00Z"), Phone.of(PHONE), "sms_home", INBOX_TEXT);
        OtpSecrets.resolve(Map.of(), otpFile(), true, new SecureRandom());
        CallsSecrets.KEYRING.resolve(Map.of(), CallsSecrets.fileUnder(home), true, new SecureRandom());
        assertFalse(Files.exists(Path.of(dev.cadastro.server.cli.admin.StoreOptions.DEFAULT_HOME)));
    }

    @AfterAll
    static void stop() {
        store.close();
        database.close();
    }

    private static Path otpFile() {
        return home.resolve("secrets").resolve("otp-keys.properties");
    }

    private static String newKey() {
        return new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(seeded, "flags", EnumSet.of(Scope.EMPRESAS_READ))
                .key()
                .prefix();
    }

    private static AccountId newAccount() {
        return store.accounts()
                .create("Conta " + UUID.randomUUID(), new Plan("basico", 10_000))
                .id();
    }

    private static Account account(AccountId id) {
        return store.accounts().require(id);
    }

    private record Run(int status, String out, String err) {}

    private static Run cli(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The three ways of naming the one store, taken in turn so each comes before and after a subcommand. */
    private List<String> storeFlags(int turn) {
        return switch (turn % 3) {
            case 0 -> List.of("--home", home.toString());
            case 1 -> List.of("--embedded-db", home.resolve("db").toString());
            default -> List.of("--database", database.jdbcUrl());
        };
    }

    /**
     * Runs {@code admin PATH ARGS} with {@code flags(turn)} right after {@code admin}, after every word of
     * the path (for a nested subcommand, between the group and its subcommand too) and at the end, each
     * time with fresh arguments, and checks each run.
     */
    private void eachPlace(
            String path,
            Function<Integer, List<String>> flags,
            Supplier<List<String>> args,
            BiConsumer<Run, String> check) {
        covered.add(path);
        List<String> words = List.of(path.split(" "));
        for (int place = 0; place <= words.size(); place++) {
            List<String> line = new ArrayList<>(List.of("admin"));
            List<String> given = flags.apply(runs++);
            for (int w = 0; w < words.size(); w++) {
                if (w == place) {
                    line.addAll(given);
                }
                line.add(words.get(w));
            }
            line.addAll(args.get());
            if (place == words.size()) {
                line.addAll(given);
            }
            Run r = cli(line);
            String where = String.join(" ", line);
            assertEquals(0, r.status(), where + " -> " + r.err());
            check.accept(r, where);
        }
    }

    private void eachPlace(String path, Supplier<List<String>> args, BiConsumer<Run, String> check) {
        eachPlace(path, this::storeFlags, args, check);
    }

    private void homeOnly(String path, Supplier<List<String>> args, BiConsumer<Run, String> check) {
        eachPlace(path, turn -> List.of("--home", home.toString()), args, check);
    }

    private static String find(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> regex + " not in: " + text);
        return m.group(1);
    }

    @Test
    void everyAdminSubcommandWorksOnTheStoreItsFlagsNameBeforeOrAfterIt() throws Exception {
        String n = seeded.toString();
        eachPlace("create-account", () -> List.of("--name", "Conta " + UUID.randomUUID()), (r, where) -> {
            long id = Long.parseLong(find("account (\\d+) created", r.out()));
            assertTrue(store.accounts().find(new AccountId(id)).isPresent(), where);
        });
        eachPlace("list-accounts", List::of, (r, where) -> assertTrue(r.out().contains(SEEDED_NAME), where));
        eachPlace(
                "show-account",
                () -> List.of("--account", n),
                (r, where) -> assertTrue(r.out().contains(SEEDED_NAME), where));
        eachPlace(
                "set-plan",
                () -> List.of("--account", n, "--plan", "plano-" + runs, "--daily-limit", Integer.toString(700 + runs)),
                (r, where) -> assertEquals(700 + runs, account(seeded).plan().dailyRequestLimit(), where));
        eachPlace("top-up", () -> List.of("--account", n, "--credits", "3"), (r, where) -> {
            long balance = Long.parseLong(find("balance (\\d+)", r.out()));
            assertEquals(
                    balance, store.ledger().balance(seeded, CreditKind.CREDITS).posted(), where);
        });
        eachPlace(
                "create-key",
                () -> List.of("--account", n, "--scopes", "all"),
                (r, where) -> assertTrue(
                        store.apiKeys()
                                .find(find("key (\\w{12}) for account", r.out()))
                                .isPresent(),
                        where));
        eachPlace(
                "list-keys",
                () -> List.of("--account", n),
                (r, where) -> assertTrue(r.out().contains(seededPrefix), where));
        List<String> prefixes = new ArrayList<>();
        eachPlace(
                "revoke-key",
                () -> {
                    prefixes.add(newKey());
                    return List.of("--prefix", prefixes.getLast());
                },
                (r, where) -> assertTrue(
                        store.apiKeys().find(prefixes.getLast()).orElseThrow().revoked(), where));
        eachPlace(
                "release-person",
                () -> {
                    prefixes.add(newKey());
                    return List.of("--prefix", prefixes.getLast());
                },
                (r, where) -> assertTrue(
                        store.apiKeys().find(prefixes.getLast()).orElseThrow().personLookupReleased(), where));
        List<AccountId> fresh = new ArrayList<>();
        Supplier<List<String>> onFresh = () -> {
            fresh.add(newAccount());
            return List.of("--account", fresh.getLast().toString());
        };
        eachPlace(
                "approve-accreditation",
                onFresh,
                (r, where) -> assertEquals(
                        AccreditationStatus.APPROVED, account(fresh.getLast()).accreditation(), where));
        eachPlace(
                "contract-purpose",
                () -> concat(onFresh.get(), "--purpose", "KYC_CADASTRO", "--fields", "nome"),
                (r, where) -> assertEquals(
                        Set.of("nome"), account(fresh.getLast()).purposes().get(Purpose.KYC_CADASTRO), where));
        eachPlace(
                "remove-purpose",
                () -> {
                    List<String> a = onFresh.get();
                    store.accounts().contractPurpose(fresh.getLast(), Purpose.KYC_CADASTRO, Set.of("nome"));
                    return concat(a, "--purpose", "KYC_CADASTRO");
                },
                (r, where) ->
                        assertFalse(account(fresh.getLast()).purposes().containsKey(Purpose.KYC_CADASTRO), where));
        eachPlace(
                "set-justification",
                () -> concat(onFresh.get(), "--text", "Analise de credito do cliente"),
                (r, where) -> assertEquals(
                        "Analise de credito do cliente",
                        account(fresh.getLast()).defaultJustification().orElseThrow(),
                        where));
        eachPlace(
                "set-batch-limit",
                () -> concat(onFresh.get(), "--limit", "7"),
                (r, where) -> assertEquals(7, account(fresh.getLast()).personBatchLimit(), where));
        eachPlace(
                "set-company-batch-limit",
                () -> concat(onFresh.get(), "--limit", "9"),
                (r, where) -> assertEquals(9, account(fresh.getLast()).companyBatchLimit(), where));
        // The account exists only in this store: a subcommand on another store fails on it.
        eachPlace(
                "audit",
                () -> List.of("--account", n, "--from", "2026-11-01"),
                (r, where) -> assertEquals("", r.err(), where));
        eachPlace(
                "disable-api",
                onFresh,
                (r, where) -> assertFalse(account(fresh.getLast()).apiEnabled(), where));
        eachPlace(
                "enable-api",
                () -> {
                    List<String> a = onFresh.get();
                    store.accounts().setApiEnabled(fresh.getLast(), false);
                    return a;
                },
                (r, where) -> assertTrue(account(fresh.getLast()).apiEnabled(), where));
        eachPlace(
                "statement",
                () -> List.of("--account", n),
                (r, where) -> assertTrue(
                        r.out()
                                .contains("balance "
                                        + store.ledger()
                                                .balance(seeded, CreditKind.CREDITS)
                                                .posted()),
                        where));
        eachPlace(
                "jobs",
                () -> List.of("--account", n),
                (r, where) -> assertTrue(r.out().startsWith("JOB"), where));

        // The subcommands that work on a home's files take --home the same way.
        homeOnly(
                "sms-inbox",
                () -> List.of("--phone", PHONE),
                (r, where) -> assertTrue(r.out().contains(INBOX_TEXT), where + " -> " + r.out()));
        List<String> otpKeys =
                new ArrayList<>(List.of(OtpSecrets.load(otpFile()).current()));
        homeOnly("otp-rotate-key", List::of, (r, where) -> {
            String current = OtpSecrets.load(otpFile()).current();
            assertFalse(otpKeys.contains(current), where);
            otpKeys.add(current);
        });
        Path callsKeys = CallsSecrets.fileUnder(home);
        List<String> callKeys =
                new ArrayList<>(List.of(CallsSecrets.KEYRING.load(callsKeys).current()));
        homeOnly("calls-rotate-key", List::of, (r, where) -> {
            String current = CallsSecrets.KEYRING.load(callsKeys).current();
            assertFalse(callKeys.contains(current), where);
            callKeys.add(current);
        });

        // The groups' subcommands: the flags after admin, after the group, or at the end.
        eachPlace(
                "calls-token create",
                () -> List.of("--integration", "crm-" + runs),
                (r, where) -> assertTrue(
                        store.callTokens()
                                .integration(find("for integration (\\S+) ", r.out()))
                                .isPresent(),
                        where));
        eachPlace(
                "calls-token list",
                () -> List.of("--integration", "crm"),
                (r, where) -> assertTrue(r.out().contains("crm"), where));
        eachPlace(
                "calls-token rotate",
                () -> List.of("--integration", "crm"),
                (r, where) -> assertTrue(
                        store.callTokens()
                                .authenticate(find("\\n  (\\S+)\\n", r.out()))
                                .isPresent(),
                        where));
        List<CallTokens.Issued> tokens = new ArrayList<>();
        eachPlace(
                "calls-token revoke",
                () -> {
                    tokens.add(store.callTokens().create("crm"));
                    return List.of("--token-id", Long.toString(tokens.getLast().tokenId()));
                },
                (r, where) -> assertTrue(
                        store.callTokens()
                                .authenticate(tokens.getLast().token())
                                .isEmpty(),
                        where));
        List<String> urls = new ArrayList<>();
        eachPlace(
                "calls-push set",
                () -> {
                    urls.add("https://8.8.8.8/hook-" + runs);
                    return List.of(
                            "--integration", "crm", "--url", urls.getLast(), "--header", "X-Api-Key:abcdefghijkl");
                },
                (r, where) -> assertEquals(
                        urls.getLast(),
                        store.pushDestinations()
                                .get(crm.id())
                                .orElseThrow()
                                .url()
                                .toString(),
                        where));
        eachPlace(
                "calls-push show",
                () -> List.of("--integration", "crm"),
                (r, where) -> assertTrue(r.out().contains(urls.getLast()), where));
        eachPlace(
                "calls-push pause",
                () -> {
                    store.pushDestinations().resume(crm.id(), Instant.now());
                    return List.of("--integration", "crm");
                },
                (r, where) -> assertFalse(
                        store.pushDestinations().get(crm.id()).orElseThrow().enabled(), where));
        eachPlace(
                "calls-push resume",
                () -> {
                    store.pushDestinations().pause(crm.id(), Instant.now());
                    return List.of("--integration", "crm");
                },
                (r, where) -> assertTrue(
                        store.pushDestinations().get(crm.id()).orElseThrow().enabled(), where));
        // The integration exists only in this store: on another, these fail naming it.
        eachPlace(
                "calls-push replay",
                () -> List.of("--integration", "crm", "--failed"),
                (r, where) -> assertEquals("", r.err(), where));
        eachPlace(
                "calls-push deliveries",
                () -> List.of("--integration", "crm"),
                (r, where) -> assertEquals("", r.err(), where));

        assertEquals(adminSubcommands(), covered, "every admin subcommand is run here with the flags");
    }

    @Test
    void aSubcommandOnAHomesFilesRefusesADatabaseFlagInsteadOfReadingTheDefaultHome() {
        for (String path : List.of("sms-inbox", "otp-rotate-key", "calls-rotate-key")) {
            for (List<String> line : List.of(
                    concat(List.of("admin", "--database", database.jdbcUrl()), path.split(" ")),
                    concat(
                            List.of("admin", path),
                            "--embedded-db",
                            home.resolve("db").toString()))) {
                List<String> full = new ArrayList<>(line);
                if (path.equals("sms-inbox")) {
                    full.addAll(List.of("--phone", PHONE));
                }
                Run r = cli(full);
                assertEquals(Cli.USAGE, r.status(), full + " -> " + r.err());
                assertTrue(r.err().contains("give --home DIR"), r.err());
            }
        }
    }

    @Test
    void aStoreFlagAfterTheSubcommandIsInItsHelp() {
        Run help = cli(List.of("admin", "sms-inbox", "--help"));
        assertEquals(0, help.status(), help.err());
        assertTrue(help.out().contains("--home=DIR"), help.out());
        Run nested = cli(List.of("admin", "calls-push", "show", "--help"));
        assertTrue(nested.out().contains("--database=URL"), nested.out());
    }

    private static List<String> concat(List<String> first, String... more) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    /** Every subcommand under admin, nested ones by their path, help aside: what the test must cover. */
    private static Set<String> adminSubcommands() {
        CommandLine admin = Cli.standard()
                .commandLine(System.out, System.err)
                .getSubcommands()
                .get("admin");
        Set<String> paths = new TreeSet<>();
        walk(admin, "", paths);
        return paths;
    }

    private static void walk(CommandLine cl, String prefix, Set<String> paths) {
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            String path = prefix + e.getKey();
            if (e.getValue().getSubcommands().isEmpty()) {
                paths.add(path);
            } else {
                walk(e.getValue(), path + " ", paths);
            }
        }
    }
}
