package dev.cadastro.benchmarks.http;

import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.sms.SmsGateway;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.providers.GuardedProviders;
import dev.cadastro.providers.ProviderGuard;
import dev.cadastro.providers.ProviderPolicy;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.DemoSetup;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.server.SmsOptions;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load test of SMS one-time codes through a real socket: each of {@code --connections} clients (a
 * virtual thread, or a platform thread with {@code --client-threads platform}, with its own keep-alive
 * {@link RawHttpConnection}) repeats a pair, {@code POST
 * /v1/sms/otp} then {@code POST /v1/sms/otp/verificar} with the right code, against {@link
 * CadastroServer} on an embedded PostgreSQL. The path measured is the production one: admission (key
 * and rate limit in one statement), {@code SmsEndpoints}, {@code OtpService} (SecureRandom code,
 * HMAC-SHA256), {@code PgOtpStore.begin} (the phone's advisory lock and throttle read, the ledger hold
 * and the dispatch insert in one transaction), the provider under its {@code ProviderGuard} (virtual
 * thread, bulkhead, breaker), {@code accepted} (the hold posted with the dispatch), then the check (a read
 * of the dispatch and its MAC, the constant-time compare, one UPDATE counting the attempt and marking
 * it verified).
 *
 * <p>The provider is instant: it keeps each message's code in memory for the client, playing the
 * phone; so what is measured is our own path. Every pair uses a phone not used before in the run (the
 * contract's 30-second limit would otherwise refuse it), and the clients spread over {@code --accounts}
 * accounts: with 1, every hold and post of the run takes turns on one SMS balance row, as one big
 * customer's traffic would. After the run each account's SMS balance must equal its top-up minus the
 * pairs it completed, and every check must have answered {@code valido: true}.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.http.SmsOtpLoad
 * [--home DIR] [--connections 64] [--seconds 20] [--warmup 30] [--accounts 64] [--pool N] [--durable true|false] [--admission-batch true|false] [--admission-queues N] [--rate PAIRS_PER_SECOND] [--timeline true|false] [--client-threads virtual|platform]}
 * ({@code --warmup}: 30 s by default; after 5 s the JIT was still compiling the server's path when the
 * measured seconds began: benchmarks/history/2026-11-24-sms.md, "sms: an open loop and a longer warm-up")
 * ({@code --rate}: an open loop instead of the closed one: the pairs are started on a fixed schedule,
 * {@code rate} a second over all connections (each connection every {@code connections / rate}
 * seconds), and a pair's time counts from the moment it was due, not from when a busy connection got
 * to it, so a server that falls behind shows it in the percentiles (no coordinated omission). With a
 * closed loop the mean pair time is {@code connections / throughput} by construction; the open loop
 * answers what the tail is at a given load.)
 * ({@code --pool}: the store's connection pool, by default the store's own default as {@code ./cadastro serve}
 * runs; {@code --durable false}: commits do not wait for the WAL flush, a diagnostic that shows what the
 * flushes cost, never how the server runs; {@code --admission-batch true}: admissions in shared commits,
 * ADR 0031, on by default as in the server ({@code false} admits each request alone); {@code
 * --admission-queues}: on how many queues, by default the store's; {@code --client-threads}: the
 * clients on virtual threads, by default, or on platform threads of their own, whose CPU a per-thread
 * reading then tells apart from the server's: the clients share the server's two cores). Each client
 * keeps one connection from the warm-up to the end, as real clients keep theirs. The first run generates and loads a
 * 2,000-establishment register under {@code benchmarks/data/sms} (the server needs one; SMS does not
 * read it).
 */
public final class SmsOtpLoad {
    private static final Pattern CODE = Pattern.compile("e ([0-9]{4,8})\\.");
    private static final Pattern ENVIO = Pattern.compile("\"envio_id\":\"([^\"]+)\"");
    private static final long INITIAL_SMS = 1_000_000_000L;

    private record Outcome(
            String label, long pairs, long errors, double perSecond, long[] pair, long[] send, long[] check) {}

