package dev.cadastro.server;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Authenticator;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.calls.CallSource;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpEvolver;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.providers.calls.SimulatedExchange;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The embedded defaults of {@code ./cadastro demo}, kept in one home folder so a second run reuses
 * them: a synthetic dump ({@code dump/}), the register index built from it ({@code index/}), the
 * embedded PostgreSQL ({@code db/}) and the demo account's keys ({@code demo-keys.txt}, mode 0600:
 * keys are shown once and only their hashes are in the database, so this file is how a second run
 * can print the curl lines again).
 */
public final class DemoSetup {
    /** Establishments of the synthetic dump. */
    public static final long DEFAULT_ESTABLISHMENTS = 200_000;
    /** Credits the demo account starts with. */
    public static final long DEMO_CREDITS = 100_000;
    /** SMS credits the demo account starts with. */
    public static final long DEMO_SMS_CREDITS = 100;
    /** Requests per day of the demo plan. */
    public static final long DEMO_DAILY_LIMIT = 1_000_000;

    static final String KEYS_FILE = "demo-keys.txt";
    private static final long SEED = 20260808L;

    private final Path home;

    public DemoSetup(Path home) {
        this.home = home.toAbsolutePath().normalize();
    }

    public Path home() {
        return home;
    }

    public Path index() {
        return home.resolve("index");
    }

    public Path dump() {
        return home.resolve("dump");
    }

    public Path database() {
        return home.resolve("db");
    }

    public Path keysFile() {
        return home.resolve(KEYS_FILE);
    }

    /** True when a register index was published here (the second run skips generate and load). */
    public boolean hasIndex() {
        return Files.exists(index().resolve("CURRENT"));
    }

    /**
     * Generates the synthetic dump (with its synthetic PGFN debt files in {@code dump/debt/}) and loads
     * both into the index, unless an index is already published; says that the debt data is synthetic.
     */
    public void ensureIndex(long establishments, PrintStream out) {
        Path debt = dump().resolve(GeneratedDump.DEBT_FOLDER);
        if (hasIndex()) {
            out.println("register: using the index in " + index());
            // What the generation was loaded with, not what the home's dump folder holds: a home may
            // point at an index loaded elsewhere.
            PublishedIndex current = LuceneRegister.currentGeneration(index()).orElseThrow();
            if (!DumpLoader.loadedWithDebt(current)) {
                out.println(noDebt());
            } else if (Files.isDirectory(debt)) {
                out.println(SYNTHETIC_DEBT);
            } else {
                out.println("register: the debt flags (divida=true/false) come from the PGFN files this index was"
                        + " loaded with (" + current.sourceLabel() + ")");
            }
            return;
        }
        long t0 = System.nanoTime();
        Path dump = dump();
        Path marker = dump.resolve(".complete");
        if (!Files.exists(marker)) {
            out.println("register: generating a synthetic Receita Federal dump of " + establishments
                    + " establishments in " + dump + " ...");
            deleteTree(dump);
            GeneratedDump generated = DumpGenerator.generate(
                    dump, GeneratorOptions.builder(establishments).seed(SEED).build());
            touch(marker);
            out.println("register: generated in " + seconds(t0) + ", with synthetic PGFN debt files for "
                    + generated.debtCompanies() + " of its " + generated.companies() + " companies in " + debt);
        }
        long t1 = System.nanoTime();
        out.println("register: loading the dump into " + index() + " ...");
        LoadOptions options = loadOptions(dump);
        DumpLoader.Result result =
                DumpLoader.load(options, index(), DumpLoader.buildOptionsFor(options, establishments));
        out.println("register: " + result.published().documents() + " establishments indexed in " + seconds(t1));
        loadNextMonth(dump, establishments, out);
        out.println(options.debt() != null ? SYNTHETIC_DEBT : noDebt());
    }

    /** How the demo loads a generated dump: with its synthetic debt files when it has them. */
    private static LoadOptions loadOptions(Path dump) {
        Path debt = dump.resolve(GeneratedDump.DEBT_FOLDER);
        return LoadOptions.builder(dump)
                .debt(Files.isDirectory(debt) ? debt : null)
                .build();
    }

    /** The second month's dump, evolved from the first: the demo's register has a month of changes. */
    public Path nextDump() {
        return home.resolve("dump-next");
    }

    /**
     * Evolves the next month from {@code first} and loads it over the first month's generation, so
     * {@code GET /v1/empresas/alteracoes} has a month of changes to serve.
     */
    private void loadNextMonth(Path first, long establishments, PrintStream out) {
        long t0 = System.nanoTime();
        Path next = nextDump();
        Path marker = next.resolve(".complete");
        if (!Files.exists(marker)) {
            deleteTree(next);
            YearMonth month = LoadOptions.referenceOf(first)
                    .orElseThrow(() -> new IllegalStateException(first + " states no reference month"))
                    .plusMonths(1);
            DumpEvolver.evolve(
                    first, next, month, GeneratorOptions.builder(1).seed(SEED).build());
            touch(marker);
        }
        LoadOptions options = loadOptions(next);
        DumpLoader.Result result =
                DumpLoader.load(options, index(), DumpLoader.buildOptionsFor(options, establishments));
        out.println("register: the next month ("
                + options.reference().map(Object::toString).orElse("?")
                + ") evolved and loaded over it in " + seconds(t0) + ", "
                + result.published().documents()
                + " establishments; GET /v1/empresas/alteracoes serves the changes between the two");
    }

