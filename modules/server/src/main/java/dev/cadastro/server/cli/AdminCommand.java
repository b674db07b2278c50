package dev.cadastro.server.cli;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.CreditResult;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.StatementLine;
import dev.cadastro.server.cli.admin.AdminFlags;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * {@code ./cadastro admin}: the operator's commands on accounts, keys and credits, against the same
 * store the server uses ({@code --database URL}, or {@code --embedded-db DIR}, default {@code
 * .cadastro/db}). Keys are printed once, at creation; afterwards only their prefixes are shown.
 */
public final class AdminCommand implements Command {
    private static final Set<String> STORE_FLAGS = Set.of("database", "embedded-db");
    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(CostRules.ZONE);

    /** Subcommand, its flags, its help line. */
    private record Sub(String name, Set<String> flags, String help) {}

    private static final List<Sub> SUBS = List.of(
            new Sub(
                    "create-account",
                    Set.of("name", "plan", "daily-limit"),
                    "--name NAME [--plan NAME] [--daily-limit N]   create an account (accreditation pending)"),
            new Sub("list-accounts", Set.of(), "                                   list accounts"),
            new Sub(
                    "show-account",
                    Set.of("account"),
                    "--account ID                      an account, its balances and keys"),
            new Sub(
                    "set-plan",
                    Set.of("account", "plan", "daily-limit"),
                    "--account ID --plan NAME --daily-limit N   change the plan"),
            new Sub(
                    "top-up",
                    Set.of("account", "credits", "sms", "reference"),
                    "--account ID (--credits N | --sms N) [--reference R]   add credits once per reference"),
            new Sub(
                    "create-key",
                    Set.of("account", "scopes", "label"),
                    "--account ID --scopes a,b|all [--label L]   issue a key (printed once)"),
            new Sub("list-keys", Set.of("account"), "--account ID                      keys by prefix"),
            new Sub(
                    "revoke-key",
                    Set.of("prefix"),
                    "--prefix P                        revoke a key (next request fails)"),
            new Sub(
                    "approve-accreditation",
                    Set.of("account"),
                    "--account ID                      approve the LGPD accreditation"),
            new Sub(
                    "release-person",
                    Set.of("prefix", "withdraw"),
                    "--prefix P [--withdraw]           release person lookup for a key"),
            new Sub(
                    "contract-purpose",
                    Set.of("account", "purpose", "fields"),
                    "--account ID --purpose P --fields a,b   contract a purpose and the fields it releases"),
            new Sub("remove-purpose", Set.of("account", "purpose"), "--account ID --purpose P         end a purpose"),
            new Sub(
                    "disable-api",
                    Set.of("account"),
                    "--account ID                      API_DESATIVADA for the account"),
            new Sub("enable-api", Set.of("account"), "--account ID                      enable the API again"),
            new Sub(
                    "statement",
                    Set.of("account", "kind", "limit"),
                    "--account ID [--kind credits|sms] [--limit N]   entries with running balance"));

    private final Clock clock;

    public AdminCommand() {
        this(Clock.systemUTC());
    }

    public AdminCommand(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "admin";
    }

    @Override
    public String summary() {
        return "[--database URL | --embedded-db DIR] <subcommand> ...  accounts, keys, credits (admin help)";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        AdminFlags flags = AdminFlags.parse(args, Set.of("withdraw"));
        if (flags.words().isEmpty() || flags.words().get(0).equals("help")) {
            help(out);
            return flags.words().isEmpty() ? 2 : 0;
        }
        if (flags.words().size() > 1) {
            throw new UsageException("unexpected argument '" + flags.words().get(1) + "'");
        }
        String word = flags.words().get(0);
        Sub sub = SUBS.stream()
                .filter(s -> s.name().equals(word))
                .findFirst()
                .orElseThrow(
                        () -> new UsageException("unknown admin subcommand '" + word + "'; try ./cadastro admin help"));
        Set<String> accepted = new java.util.TreeSet<>(sub.flags());
        accepted.addAll(STORE_FLAGS);
        flags.requireOnly(accepted);
        Database database = database(flags);
        try (Store store = Store.open(database, clock)) {
            return run(sub.name(), flags, store, out);
        }
    }