    public static void main(String[] args) throws Exception {
        LoadRun load = LoadRun.parse(
                args,
                Path.of("benchmarks/data/sms"),
                20,
                30,
                List.of(
                        "--accounts",
                        "--pool",
                        "--durable",
                        "--admission-batch",
                        "--admission-queues",
                        "--rate",
                        "--timeline",
                        "--client-threads"));
        Path home = load.home();
        int connections = load.connections();
        int seconds = load.seconds();
        int warmup = load.warmup();
        int accounts = load.integer("--accounts", 64);
        int pool = load.integer("--pool", 0);
        boolean durable = load.bool("--durable", true);
        boolean admissionBatch = load.bool("--admission-batch", true);
        int admissionQueues = load.integer("--admission-queues", 0);
        double rate = load.decimal("--rate", 0);
        boolean timeline = load.bool("--timeline", false);
        String clientThreads = load.text("--client-threads", "virtual");
        boolean platformClients = switch (clientThreads) {
            case "virtual" -> false;
            case "platform" -> true;
            default ->
                throw new IllegalArgumentException("--client-threads is virtual or platform, not " + clientThreads);
        };
        PrintStream out = System.out;
        DemoSetup data = new DemoSetup(home);
        data.ensureIndex(2_000, out);
        Clock clock = Clock.systemUTC();
        Map<String, String> phoneInbox = new ConcurrentHashMap<>();
        SmsGateway instant = message -> {
            Matcher m = CODE.matcher(message.text());
            if (!m.find()) {
                throw new IllegalStateException("no code in the message " + message);
            }
            phoneInbox.put(message.reference(), m.group(1));
            return "instant-" + message.reference();
        };
        SmsGateway guarded = GuardedProviders.guard(instant, ProviderGuard.of("sms", ProviderPolicy.defaults()));
        Database.Builder db = Database.builder()
                .embedded(data.database())
                .durableCommits(durable)
                .admissionGroupCommit(admissionBatch);
        if (pool > 0) {
            db.poolSize(pool);
        }
        if (admissionQueues > 0) {
            db.admissionQueues(admissionQueues);
        }
        Database database = db.build();
        try (CadastroServer server = CadastroServer.start(EngineConfig.builder(data.index(), database)
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(10_000_000))
                .clock(clock)
                .sms(SmsOptions.under(home).withGateway(guarded))
                .build())) {
            List<LoadClient> clients = LoadClient.create(
                    server.store(),
                    clock,
                    accounts,
                    "sms bench",
                    CreditKind.SMS_CREDITS,
                    INITIAL_SMS,
                    EnumSet.of(Scope.SMS_OTP));
            // One keep-alive connection per client for the whole run, as real clients keep theirs, so the
            // measured seconds do not begin with 64 new connections. A client whose connection fails
            // stops for the rest of its phase (counted as an error) and reconnects in the next.
            RawHttpConnection[] raws = new RawHttpConnection[connections];
            for (int i = 0; i < connections; i++) {
                raws[i] = new RawHttpConnection(server.port());
            }
            out.printf(
                    "SMS OTP load: %d connections, %d accounts, %d s after %d s warm-up, pool %d, durable %s,"
                            + " admission batch %s on %d queue(s), %s, clients on %s threads, %d CPUs, JDK %s%n",
                    connections,
                    accounts,
                    seconds,
                    warmup,
                    database.poolSize(),
                    durable,
                    admissionBatch,
                    database.admissionQueues(),
                    rate > 0 ? String.format("open loop at %.0f pairs/s", rate) : "closed loop",
                    platformClients ? "platform" : "virtual",
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version());
            try {
                Map<LoadClient, LongAdder> sent = LoadClient.counters(clients);
                AtomicLong phones = new AtomicLong(System.nanoTime() % 10_000_000);
                run(
                        raws,
                        clients,
                        sent,
                        phones,
                        phoneInbox,
                        connections,
                        warmup,
                        rate,
                        "warm-up",
                        false,
                        platformClients);
                Outcome o = run(
                        raws,
                        clients,
                        sent,
                        phones,
                        phoneInbox,
                        connections,
                        seconds,
                        rate,
                        "send+verify",
                        timeline,
                        platformClients);
                out.println();
                out.println("| run | pairs | errors | pairs/s | pair p50 ms | pair p90 ms | pair p99 ms | pair max ms |"
                        + " send p99 ms | verify p99 ms |");
                out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
                out.printf(
                        "| %d conns, %d accounts | %d | %d | %.0f | %.2f | %.2f | %.2f | %.1f | %.2f | %.2f |%n",
                        connections,
                        accounts,
                        o.pairs(),
                        o.errors(),
                        o.perSecond(),
                        pct(o.pair(), 0.50),
                        pct(o.pair(), 0.90),
                        pct(o.pair(), 0.99),
                        o.pair().length == 0 ? 0 : o.pair()[o.pair().length - 1] / 1000.0,
                        pct(o.send(), 0.99),
                        pct(o.check(), 0.99));
                LedgerCrossCheck check = LedgerCrossCheck.of(
                        server.store().ledger(), CreditKind.SMS_CREDITS, INITIAL_SMS, clients, sent, out);
                out.printf(
                        "ledger: %d SMS credits charged for %d accepted sends, %d mismatches%n",
                        check.charged(), check.charged(), check.mismatches());
                // Fails the run when an account differs, the connections closed first (finally).
                check.failOnMismatch("SMS balances differ from the sends they were answered");
            } finally {
                for (RawHttpConnection raw : raws) {
                    raw.close();
                }
            }
        }
    }

    private static Outcome run(
            RawHttpConnection[] raws,
            List<LoadClient> clients,
            Map<LoadClient, LongAdder> sent,
            AtomicLong phones,
            Map<String, String> inbox,
            int connections,
            int seconds,
            double rate,
            String label,
            boolean timeline,
            boolean platformClients)
            throws InterruptedException {
        long start = System.nanoTime();
        long end = start + Duration.ofSeconds(seconds).toNanos();
        // Open loop: connection t's k-th pair is due at start + (t + k * connections) / rate seconds.
        long interval = rate > 0 ? Math.round(connections * 1e9 / rate) : 0;
        long[][] pairs = new long[connections][];
        long[][] sends = new long[connections][];
        long[][] checks = new long[connections][];
        long[][] starts = new long[connections][];
        int[] counts = new int[connections];
        LongAdder errors = new LongAdder();
        LongAdder notStarted = new LongAdder();
        Map<String, LongAdder> failures = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(connections);
        try (ExecutorService threads = platformClients
                ? Executors.newThreadPerTaskExecutor(
                        Thread.ofPlatform().name("sms-client-", 0).factory())
                : Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < connections; t++) {
                int id = t;
                threads.submit(() -> {
                    LoadClient client = clients.get(id % clients.size());
                    String auth = "Bearer " + client.key();
                    long[] p = new long[1 << 15];
                    long[] s = new long[1 << 15];
                    long[] c = new long[1 << 15];
                    long[] at = new long[1 << 15];
                    int n = 0;
                    long due = start + (rate > 0 ? Math.round(id * 1e9 / rate) : 0);
                    RawHttpConnection raw = raws[id];
                    try {
                        while (true) {
                            if (rate > 0) {
                                // parkNanos may return early: never start a pair before it is due.
                                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                                    LockSupport.parkNanos(wait);
                                }
                            }
                            if (System.nanoTime() >= end || (rate > 0 && due >= end)) {
                                break;
                            }
                            // 11 9XXXX-XXXX: a phone not used before in the run, so its limits never refuse.
                            long serial = phones.incrementAndGet() % 100_000_000L;
                            String phone = "119" + String.format("%08d", serial == 0 ? 1 : serial);
                            long t0 = rate > 0 ? due : System.nanoTime();
                            due += interval;
                            RawHttpConnection.Answer a = raw.post(
                                    "/v1/sms/otp", auth, "{\"telefone\":\"" + phone + "\",\"validade_segundos\":300}");
                            long t1 = System.nanoTime();
                            if (a.status() != 200) {
                                errors.increment();
                                failures.computeIfAbsent("send " + a.status(), k -> new LongAdder())
                                        .increment();
                                continue;
                            }
                            sent.get(client).increment();
                            Matcher m = ENVIO.matcher(a.body());
                            if (!m.find()) {
                                errors.increment();
                                continue;
                            }
                            String envio = m.group(1);
                            String code = inbox.remove(envio);
                            long t2 = System.nanoTime();
                            RawHttpConnection.Answer v = raw.post(
                                    "/v1/sms/otp/verificar",
                                    auth,
                                    "{\"envio_id\":\"" + envio + "\",\"codigo\":\"" + code + "\"}");
                            long t3 = System.nanoTime();
                            if (v.status() != 200 || !v.body().contains("\"valido\":true")) {
                                errors.increment();
                                failures.computeIfAbsent("verify " + v.status(), k -> new LongAdder())
                                        .increment();
                                continue;
                            }
                            if (n == p.length) {
                                p = Arrays.copyOf(p, n * 2);
                                s = Arrays.copyOf(s, n * 2);
                                c = Arrays.copyOf(c, n * 2);
                                at = Arrays.copyOf(at, n * 2);
                            }
                            at[n] = (t0 - start) / 1_000_000;
                            s[n] = (t1 - t0) / 1000;
                            c[n] = (t3 - t2) / 1000;
                            p[n++] = (t1 - t0 + t3 - t2) / 1000;
                        }
                    } catch (IOException e) {
                        errors.increment();
                        failures.computeIfAbsent(e.toString(), k -> new LongAdder())
                                .increment();
                    } finally {
                        // Open loop: the pairs due before the end that this connection never started (it was
                        // behind, or its connection failed) are the slowest of all; they are counted, not timed.
                        for (; rate > 0 && due < end; due += interval) {
                            notStarted.increment();
                        }
                        pairs[id] = p;
                        sends[id] = s;
                        checks[id] = c;
                        starts[id] = at;
                        counts[id] = n;
                        done.countDown();
                    }
                    return null;
                });
            }
            done.await();
        }
        if (timeline) {
            timeline(pairs, starts, counts, seconds);
        }
        long[] pair = merge(pairs, counts);
        Outcome o = new Outcome(
                label,
                pair.length,
                errors.sum(),
                pair.length / (double) seconds,
                pair,
                merge(sends, counts),
                merge(checks, counts));
        System.out.printf(
                "%-12s %8d pairs %6.0f pairs/s p50 %.2f ms p99 %.2f ms errors %d %s%s%n",
                label,
                o.pairs(),
                o.perSecond(),
                pct(pair, 0.5),
                pct(pair, 0.99),
                o.errors(),
                failures,
                rate > 0
                        ? String.format(
                                "; open loop: %d pairs due but not started (not in the percentiles);"
                                        + " pair and send times count from each pair's due moment",
                                notStarted.sum())
                        : "");
        return o;
    }

    /**
     * {@code --timeline true}: the measured run second by second, by the second each pair was due (open
     * loop) or started (closed loop): how many, and their p50, p99 and max. A tail made of a few slow
     * seconds (a pause of the host or the server, autovacuum) looks different here from one spread over
     * the whole run.
     */
    private static void timeline(long[][] pairs, long[][] starts, int[] counts, int seconds) {
        List<List<Long>> bySecond = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            bySecond.add(new ArrayList<>());
        }
        for (int i = 0; i < counts.length; i++) {
            for (int k = 0; k < counts[i]; k++) {
                int s = (int) Math.min(seconds - 1, Math.max(0, starts[i][k] / 1000));
                bySecond.get(s).add(pairs[i][k]);
            }
        }
        System.out.println("second | pairs | p50 ms | p99 ms | max ms");
        for (int s = 0; s < seconds; s++) {
            long[] sorted =
                    bySecond.get(s).stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(
                    "%6d | %5d | %6.1f | %6.1f | %6.1f%n",
                    s,
                    sorted.length,
                    pct(sorted, 0.5),
                    pct(sorted, 0.99),
                    sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1000.0);
        }
    }

    private static long[] merge(long[][] parts, int[] counts) {
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        long[] all = new long[total];
        int at = 0;
        for (int i = 0; i < parts.length; i++) {
            System.arraycopy(parts[i], 0, all, at, counts[i]);
            at += counts[i];
        }
        Arrays.sort(all);
        return all;
    }

    private static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1000.0;
    }
}