    /** For a demo home whose dump was generated before the generator wrote debt files. */
    private String noDebt() {
        return "register: this index was loaded without PGFN debt files, so searches with divida are refused; delete "
                + index() + " and " + dump() + " to regenerate it with synthetic debt";
    }

    /** What the demo says of its debt flags, on every run. */
    static final String SYNTHETIC_DEBT = "register: the debt flags (divida=true/false) come from SYNTHETIC PGFN"
            + " active-debt files written with the demo dump, not from the real PGFN open data";

    /**
     * The demo account's keys, one per scope: read from the keys file when it still authenticates
     * against this database, otherwise a new demo account is created with credits and fresh keys,
     * and the file is rewritten. Either way the account's LGPD accreditation is approved, so
     * enrichment works out of the box (also for a demo home made before enrichment existed).
     */
    public Map<Scope, String> ensureAccount(Store store, Clock clock, RandomGenerator random, PrintStream out) {
        Map<Scope, String> keys = readKeys();
        AccountId existing = keys.size() == Scope.values().length ? stillValid(store, keys) : null;
        if (existing != null) {
            store.accounts().setAccreditation(existing, AccreditationStatus.APPROVED);
            ensurePersonLookup(store, existing, keys);
            out.println("account: reusing the demo keys in " + keysFile());
            return keys;
        }
        Account account = store.accounts().create("demo", new Plan("demo", DEMO_DAILY_LIMIT));
        store.accounts().setAccreditation(account.id(), AccreditationStatus.APPROVED);
        store.ledger()
                .topUp(
                        account.id(),
                        CreditKind.CREDITS,
                        DEMO_CREDITS,
                        IdempotencyKey.of("demo-topup:" + account.id()),
                        "demo credits");
        store.ledger()
                .topUp(
                        account.id(),
                        CreditKind.SMS_CREDITS,
                        DEMO_SMS_CREDITS,
                        IdempotencyKey.of("demo-topup-sms:" + account.id()),
                        "demo SMS credits");
        ApiKeyIssuer issuer = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, random);
        Map<Scope, String> issued = new LinkedHashMap<>();
        for (Scope scope : Scope.values()) {
            IssuedApiKey key = issuer.issue(account.id(), "demo " + scope.wire(), EnumSet.of(scope));
            issued.put(scope, key.secret());
        }
        writeKeys(issued);
        ensurePersonLookup(store, account.id(), issued);
        out.println("account: created demo account " + account.id() + " with " + DEMO_CREDITS + " credits, an"
                + " approved LGPD accreditation and " + issued.size() + " keys (one per scope), saved to "
                + keysFile());
        return issued;
    }

    /**
     * The dossier fields the demo account contracted for each purpose: each purpose releases what its
     * use needs, no more (LGPD necessity), so the demo shows different answers per purpose.
     */
    public static final Map<Purpose, Set<String>> DEMO_PURPOSES = Map.of(
            Purpose.ANALISE_CREDITO,
            Set.of(
                    "cpf",
                    "nome",
                    "data_nascimento",
                    "situacao_cpf",
                    "obito",
                    "renda_estimada",
                    "faixa_renda",
                    "score",
                    "ocupacao"),
            Purpose.KYC_CADASTRO,
            Set.of(
                    "cpf",
                    "nome",
                    "nome_social",
                    "data_nascimento",
                    "sexo",
                    "nome_mae",
                    "situacao_cpf",
                    "obito",
                    "enderecos",
                    "telefones",
                    "emails"),
            Purpose.COBRANCA_DIVIDA_PROPRIA,
            Set.of("cpf", "nome", "enderecos", "telefones", "emails"),
            Purpose.PREVENCAO_FRAUDE,
            Set.of("cpf", "nome", "data_nascimento", "situacao_cpf", "obito", "telefones", "emails", "score"));

    /**
     * All four purposes contracted with {@link #DEMO_PURPOSES} and the {@code pessoas:read} key released
     * for person lookup (also for a demo home made before person lookup existed).
     */
    private static void ensurePersonLookup(Store store, AccountId account, Map<Scope, String> keys) {
        DEMO_PURPOSES.forEach((purpose, fields) -> store.accounts().contractPurpose(account, purpose, fields));
        String secret = keys.get(Scope.PESSOAS_READ);
        if (secret != null) {
            String prefix = new Authenticator(store.apiKeys())
                    .authenticate(secret)
                    .key()
                    .prefix();
            store.apiKeys().setPersonLookupReleased(prefix, true);
        }
    }

    /** The account of the saved keys when they still authenticate here; null otherwise. */
    private static AccountId stillValid(Store store, Map<Scope, String> keys) {
        try {
            return new Authenticator(store.apiKeys())
                    .authenticate(keys.get(Scope.EMPRESAS_READ))
                    .accountId();
        } catch (CadastroException e) {
            return null;
        }
    }

    private Map<Scope, String> readKeys() {
        Map<Scope, String> keys = new LinkedHashMap<>();
        if (!Files.exists(keysFile())) {
            return keys;
        }
        try {
            for (String line : Files.readAllLines(keysFile(), StandardCharsets.UTF_8)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.strip().split("\\s+");
                if (parts.length == 2) {
                    Scope.fromWire(parts[0]).ifPresent(s -> keys.put(s, parts[1]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + keysFile(), e);
        }
        return keys;
    }

    private void writeKeys(Map<Scope, String> keys) {
        List<String> lines = new ArrayList<>();
        lines.add("# Cadastro demo API keys, one per scope: <scope> <key>. Shown once by the server; keep private.");
        keys.forEach((scope, key) -> lines.add(scope.wire() + " " + key));
        try {
            Files.createDirectories(home);
            try {
                writePrivately(keysFile(), lines);
            } catch (FileAlreadyExistsException e) {
                throw new IllegalStateException(e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + keysFile(), e);
        }
    }

    /**
     * Writes {@code file} whole, readable by its owner alone from the first byte (where the file
     * system has POSIX modes): a temporary file beside it, created with its mode, then moved over it
     * atomically. Its folder must exist.
     */
    private static void writePrivately(Path file, List<String> lines) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(tmp);
        }
        Files.write(tmp, lines, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void touch(Path file) {
        try {
            Files.writeString(file, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir, e);
        }
    }

    // --- The call-records service of the demo ---

    /** The demo's call-records integration. */
    public static final String CALLS_INTEGRATION = "demo";

    static final String CALLS_TOKEN_FILE = "demo-calls-token.txt";

    /** The file (mode 0600) that keeps the demo's call-records token, so a second run can print the curl lines. */
    public Path callsTokenFile() {
        return home.resolve(CALLS_TOKEN_FILE);
    }

    /**
     * The demo integration's call-records token: the one kept in {@link #callsTokenFile()} while it still
     * authenticates, else a new one (created with the integration when absent), written there.
     */
    public String ensureCallsToken(Store store) {
        Path file = callsTokenFile();
        try {
            if (Files.exists(file)) {
                String kept = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .filter(l -> !l.isBlank() && !l.startsWith("#"))
                        .findFirst()
                        .orElse("")
                        .trim();
                if (!kept.isEmpty() && store.callTokens().authenticate(kept).isPresent()) {
                    return kept;
                }
            }
            String token = store.callTokens().create(CALLS_INTEGRATION).token();
            Files.createDirectories(home);
            writePrivately(
                    file,
                    List.of(
                            "# Cadastro demo call-records token of the integration " + CALLS_INTEGRATION
                                    + ". Shown once by the server; keep private.",
                            token));
            return token;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the demo call-records token in " + file, e);
        }
    }

    /**
     * How far back the first ingest of a simulated exchange reads: two hours, so the list is not empty at
     * once. A week (a real exchange's default) would make a new fleet's first tick write tens of
     * thousands of recordings before the first call is listed.
     */
    public static final Duration SIMULATED_LOOK_BACK = Duration.ofHours(2);

    /**
     * A simulated telephone exchange feeding the integration {@code name} (created, with a token nobody
     * sees, when absent: {@code ./cadastro admin calls-token create} issues one to use), writing its WAV
     * files to {@code recordings}.
     */
    public static CallSource simulatedExchange(Store store, String name, FileStore recordings) {
        Integration integration = store.callTokens()
                .integration(name)
                .orElseGet(() -> store.callTokens().create(name).integration());
        return new SimulatedExchange(integration.id(), SimulatedExchange.Options.demo(), recordings);
    }

    private static String seconds(long startNanos) {
        Duration d = Duration.ofNanos(System.nanoTime() - startNanos);
        return String.format("%.1f s", d.toMillis() / 1000.0);
    }

    // --- Push (issue 19): the demo integration's destination points at the demo's loopback receiver. ---

    /** The integration whose calls the demo pushes to its receiver. */
    public static final String PUSH_INTEGRATION = "demo";

    /**
     * Points the demo integration's push destination at {@code receiver} (loopback, plain http, both
     * allowed for the demo only), signed with {@code secret}; says so, or says why not.
     *
     * @return whether the destination was set
     */
    public boolean ensurePushDestination(
            Store store, java.net.URI receiver, String token, String secret, Clock clock, PrintStream out) {
        java.util.Optional<dev.cadastro.core.calls.Integration> integration =
                store.pushDestinations().integration(PUSH_INTEGRATION);
        if (integration.isEmpty()) {
            out.println("push: no integration '" + PUSH_INTEGRATION + "' yet; nothing is pushed");
            return false;
        }
        store.pushDestinations()
                .set(
                        new dev.cadastro.core.calls.push.PushDestination(
                                integration.get(), receiver, DemoReceiver.HEADER, token, true, secret, true),
                        clock.instant());
        out.println("push: integration '" + PUSH_INTEGRATION + "' delivers each ready call to " + receiver
                + " (signed; lines 'push received: ...' below)");
        return true;
    }
}