    static Database database(AdminFlags flags) {
        if (flags.has("database") && flags.has("embedded-db")) {
            throw new UsageException("give --database or --embedded-db, not both");
        }
        try {
            return flags.optional("database")
                    .map(Database::url)
                    .orElseGet(() -> Database.embedded(
                            flags.optional("embedded-db").map(Path::of).orElse(Database.DEFAULT_EMBEDDED_DIR)));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private int run(String sub, AdminFlags f, Store store, PrintStream out) {
        switch (sub) {
            case "create-account" -> {
                Plan plan = new Plan(f.optional("plan").orElse("basico"), f.positiveLong("daily-limit", 10_000));
                Account a = store.accounts().create(f.required("name"), plan);
                out.println("account " + a.id() + " created: " + a.name() + ", plan " + plan.name() + " ("
                        + plan.dailyRequestLimit() + " requests/day), accreditation " + a.accreditation());
            }
            case "list-accounts" -> {
                out.printf("%-8s %-30s %-12s %12s %-10s %s%n", "ID", "NAME", "PLAN", "DAILY", "LGPD", "API");
                for (Account a : store.accounts().list()) {
                    out.printf(
                            "%-8s %-30s %-12s %12d %-10s %s%n",
                            a.id(),
                            a.name(),
                            a.plan().name(),
                            a.plan().dailyRequestLimit(),
                            a.accreditation(),
                            a.apiEnabled() ? "enabled" : "disabled");
                }
            }
            case "show-account" -> show(store, account(f), out);
            case "set-plan" -> {
                Account a = store.accounts()
                        .setPlan(account(f), new Plan(f.required("plan"), f.positiveLong("daily-limit")));
                out.println("account " + a.id() + ": plan " + a.plan().name() + " ("
                        + a.plan().dailyRequestLimit() + " requests/day)");
            }
            case "top-up" -> topUp(store, f, out);
            case "create-key" -> {
                AccountId id = account(f);
                IssuedApiKey issued = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom())
                        .issue(id, f.optional("label").orElse(""), scopes(f.required("scopes")));
                out.println("key " + issued.key().prefix() + " for account " + id + ", scopes "
                        + wire(issued.key().scopes()));
                out.println();
                out.println("  " + issued.secret());
                out.println();
                out.println("Store it now: it is shown this once and kept only as a hash.");
            }
            case "list-keys" -> {
                out.printf("%-14s %-22s %-9s %-8s %s%n", "PREFIX", "CREATED", "STATE", "PESSOAS", "SCOPES  LABEL");
                for (ApiKey k : store.apiKeys().list(account(f))) {
                    out.printf(
                            "%-14s %-22s %-9s %-8s %s  %s%n",
                            k.prefix(),
                            WHEN.format(k.createdAt()),
                            k.revoked() ? "revoked" : "active",
                            k.personLookupReleased() ? "released" : "-",
                            wire(k.scopes()),
                            k.label());
                }
            }
            case "revoke-key" -> {
                ApiKey k = store.apiKeys().revoke(prefix(f), clock.instant());
                out.println("key " + k.prefix() + " revoked at "
                        + WHEN.format(k.revokedAt().orElseThrow())
                        + " (America/Sao_Paulo); its next request answers CHAVE_REVOGADA");
            }
            case "approve-accreditation" -> {
                Account a = store.accounts().setAccreditation(account(f), AccreditationStatus.APPROVED);
                out.println("account " + a.id() + ": LGPD accreditation " + a.accreditation());
            }
            case "release-person" -> {
                boolean release = !f.has("withdraw");
                ApiKey k = store.apiKeys().setPersonLookupReleased(prefix(f), release);
                out.println("key " + k.prefix() + ": person lookup "
                        + (k.personLookupReleased() ? "released" : "withdrawn"));
            }
            case "contract-purpose" -> {
                Purpose purpose = purpose(f.required("purpose"));
                Set<String> fields = Arrays.stream(f.required("fields").split(","))
                        .map(String::strip)
                        .filter(s -> !s.isEmpty())
                        .collect(Collectors.toCollection(LinkedHashSet::new));
                Account a = store.accounts().contractPurpose(account(f), purpose, fields);
                out.println("account " + a.id() + ": purpose " + purpose + " releases "
                        + a.purposes().get(purpose).stream().sorted().toList());
            }
            case "remove-purpose" -> {
                Purpose purpose = purpose(f.required("purpose"));
                Account a = store.accounts().removePurpose(account(f), purpose);
                out.println("account " + a.id() + ": purpose " + purpose + " removed; contracted: "
                        + a.purposes().keySet());
            }
            case "disable-api", "enable-api" -> {
                Account a = store.accounts().setApiEnabled(account(f), sub.equals("enable-api"));
                out.println("account " + a.id() + ": API " + (a.apiEnabled() ? "enabled" : "disabled"));
            }
            case "statement" -> statement(store, f, out);
            default -> throw new IllegalStateException("subcommand " + sub + " is listed but not handled");
        }
        return 0;
    }

    private void topUp(Store store, AdminFlags f, PrintStream out) {
        AccountId id = account(f);
        if (f.has("credits") == f.has("sms")) {
            throw new UsageException("give exactly one of --credits N and --sms N");
        }
        CreditKind kind = f.has("credits") ? CreditKind.CREDITS : CreditKind.SMS_CREDITS;
        long amount = f.positiveLong(kind == CreditKind.CREDITS ? "credits" : "sms");
        String reference =
                f.optional("reference").orElseGet(() -> UUID.randomUUID().toString());
        IdempotencyKey key;
        try {
            key = IdempotencyKey.of("topup:" + id + ":" + reference);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--reference: " + e.getMessage());
        }
        CreditResult r = store.ledger().topUp(id, kind, amount, key, "recarga " + reference);
        if (r.replay()) {
            out.println("account " + id + ": reference " + reference + " was already applied; nothing added; " + kind
                    + " balance " + r.balanceAfter());
        } else {
            out.println("account " + id + ": +" + r.credited() + " " + kind + ", balance " + r.balanceAfter()
                    + " (reference " + reference + "; repeat it to retry safely)");
        }
    }

    private static void show(Store store, AccountId id, PrintStream out) {
        Account a = store.accounts().require(id);
        out.println("account     " + a.id() + "  " + a.name());
        out.println("plan        " + a.plan().name() + ", " + a.plan().dailyRequestLimit() + " requests/day");
        out.println("api         " + (a.apiEnabled() ? "enabled" : "disabled"));
        out.println("lgpd        " + a.accreditation());
        out.println("batch limit " + a.personBatchLimit() + " CPFs");
        for (Map.Entry<Purpose, Set<String>> p : a.purposes().entrySet()) {
            out.println("purpose     " + p.getKey() + ": "
                    + p.getValue().stream().sorted().toList());
        }
        for (CreditKind kind : CreditKind.values()) {
            Balance b = store.ledger().balance(id, kind);
            out.println(String.format(
                    Locale.ROOT,
                    "%-11s %d posted, %d held, %d available",
                    kind.name().toLowerCase(Locale.ROOT),
                    b.posted(),
                    b.held(),
                    b.available()));
        }
        out.println("keys        "
                + store.apiKeys().list(id).stream()
                        .map(k -> k.prefix() + (k.revoked() ? " (revoked)" : ""))
                        .toList());
    }

    private static void statement(Store store, AdminFlags f, PrintStream out) {
        AccountId id = account(f);
        CreditKind kind = switch (f.optional("kind").orElse("credits")) {
            case "credits" -> CreditKind.CREDITS;
            case "sms" -> CreditKind.SMS_CREDITS;
            default ->
                throw new UsageException("--kind '" + f.optional("kind").orElseThrow() + "' must be credits or sms");
        };
        long limit = f.positiveLong("limit", 50);
        if (limit > 10_000) {
            throw new UsageException("--limit " + limit + " exceeds the maximum 10000");
        }
        List<StatementLine> lines = store.ledger().statement(id, kind, (int) limit);
        out.printf(
                "%-8s %-19s %-10s %10s %10s  %s%n",
                "SEQ", "WHEN (Sao Paulo)", "TYPE", "AMOUNT", "BALANCE", "DESCRIPTION [KEY]");
        for (StatementLine l : lines) {
            out.printf(
                    "%-8d %-19s %-10s %+10d %10d  %s [%s]%n",
                    l.sequence(),
                    WHEN.format(l.at()),
                    l.type(),
                    l.amount(),
                    l.runningBalance(),
                    l.description(),
                    l.key());
        }
        Balance b = store.ledger().balance(id, kind);
        out.println("balance " + b.posted() + ", held " + b.held() + ", available " + b.available());
    }

    private static AccountId account(AdminFlags f) {
        try {
            return AccountId.parse(f.required("account"));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--account: " + e.getMessage());
        }
    }

    private static String prefix(AdminFlags f) {
        String p = f.required("prefix");
        if (p.startsWith("cad_")) {
            throw new UsageException("--prefix wants the 12-character prefix, not the whole key");
        }
        return p;
    }

    private static Set<Scope> scopes(String text) {
        if (text.strip().equals("all")) {
            return EnumSet.allOf(Scope.class);
        }
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String s : text.split(",")) {
            try {
                scopes.add(Scope.parse(s));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--scopes: " + e.getMessage());
            }
        }
        return scopes;
    }

    private static Purpose purpose(String text) {
        return Purpose.fromWire(text.strip())
                .orElseThrow(() -> new UsageException(
                        "--purpose '" + text + "' must be one of " + Arrays.toString(Purpose.values())));
    }

    private static String wire(Set<Scope> scopes) {
        return scopes.stream().map(Scope::wire).sorted().collect(Collectors.joining(","));
    }

    private static void help(PrintStream out) {
        out.println("usage: ./cadastro admin [--database URL | --embedded-db DIR] <subcommand> [flags]");
        out.println("  default store: embedded PostgreSQL in " + Database.DEFAULT_EMBEDDED_DIR);
        out.println();
        for (Sub s : SUBS) {
            out.printf("  %-22s %s%n", s.name(), s.help().strip());
        }
        out.println();
        out.println("scopes: " + Arrays.stream(Scope.values()).map(Scope::wire).toList() + " or 'all'");
        out.println("purposes: " + Arrays.toString(Purpose.values()));
    }
}
