package dev.cadastro.benchmarks.fleet;

import com.sun.net.httpserver.HttpServer;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.providers.SimulatedPersonBureau;
import dev.cadastro.server.DemoSetup;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The client side of the fleet harness ({@code benchmarks/fleet/run.sh}): mixed paid traffic through the
 * load balancer in front of several {@code ./cadastro serve} processes, retried as a careful client does,
 * then the invariants checked on the database and the figures of each fault the script injected.
 *
 * <p>{@code setup} (before the servers start) opens the store on the fleet's database, which migrates
 * it, and creates the accounts (funded, accredited, every purpose contracted, one key with every scope,
 * released for person lookups), the call-records integration with its token, and its push destination,
 * a receiver this class runs in {@code load}. It writes what the load needs to a properties file.
 *
 * <p>{@code load} runs {@code --workers} clients for {@code --seconds} (or until {@code --stop-file} appears), each paced to its share of
 * {@code --rate} operations a second (a late slot is skipped, never caught up): search pages and counts,
 * lookups, mailing exports, enrichment, credit reports, person lookups (sync, async and batch), SMS codes
 * sent and verified (the code read from the simulated provider's inbox file) and call-record pages.
 * Every request that may charge carries a new {@code Idempotency-Key}; a connection error, a timeout, a
 * 5xx, a 409 or a 429 is retried with the same key after a backoff (250 ms doubling to 2 s, or the
 * server's {@code Retry-After} up to 2 s), for up to {@code --give-up} seconds. Each attempt is logged
 * with its outcome. Then it waits for the exports, the SMS holds and the push outbox to settle and
 * checks, failing the run (exit status 1) when one does not hold:
 *
 * <ul>
 *   <li>each account's posted balance is its opening balance minus the credits the client saw
 *       acknowledged ({@code creditos_consumidos} of every answered request, of each export's final
 *       status and of each async person job's final status), SMS credits likewise; nothing held;
 *   <li>no hold still {@code HELD}, no negative balance;
 *   <li>every export {@code concluido} or {@code falhou}, and each file downloadable through every
 *       server;
 *   <li>no SMS send still in flight ({@code sms_sending} empty);
 *   <li>every push delivery {@code entregue} and its {@code webhook-id} seen by the receiver;
 *   <li>one audit row per charged person lookup.
 * </ul>
 *
 * <p>The figures: for each fault in the events file the script wrote ({@code EPOCH_MS start|end NAME}),
 * the attempts answered 5xx or not at all from its start until the next fault, the seconds from its start
 * to the end of the last such attempt, the longest operation (retries included) that overlapped it, and
 * the operations completed per second in the 20 s before it and in the 20 s ending 60 s after it ended,
 * and how long after its end the first 10 s window ran at 90% or more of the rate before it.
 */
public final class FleetRun {
    private static final Pattern CREDITS = Pattern.compile("\"creditos_consumidos\"\\s*:\\s*(\\d+)");
    private static final Pattern SMS_CREDITS = Pattern.compile("\"creditos_sms_consumidos\"\\s*:\\s*(\\d+)");
    private static final Pattern JOB = Pattern.compile("\"job_id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern ENVIO = Pattern.compile("\"envio_id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern CNPJ = Pattern.compile("\"cnpj\"\\s*:\\s*\"([0-9A-Z]{14})\"");
    private static final Pattern CODE = Pattern.compile("(\\d{4,8})");
    private static final String INTEGRATION = "fleet";
    /** How far the call ingest's checkpoint may trail the clock at the end: its lease (1 min) and two ticks. */
    private static final long INGEST_LAG_SECONDS = 120;

    private static final long OPENING_CREDITS = 50_000_000L;
    private static final long OPENING_SMS = 1_000_000L;
    private static final String[] UFS = {"SP", "MG", "RJ", "PR", "RS", "BA", "SC"};

    private FleetRun() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: FleetRun setup|load --flag value ...");
        }
        Map<String, String> flags = flags(args);
        switch (args[0]) {
            case "setup" -> setup(flags);
            case "load" -> System.exit(new FleetRun.Load(flags).run() ? 0 : 1);
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static Map<String, String> flags(String[] args) {
        Map<String, String> flags = new HashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected a --flag, got " + args[i]);
            }
            flags.put(args[i].substring(2), args[i + 1]);
        }
        return flags;
    }

    private static String need(Map<String, String> flags, String name) {
        String v = flags.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    // ---------------------------------------------------------------- setup

    private static void setup(Map<String, String> flags) throws IOException {
        int accounts = Integer.parseInt(flags.getOrDefault("accounts", "6"));
        URI receiver = URI.create(need(flags, "receiver"));
        Path out = Path.of(need(flags, "out"));
        Clock clock = Clock.systemUTC();
        Properties p = new Properties();
        try (Store store =
                Store.open(Database.builder().url(need(flags, "database")).build(), clock)) {
            ApiKeyIssuer issuer = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom());
            String run = UUID.randomUUID().toString().substring(0, 8);
            for (int i = 0; i < accounts; i++) {
                Account a = store.accounts().create("fleet " + run + " " + i, new Plan("fleet", 1_000_000_000L));
                store.accounts().setAccreditation(a.id(), AccreditationStatus.APPROVED);
                DemoSetup.DEMO_PURPOSES.forEach(
                        (purpose, fields) -> store.accounts().contractPurpose(a.id(), purpose, fields));
                store.ledger()
                        .topUp(
                                a.id(),
                                CreditKind.CREDITS,
                                OPENING_CREDITS,
                                IdempotencyKey.of("fleet:" + run + ":" + i),
                                "fleet");
                store.ledger()
                        .topUp(
                                a.id(),
                                CreditKind.SMS_CREDITS,
                                OPENING_SMS,
                                IdempotencyKey.of("fleet-sms:" + run + ":" + i),
                                "fleet");
                var issued = issuer.issue(a.id(), "fleet", EnumSet.allOf(Scope.class));
                store.apiKeys().setPersonLookupReleased(issued.key().prefix(), true);
                p.setProperty("account." + i, Long.toString(a.id().value()));
                p.setProperty("key." + i, issued.secret());
            }
            var token = store.callTokens().create(INTEGRATION);
            Integration integration = token.integration();
            String secret =
                    "whsec_" + java.util.Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(24));
            String receiverToken = "Bearer fleet-" + UUID.randomUUID();
            store.pushDestinations()
                    .set(
                            new PushDestination(
                                    integration, receiver, "Authorization", receiverToken, true, secret, true),
                            clock.instant());
            p.setProperty("accounts", Integer.toString(accounts));
            p.setProperty("calls.token", token.token());
            p.setProperty("receiver.token", receiverToken);
        }
        try (var w = Files.newBufferedWriter(out)) {
            p.store(w, "fleet setup; secrets, keep private");
        }
        System.out.println(
                "fleet setup: " + accounts + " accounts, integration " + INTEGRATION + ", written to " + out);
    }

    // ---------------------------------------------------------------- load

    /** One HTTP attempt: when it started and ended, and its status (0: no answer). */
    record Attempt(long start, long end, int status) {
        boolean failed() {
            return status == 0 || status >= 500;
        }
    }

    /** One operation, its requests retried until answered: what it cost as the client saw it. */
    record Op(
            String kind,
            int account,
            long start,
            long end,
            int attempts,
            boolean answered,
            long credits,
            long sms,
            int status) {}

    /** A final answer, or none after the give-up time. */
    record Answer(int status, String body, boolean replayed, boolean answered) {}

    static final class Load {
        private final Map<String, String> flags;
        private final Properties setup = new Properties();
        private final HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        private final String base;
        private final String callsBase;
        private final List<String> servers;
        private final List<String> keys = new ArrayList<>();
        private final List<Long> accountIds = new ArrayList<>();
        private final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
        private final ConcurrentLinkedQueue<Op> ops = new ConcurrentLinkedQueue<>();
        private final List<String> cnpjs = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final List<String> cpfs = new ArrayList<>();
        private final Map<String, Integer> exports = new ConcurrentHashMap<>(); // job -> account index
        private final Set<String> received = ConcurrentHashMap.newKeySet();
        private final AtomicLong phones = new AtomicLong();
        private final AtomicLong replays = new AtomicLong();
        /** What the deduplicated operations cost by the published rules: one charge per account, document and day (month). */
        private final Set<String> owedOnce = ConcurrentHashMap.newKeySet();
        /** Credits the answers of those operations said they consumed, to compare with the rules. */
        private final AtomicLong reportedDeduplicated = new AtomicLong();

        private final AtomicLong asyncDeliveredUnseen = new AtomicLong();
        private final Inbox inbox;
        private final Duration giveUp;
        /** When the workers stop starting operations: {@code --seconds} after the start, or the stop file. */
        private volatile long deadline;

        private final List<String> problems = new ArrayList<>();

        Load(Map<String, String> flags) throws IOException {
            this.flags = flags;
            try (var r = Files.newBufferedReader(Path.of(need(flags, "setup")))) {
                setup.load(r);
            }
            base = need(flags, "base");
            callsBase = need(flags, "calls-base");
            servers = List.of(need(flags, "servers").split(","));
            int n = Integer.parseInt(setup.getProperty("accounts"));
            for (int i = 0; i < n; i++) {
                keys.add(setup.getProperty("key." + i));
                accountIds.add(Long.parseLong(setup.getProperty("account." + i)));
            }
            inbox = new Inbox(Path.of(need(flags, "sms-inbox")));
            deadline = Long.MAX_VALUE;
            giveUp = Duration.ofSeconds(Long.parseLong(flags.getOrDefault("give-up", "180")));
            SplittableRandom r = new SplittableRandom(11);
            while (cpfs.size() < 2_000) {
                Cpf cpf = Cpf.withCheckDigits(String.format("%09d", 100_000_000 + r.nextInt(800_000_000)));
                if (!SimulatedPersonBureau.hasNothingOn(cpf, Purpose.KYC_CADASTRO)) {
                    cpfs.add(cpf.digits());
                }
            }
            phones.set(10_000_000L + (System.currentTimeMillis() / 1000) % 80_000_000L);
        }

        boolean run() throws Exception {
            HttpServer receiver = receiver(Integer.parseInt(need(flags, "receiver-port")));
            try {
                int seconds = Integer.parseInt(flags.getOrDefault("seconds", "60"));
                double rate = Double.parseDouble(flags.getOrDefault("rate", "30"));
                int workers = Integer.parseInt(flags.getOrDefault("workers", "16"));
                // CNPJs to look up, from paid pages (charged and counted like any page).
                for (String uf : UFS) {
                    op("page", 0, new SplittableRandom(uf.hashCode()), uf);
                }
                if (cnpjs.isEmpty()) {
                    throw new IllegalStateException("no CNPJ in the first pages: is the register served?");
                }
                long start = System.currentTimeMillis();
                Files.writeString(Path.of(need(flags, "started")), Long.toString(start));
                deadline = start + seconds * 1000L;
                long interval = Math.round(workers * 1000.0 / rate);
                System.out.printf(
                        Locale.ROOT, "fleet load: %d workers, %.1f operations/s for %d s%n", workers, rate, seconds);
                try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                    for (int w = 0; w < workers; w++) {
                        int id = w;
                        pool.submit(() -> worker(id, start + id * interval / workers, interval));
                    }
                    pool.submit(() -> progress(start));
                    String stop = flags.get("stop-file");
                    if (stop != null) {
                        pool.submit(() -> stopWhenPresent(Path.of(stop)));
                    }
                }
                System.out.println("fleet load: done; settling exports, SMS and pushes");
                settle();
                return check();
            } finally {
                receiver.stop(0);
            }
        }

        /**
         * Ends the load when {@code stop} appears (the script creates it a minute after its last fault
         * ended, however long the faults took), or at {@code --seconds}, whichever comes first.
         */
        private void stopWhenPresent(Path stop) {
            while (System.currentTimeMillis() < deadline) {
                if (Files.exists(stop)) {
                    deadline = System.currentTimeMillis();
                    return;
                }
                sleep(200);
            }
        }

        private void progress(long start) {
            long last = 0;
            while (System.currentTimeMillis() < deadline) {
                sleep(10_000);
                long now = System.currentTimeMillis();
                long done = ops.stream().filter(o -> o.end() > now - 10_000).count();
                long failed = attempts.stream()
                        .filter(a -> a.end() > now - 10_000 && a.failed())
                        .count();
                System.out.printf(
                        Locale.ROOT,
                        "  t=%3d s  ops %5.1f/s  failed attempts %d%n",
                        (now - start) / 1000,
                        done / 10.0,
                        failed);
                last = now;
            }
        }

        private static final String[] MIX = weighted(Map.ofEntries(
                Map.entry("page", 12),
                Map.entry("count", 10),
                Map.entry("lookup", 20),
                Map.entry("export", 2),
                Map.entry("enrich", 8),
                Map.entry("credit", 5),
                Map.entry("person", 6),
                Map.entry("person-async", 3),
                Map.entry("person-batch", 2),
                Map.entry("sms", 5),
                Map.entry("calls", 10)));

        private static String[] weighted(Map<String, Integer> weights) {
            List<String> out = new ArrayList<>();
            weights.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
                for (int i = 0; i < e.getValue(); i++) {
                    out.add(e.getKey());
                }
            });
            return out.toArray(String[]::new);
        }

        private void worker(int id, long first, long interval) {
            SplittableRandom random = new SplittableRandom(1000 + id);
            long due = first;
            while (due < deadline) {
                long wait = due - System.currentTimeMillis();
                if (wait > 0) {
                    sleep(wait);
                }
                try {
                    op(MIX[random.nextInt(MIX.length)], random.nextInt(keys.size()), random, null);
                } catch (RuntimeException e) {
                    System.out.println("fleet load: an operation failed in the client: " + e);
                }
                long now = System.currentTimeMillis();
                due += interval;
                while (due < now) {
                    due += interval; // a late slot is skipped, not caught up
                }
            }
        }

        private void op(String kind, int account, SplittableRandom random, String ufOrNull) {
            long start = System.currentTimeMillis();
            String key = keys.get(account);
            String uf = ufOrNull != null ? ufOrNull : UFS[random.nextInt(UFS.length)];
            String cnpj = cnpjs.isEmpty() ? null : cnpjs.get(random.nextInt(cnpjs.size()));
            long credits = 0;
            long sms = 0;
            int[] tries = {0};
            Answer a;
            switch (kind) {
                case "page" -> {
                    a = call(
                            tries,
                            "GET",
                            base + "/v1/empresas?ufs=" + uf + "&limite=10&pagina=" + (1 + random.nextInt(5)),
                            null,
                            key,
                            true);
                    if (a.status() == 200 && cnpjs.size() < 5_000) {
                        Matcher m = CNPJ.matcher(a.body());
                        while (m.find()) {
                            cnpjs.add(m.group(1));
                        }
                    }
                }
                case "count" ->
                    a = call(tries, "GET", base + "/v1/empresas?ufs=" + uf + "&apenas_total=true", null, key, true);
                case "lookup" -> a = call(tries, "GET", base + "/v1/empresas/" + cnpj, null, key, false);
                case "enrich" -> a = call(tries, "GET", base + "/v1/enriquecimento/" + cnpj, null, key, true);
                case "credit" ->
                    a = call(
                            tries,
                            "POST",
                            base + "/v1/credito/consultar",
                            "{\"documento\":\"" + cnpj + "\"}",
                            key,
                            true);
                case "person" -> a = call(tries, "POST", base + "/v1/pessoas/consultar", personBody(random), key, true);
                case "person-batch" -> {
                    StringBuilder b = new StringBuilder("{\"finalidade\":\"KYC_CADASTRO\",\"cpfs\":[");
                    for (int i = 0; i < 5; i++) {
                        b.append(i == 0 ? "\"" : ",\"")
                                .append(cpfs.get(random.nextInt(cpfs.size())))
                                .append('"');
                    }
                    a = call(
                            tries,
                            "POST",
                            base + "/v1/pessoas/lote",
                            b.append("]}").toString(),
                            key,
                            true);
                }
                case "person-async" -> {
                    Answer created =
                            call(tries, "POST", base + "/v1/pessoas/consultar-async", personBody(random), key, true);
                    a = created;
                    if (created.status() / 100 == 2) {
                        String job = group(JOB, created.body());
                        long deadline = System.currentTimeMillis() + giveUp.toMillis();
                        long most = 0;
                        while (true) {
                            a = call(tries, "GET", base + "/v1/pessoas/jobs/" + job, null, key, false);
                            most = Math.max(most, number(CREDITS, a.body()));
                            if (a.status() != 200
                                    || "concluido".equals(group(STATUS, a.body()))
                                    || System.currentTimeMillis() > deadline) {
                                break;
                            }
                            sleep(200);
                        }
                        // 15 once per job that was delivered, however often polled: the read that ran the
                        // lookup says 15, later reads 0, and that read's answer may be the one lost.
                        boolean delivered = a.status() == 200 && "concluido".equals(group(STATUS, a.body()));
                        credits += delivered ? 15 : 0;
                        if (delivered && most == 0) {
                            asyncDeliveredUnseen.incrementAndGet();
                        }
                        a = new Answer(a.status(), "", false, a.answered());
                    }
                }
                case "export" -> {
                    a = call(
                            tries,
                            "POST",
                            base + "/v1/mailing",
                            "{\"filtros\":{\"ufs\":[\"" + uf + "\"]},\"quantidade\":20,\"formato\":\"csv\"}",
                            key,
                            true);
                    if (a.status() / 100 == 2) {
                        exports.put(group(JOB, a.body()), account);
                        a = new Answer(a.status(), "", a.replayed(), true); // charged when it ends: counted then
                    }
                }
                case "sms" -> {
                    long serial = phones.incrementAndGet();
                    if (serial % 10_000 == 0) {
                        serial = phones.incrementAndGet(); // a number ending 0000 fails delivery on purpose
                    }
                    String phone = "119" + String.format("%08d", serial % 100_000_000L);
                    a = call(
                            tries,
                            "POST",
                            base + "/v1/sms/otp",
                            "{\"telefone\":\"" + phone + "\",\"validade_segundos\":300}",
                            key,
                            true);
                    if (a.status() / 100 == 2) {
                        sms += number(SMS_CREDITS, a.body());
                        String envio = group(ENVIO, a.body());
                        String code = inbox.await(phone, Duration.ofSeconds(30));
                        Answer v = code == null
                                ? new Answer(0, "", false, false)
                                : call(
                                        tries,
                                        "POST",
                                        base + "/v1/sms/otp/verificar",
                                        "{\"envio_id\":\"" + envio + "\",\"codigo\":\"" + code + "\"}",
                                        key,
                                        false);
                        if (v.status() != 200 || !"verificado".equals(group(STATUS, v.body()))) {
                            synchronized (problems) {
                                if (problems.stream()
                                                .filter(p -> p.startsWith("sms verify"))
                                                .count()
                                        < 5) {
                                    problems.add("sms verify of " + envio + ": " + v.status() + " " + v.body());
                                }
                            }
                        }
                    }
                }
                case "calls" ->
                    a = callWith(
                            tries,
                            "GET",
                            callsBase + "/v1/ligacoes?limite=20",
                            null,
                            "Bearer " + setup.getProperty("calls.token"),
                            false);
                default -> throw new IllegalArgumentException(kind);
            }
            if (a.status() / 100 == 2 && (kind.equals("lookup") || kind.equals("enrich") || kind.equals("credit"))) {
                // Free again the same day (month): a retry whose first attempt charged but lost its answer is
                // told 0, rightly by the rule, so the client owes what the rule says for each document it got.
                reportedDeduplicated.addAndGet(number(CREDITS, a.body()));
                java.time.LocalDate day = java.time.LocalDate.now(java.time.ZoneId.of("America/Sao_Paulo"));
                String period = kind.equals("credit") ? day.withDayOfMonth(1).toString() : day.toString();
                if (owedOnce.add(account + "|" + kind + "|" + cnpj + "|" + period)) {
                    credits += switch (kind) {
                        case "lookup" -> 1;
                        case "enrich" -> 5;
                        default -> 10;
                    };
                }
            } else if (a.status() / 100 == 2 && !kind.equals("person-async") && !kind.equals("export")) {
                credits += number(CREDITS, a.body());
            }
            ops.add(new Op(
                    kind,
                    account,
                    start,
                    System.currentTimeMillis(),
                    tries[0],
                    a.answered(),
                    credits,
                    sms,
                    a.status()));
        }

        private String personBody(SplittableRandom random) {
            return "{\"cpf\":\"" + cpfs.get(random.nextInt(cpfs.size()))
                    + "\",\"finalidade\":\"KYC_CADASTRO\",\"justificativa\":\"Abertura de conta do cliente\"}";
        }

        private Answer call(int[] tries, String method, String url, String body, String key, boolean idempotent) {
            return callWith(tries, method, url, body, "Bearer " + key, idempotent);
        }

        /** One request, retried with the same Idempotency-Key until answered for good or the give-up time. */
        private Answer callWith(int[] tries, String method, String url, String body, String auth, boolean idempotent) {
            String idem = "fleet-" + UUID.randomUUID();
            long deadline = System.currentTimeMillis() + giveUp.toMillis();
            long backoff = 250;
            while (true) {
                tries[0]++;
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .header("Authorization", auth);
                if (idempotent) {
                    b.header("Idempotency-Key", idem);
                }
                if (body != null) {
                    b.header("Content-Type", "application/json")
                            .method(method, HttpRequest.BodyPublishers.ofString(body));
                } else {
                    b.method(method, HttpRequest.BodyPublishers.noBody());
                }
                long start = System.currentTimeMillis();
                int status = 0;
                HttpResponse<String> r = null;
                try {
                    r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                    status = r.statusCode();
                } catch (IOException e) {
                    // no answer: retried
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return new Answer(0, "", false, false);
                }
                long end = System.currentTimeMillis();
                attempts.add(new Attempt(start, end, status));
                boolean retry = status == 0 || status >= 500 || status == 409 || status == 429;
                if (!retry) {
                    boolean replayed =
                            r.headers().firstValue("Idempotent-Replayed").isPresent();
                    if (replayed) {
                        replays.incrementAndGet();
                    }
                    return new Answer(status, r.body(), replayed, true);
                }
                if (end > deadline) {
                    return new Answer(status, r == null ? "" : r.body(), false, false);
                }
                long wait = backoff;
                if (r != null) {
                    wait = r.headers()
                            .firstValue("Retry-After")
                            .map(v -> Math.min(2_000L, Long.parseLong(v.trim()) * 1000))
                            .orElse(backoff);
                }
                sleep(wait);
                backoff = Math.min(2_000, backoff * 2);
            }
        }

        private HttpServer receiver(int port) throws IOException {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
            String token = setup.getProperty("receiver.token");
            s.createContext("/", exchange -> {
                try (InputStream in = exchange.getRequestBody()) {
                    in.readAllBytes();
                }
                int status = 401;
                if (token.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    String id = exchange.getRequestHeaders().getFirst("webhook-id");
                    if (id != null) {
                        received.add(id);
                    }
                    status = 204;
                }
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            s.start();
            return s;
        }

        // ------------------------------------------------------------ settle and check

        private Connection db() throws Exception {
            return DriverManager.getConnection(need(flags, "database"));
        }

        private void settle() throws Exception {
            long deadline = System.currentTimeMillis() + 180_000;
            while (System.currentTimeMillis() < deadline) {
                try (Connection c = db();
                        Statement s = c.createStatement()) {
                    long busy = scalar(s, "SELECT count(*) FROM mailing_jobs WHERE state = 'processando'")
                            + scalar(s, "SELECT count(*) FROM sms_sending")
                            + scalar(s, "SELECT count(*) FROM holds WHERE state = 'HELD'")
                            + scalar(s, "SELECT count(*) FROM call_deliveries WHERE state = 'pendente'");
                    long lag = ingestLag(s);
                    busy += lag > INGEST_LAG_SECONDS ? 1 : 0;
                    if (busy == 0) {
                        return;
                    }
                    System.out.println("fleet settle: " + busy
                            + " exports, sends, holds, deliveries or a lagging call ingest still open");
                } catch (java.sql.SQLException e) {
                    System.out.println("fleet settle: database not answering yet: " + e.getMessage());
                }
                sleep(3_000);
            }
        }

        /** Seconds the least recent call-ingest checkpoint trails the database's clock (999999 when none). */
        private static long ingestLag(Statement s) throws java.sql.SQLException {
            return scalar(
                    s,
                    "SELECT coalesce(max(extract(epoch FROM now() - ingested_until))::bigint, 999999)"
                            + " FROM call_ingest_sources");
        }

        private static long scalar(Statement s, String sql) throws java.sql.SQLException {
            try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
            }
        }

        private boolean check() throws Exception {
            List<String> failures = new ArrayList<>();
            List<Op> all = new ArrayList<>(ops);
            long gaveUp = all.stream().filter(o -> !o.answered()).count();
            if (gaveUp > 0) {
                failures.add(gaveUp + " operations never answered within " + giveUp.toSeconds() + " s");
            }
            // Exports: the final status of each, polled through the balancer; its credits are the client's.
            Map<Integer, Long> exportCredits = new HashMap<>();
            for (Map.Entry<String, Integer> e : exports.entrySet()) {
                int[] tries = {0};
                Answer a = call(tries, "GET", base + "/v1/mailing/" + e.getKey(), null, keys.get(e.getValue()), false);
                String status = group(STATUS, a.body());
                if (!"concluido".equals(status) && !"falhou".equals(status)) {
                    failures.add("export " + e.getKey() + " ended " + status + " (" + a.status() + ")");
                }
                exportCredits.merge(e.getValue(), number(CREDITS, a.body()), Long::sum);
                if ("concluido".equals(status)) {
                    for (String server : servers) {
                        HttpRequest get = HttpRequest.newBuilder(
                                        URI.create(server + "/v1/mailing/" + e.getKey() + "/arquivo"))
                                .header("Authorization", "Bearer " + keys.get(e.getValue()))
                                .build();
                        HttpResponse<byte[]> file = http.send(get, HttpResponse.BodyHandlers.ofByteArray());
                        if (file.statusCode() != 200 || file.body().length == 0) {
                            failures.add("export " + e.getKey() + " not downloadable from " + server + ": "
                                    + file.statusCode());
                        }
                    }
                }
            }
            try (Connection c = db()) {
                for (int i = 0; i < keys.size(); i++) {
                    int account = i;
                    long seen = all.stream()
                                    .filter(o -> o.account() == account)
                                    .mapToLong(Op::credits)
                                    .sum()
                            + exportCredits.getOrDefault(i, 0L);
                    long seenSms = all.stream()
                            .filter(o -> o.account() == account)
                            .mapToLong(Op::sms)
                            .sum();
                    try (var ps = c.prepareStatement("SELECT kind, posted, held FROM balances WHERE account_id = ?")) {
                        ps.setLong(1, accountIds.get(i));
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                boolean credits = rs.getString(1).equals("CREDITS");
                                long expected = (credits ? OPENING_CREDITS - seen : OPENING_SMS - seenSms);
                                long posted = rs.getLong(2);
                                System.out.printf(
                                        Locale.ROOT,
                                        "  account %d %s: opening %d, acknowledged %d, posted %d, held %d%n",
                                        accountIds.get(i),
                                        rs.getString(1),
                                        credits ? OPENING_CREDITS : OPENING_SMS,
                                        credits ? seen : seenSms,
                                        posted,
                                        rs.getLong(3));
                                if (posted != expected) {
                                    failures.add("account " + accountIds.get(i) + " " + rs.getString(1) + ": posted "
                                            + posted + " but opening minus acknowledged is " + expected);
                                }
                                if (rs.getLong(3) != 0 || posted < 0) {
                                    failures.add("account " + accountIds.get(i) + " " + rs.getString(1) + ": held "
                                            + rs.getLong(3) + ", posted " + posted);
                                }
                            }
                        }
                    }
                }
                try (Statement s = c.createStatement()) {
                    long held = scalar(s, "SELECT count(*) FROM holds WHERE state = 'HELD'");
                    if (held != 0) {
                        failures.add(held + " holds still HELD");
                    }
                    long negative =
                            scalar(s, "SELECT count(*) FROM balances WHERE posted < 0 OR held < 0 OR posted < held");
                    if (negative != 0) {
                        failures.add(negative + " balances negative or over-held");
                    }
                    long open =
                            scalar(s, "SELECT count(*) FROM mailing_jobs WHERE state NOT IN ('concluido', 'falhou')");
                    if (open != 0) {
                        failures.add(open + " exports neither concluido nor falhou");
                    }
                    long unsettledExports = scalar(
                            s,
                            "SELECT count(*) FROM mailing_jobs j JOIN holds h"
                                    + " ON h.account_id = j.account_id AND h.idem_key = j.hold_key WHERE h.state = 'HELD'");
                    if (unsettledExports != 0) {
                        failures.add(unsettledExports + " exports with their hold still open");
                    }
                    long sending = scalar(s, "SELECT count(*) FROM sms_sending");
                    if (sending != 0) {
                        failures.add(sending + " SMS dispatches still sending");
                    }
                    long audit = scalar(s, "SELECT count(*) FROM person_audit");
                    long personCharges = scalar(
                            s,
                            "SELECT count(*) FROM ledger_entries WHERE type = 'CHARGE'"
                                    + " AND (idem_key LIKE 'person:%' OR idem_key LIKE 'person-job:%' OR idem_key LIKE 'person-batch:%')");
                    System.out.println("  person audit rows " + audit + ", person charges " + personCharges);
                    if (audit != personCharges) {
                        failures.add("person audit rows " + audit + " but person charges " + personCharges);
                    }
                    List<String> undelivered = new ArrayList<>();
                    long deliveries = 0;
                    try (ResultSet rs = s.executeQuery("SELECT webhook_id, state FROM call_deliveries")) {
                        while (rs.next()) {
                            deliveries++;
                            if (!rs.getString(2).equals("entregue") || !received.contains(rs.getString(1))) {
                                undelivered.add(rs.getString(1) + " " + rs.getString(2));
                            }
                        }
                    }
                    System.out.println("  push deliveries " + deliveries + ", webhook ids received " + received.size());
                    if (deliveries == 0) {
                        failures.add("no push delivery at all: the simulated exchange ingested nothing");
                    }
                    // Ingest must outlive the faults: a server killed (or a database lost) in the middle
                    // of a tick leaves its lease behind, and another server takes the source only when
                    // that lease has run out. A checkpoint far behind the clock means the feed stopped.
                    long lag = ingestLag(s);
                    System.out.println("  call ingest checkpoint " + lag + " s behind the database's clock");
                    if (lag > INGEST_LAG_SECONDS) {
                        failures.add("the call ingest stopped: its checkpoint is " + lag + " s behind (at most "
                                + INGEST_LAG_SECONDS + " s expected)");
                    }
                    if (!undelivered.isEmpty()) {
                        failures.add(undelivered.size() + " push deliveries not received, e.g. "
                                + undelivered.subList(0, Math.min(3, undelivered.size())));
                    }
                }
            }
            failures.addAll(problems);
            long ruled = all.stream()
                    .filter(o -> o.kind().equals("lookup")
                            || o.kind().equals("enrich")
                            || o.kind().equals("credit"))
                    .mapToLong(Op::credits)
                    .sum();
            System.out.println("  lookups, enrichments and credit reports: " + ruled + " credits by the rules, "
                    + reportedDeduplicated.get() + " said by their answers; async jobs delivered by a read whose answer"
                    + " was lost: " + asyncDeliveredUnseen.get());
            figures(all);
            dump(all);
            System.out.println();
            if (failures.isEmpty()) {
                System.out.println("INVARIANTS: all hold (" + all.size() + " operations, " + attempts.size()
                        + " attempts, " + replays.get() + " idempotent replays, " + exports.size() + " exports)");
                System.out.println(
                        "  the credits charged equal the credits acknowledged, by the rules, for every account");
                return true;
            }
            System.out.println("INVARIANTS: " + failures.size() + " FAILED");
            failures.forEach(f -> System.out.println("  FAILED " + f));
            return false;
        }

        private void figures(List<Op> all) throws IOException {
            Path events = Path.of(need(flags, "events"));
            if (!Files.exists(events)) {
                return;
            }
            Map<String, long[]> faults = new LinkedHashMap<>();
            for (String line : Files.readAllLines(events)) {
                String[] f = line.trim().split(" ", 3);
                if (f.length == 3) {
                    long[] span = faults.computeIfAbsent(f[2], k -> new long[] {0, 0});
                    span[f[1].equals("start") ? 0 : 1] = Long.parseLong(f[0]);
                }
            }
            List<Attempt> tries = new ArrayList<>(attempts);
            long runEnd = all.stream().mapToLong(Op::end).max().orElse(0);
            List<Map.Entry<String, long[]>> list = new ArrayList<>(faults.entrySet());
            System.out.println();
            System.out.println(
                    "| Fault | Lasted (s) | Attempts 5xx / unanswered | Recovered after (s) | Longest operation (s, async jobs aside) | Ops/s before | Ops/s 40-60 s after | Within 10% of before after (s) |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            for (int i = 0; i < list.size(); i++) {
                long start = list.get(i).getValue()[0];
                long end = Math.max(start, list.get(i).getValue()[1]);
                long next = i + 1 < list.size() ? list.get(i + 1).getValue()[0] : runEnd;
                long fives = tries.stream()
                        .filter(a -> a.start() >= start && a.end() < next && a.status() >= 500)
                        .count();
                long none = tries.stream()
                        .filter(a -> a.start() >= start && a.end() < next && a.status() == 0)
                        .count();
                long lastFail = tries.stream()
                        .filter(a -> a.start() >= start && a.end() < next && a.failed())
                        .mapToLong(Attempt::end)
                        .max()
                        .orElse(start);
                long longest = all.stream()
                        .filter(o ->
                                o.end() >= start && o.end() < next && !o.kind().equals("person-async"))
                        .mapToLong(o -> o.end() - o.start())
                        .max()
                        .orElse(0);
                double before = rate(all, start - 20_000, start);
                double after = rate(all, end + 40_000, end + 60_000);
                // The first 10 s window, starting at the fault's end or later, at 90% of the rate before.
                String back = "(run ended)";
                for (long t = end; t + 10_000 <= Math.min(runEnd, next); t += 1_000) {
                    if (rate(all, t, t + 10_000) >= 0.9 * before) {
                        back = String.format(Locale.ROOT, "%.0f", (t - end) / 1000.0);
                        break;
                    }
                    back = "not before the next fault";
                }
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %.1f | %d / %d | %.1f | %.1f | %.1f | %s | %s |%n",
                        list.get(i).getKey(),
                        (end - start) / 1000.0,
                        fives,
                        none,
                        (lastFail - start) / 1000.0,
                        longest / 1000.0,
                        before,
                        end + 60_000 <= runEnd ? String.format(Locale.ROOT, "%.1f", after) : "(run ended)",
                        back);
            }
            Map<String, long[]> byKind = new java.util.TreeMap<>();
            for (Op o : all) {
                long[] k = byKind.computeIfAbsent(o.kind(), x -> new long[3]);
                k[0]++;
                k[1] += o.attempts() - 1;
                k[2] += o.status() / 100 == 2 ? 0 : 1;
            }
            System.out.println();
            System.out.println("| Operation | Count | Retries | Final answer not 2xx |");
            System.out.println("|---|---|---|---|");
            byKind.forEach((k, v) -> System.out.printf(Locale.ROOT, "| %s | %d | %d | %d |%n", k, v[0], v[1], v[2]));
        }

        /** Every operation and attempt, for a second look at a run. */
        private void dump(List<Op> all) throws IOException {
            Path dir = Path.of(need(flags, "events")).getParent();
            List<String> lines = new ArrayList<>();
            lines.add("kind\taccount\tstart_ms\tend_ms\ttries\tanswered\tcredits\tsms\tstatus");
            for (Op o : all) {
                lines.add(o.kind() + "\t" + o.account() + "\t" + o.start() + "\t" + o.end() + "\t" + o.attempts() + "\t"
                        + o.answered() + "\t" + o.credits() + "\t" + o.sms() + "\t" + o.status());
            }
            Files.write(dir.resolve("ops.tsv"), lines);
            lines.clear();
            lines.add("start_ms\tend_ms\tstatus");
            for (Attempt a : attempts) {
                lines.add(a.start() + "\t" + a.end() + "\t" + a.status());
            }
            Files.write(dir.resolve("attempts.tsv"), lines);
        }

        private static double rate(List<Op> all, long from, long to) {
            return all.stream()
                            .filter(o -> o.end() >= from && o.end() < to && o.answered())
                            .count()
                    * 1000.0
                    / (to - from);
        }
    }

    /** The simulated SMS provider's inbox file, shared by the servers: the last code sent to each phone. */
    static final class Inbox {
        private final Path file;
        private final Map<String, String> codes = new ConcurrentHashMap<>();
        private long offset;

        Inbox(Path file) {
            this.file = file;
        }

        String await(String phone, Duration within) {
            long deadline = System.currentTimeMillis() + within.toMillis();
            while (System.currentTimeMillis() < deadline) {
                String code = codes.get(phone);
                if (code != null) {
                    return code;
                }
                read();
                code = codes.get(phone);
                if (code != null) {
                    return code;
                }
                sleep(100);
            }
            return null;
        }

        private synchronized void read() {
            if (!Files.exists(file)) {
                return;
            }
            try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
                if (f.length() < offset) {
                    offset = 0; // rotated
                }
                f.seek(offset);
                byte[] rest = new byte[(int) (f.length() - offset)];
                f.readFully(rest);
                String text = new String(rest, StandardCharsets.UTF_8);
                int complete = text.lastIndexOf('\n') + 1;
                for (String line : text.substring(0, complete).split("\n")) {
                    String[] fields = line.split("\t", 4);
                    if (fields.length == 4) {
                        Matcher m = CODE.matcher(fields[3]);
                        if (m.find()) {
                            codes.put(fields[1], m.group(1));
                        }
                    }
                }
                offset += text.substring(0, complete).getBytes(StandardCharsets.UTF_8).length;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String group(Pattern p, String body) {
        Matcher m = p.matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : null;
    }

    private static long number(Pattern p, String body) {
        String g = group(p, body);
        return g == null ? 0 : Long.parseLong(g);
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
