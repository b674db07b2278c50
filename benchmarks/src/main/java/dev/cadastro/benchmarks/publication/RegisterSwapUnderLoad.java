package dev.cadastro.benchmarks.publication;

import dev.cadastro.benchmarks.Flags;
import dev.cadastro.benchmarks.register.BuildSyntheticIndex;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.register.publication.IndexPublisher;
import dev.cadastro.register.publication.PublishOptions;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.s3.testing.S3ProxyFixture;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.server.MailingOptions;
import dev.cadastro.store.Database;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A generation swapped in under load: the production path of a server that follows a register in an
 * object store ({@code serve --index s3://... --index-cache DIR}: {@code IndexFollower} over {@link
 * S3FileStore} from s3proxy on loopback, {@code LuceneRegister.refresh()}), the whole company-data path
 * behind it ({@link CadastroServer}: Jetty, admission and ledger on an embedded PostgreSQL), and
 * {@code --connections} clients (64) of lookups ({@code GET /v1/empresas/{cnpj}}) and pages of 50
 * ({@code GET /v1/empresas?ufs=..&limite=50}), half each. After a warm-up and a steady window, the
 * store's pointer moves to the next generation (published beforehand, as a builder machine would); the
 * server downloads it beside the open one (on the same two cores as the load), verifies and swaps it.
 * Reported: errors (any status but 200, or a failed request), and the p50/p99 of the requests started
 * in the steady window, during the swap (pointer moved to swap done) and after.
 *
 * <p>Usage: {@code java -Xmx3g -cp benchmarks/target/benchmarks.jar
 * dev.cadastro.benchmarks.publication.RegisterSwapUnderLoad [--home DIR] [--establishments N]
 * [--connections 64] [--warmup 10] [--steady 20] [--after 10] [--background-parallelism 2]} (ranged reads in
 * flight during the swap).
 */
public final class RegisterSwapUnderLoad {
    private RegisterSwapUnderLoad() {}

    private record Sample(long start, long nanos, boolean ok) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = Flags.pairs(args);
        Path home = Path.of(o.getOrDefault("--home", "benchmarks/data/swap"));
        long n = Long.parseLong(o.getOrDefault("--establishments", "1000000"));
        int connections = Integer.parseInt(o.getOrDefault("--connections", "64"));
        int warmup = Integer.parseInt(o.getOrDefault("--warmup", "10"));
        int steady = Integer.parseInt(o.getOrDefault("--steady", "20"));
        int after = Integer.parseInt(o.getOrDefault("--after", "10"));
        int background = Integer.parseInt(o.getOrDefault(
                "--background-parallelism", Integer.toString(FollowOptions.DEFAULT_BACKGROUND_PARALLELISM)));
        Path root = home.resolve("index");
        if (!Files.exists(root.resolve("CURRENT"))) {
            BuildSyntheticIndex.main(new String[] {root.toString(), Long.toString(n), "2"});
        }
        for (String d : List.of("s3", "cache", "db", "files")) {
            RegisterBootstrap.deleteTree(home.resolve(d));
        }
        try (S3ProxyFixture s3 = S3ProxyFixture.start(home.resolve("s3"))) {
            s3.createBucket("bench");
            S3Location location = S3Location.parse("--index", "s3://bench/register");
            try (S3FileStore store = S3FileStore.open(s3.connection(), location)) {
                // Two generations in the store (the second the same files under the next number), the
                // pointer put back on the first: moving it is the builder's last step, done under load.
                IndexPublisher.publish(root, store, "", PublishOptions.defaults());
                byte[] first = read(store, "CURRENT");
                IndexPublisher.publish(root, store, "", PublishOptions.defaults());
                byte[] second = read(store, "CURRENT");
                write(store, "CURRENT", first);
                long bytes = RegisterBootstrap.sizeOf(dev.cadastro.register.LuceneRegister.currentGeneration(root)
                        .orElseThrow()
                        .path());
                Database db = Database.builder()
                        .embedded(home.resolve("db"))
                        .durableCommits(false)
                        .build();
                try (CadastroServer server = CadastroServer.start(EngineConfig.builder(home.resolve("cache"), db)
                        .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                        .runtime(RuntimeOptions.defaults())
                        .requestsPerMinute(OptionalLong.of(10_000_000))
                        .clock(Clock.systemUTC())
                        .files(home.resolve("files"))
                        .mailing(MailingOptions.defaults())
                        .following(
                                store,
                                "",
                                FollowOptions.defaults()
                                        .withPoll(Duration.ofSeconds(1))
                                        .withBackgroundParallelism(background))
                        .build())) {
                    long ready = System.nanoTime();
                    while (true) {
                        try {
                            server.register().published();
                            break;
                        } catch (IllegalStateException notYet) {
                            Thread.sleep(50);
                        }
                    }
                    System.out.printf(
                            Locale.ROOT,
                            "first generation (%,d bytes) open in %.1f s%n",
                            bytes,
                            (System.nanoTime() - ready) / 1e9);
                    run(server, store, second, connections, warmup, steady, after);
                }
            }
        }
    }

    private static void run(
            CadastroServer server, S3FileStore store, byte[] second, int connections, int warmup, int steady, int after)
            throws Exception {
        List<String> keys = new ArrayList<>();
        ApiKeyIssuer issuer = new ApiKeyIssuer(
                server.store().accounts(), server.store().apiKeys(), Clock.systemUTC(), new SecureRandom());
        for (int i = 0; i < connections; i++) {
            Account a = server.store().accounts().create("swap " + i, new Plan("bench", 1_000_000_000));
            server.store()
                    .ledger()
                    .topUp(a.id(), CreditKind.CREDITS, 1_000_000_000_000L, IdempotencyKey.of("swap:" + i), "bench");
            keys.add(issuer.issue(a.id(), "bench", EnumSet.of(Scope.EMPRESAS_READ))
                    .secret());
        }
        String[] ufs = {"SP", "RJ", "MG", "BA", "RS", "PR", "PE", "CE", "SC", "GO"};
        List<String> cnpjs = new ArrayList<>();
        for (String uf : ufs) {
            for (Empresa e : server.register()
                    .search(SearchParameters.parse(Map.of("ufs", List.of(uf), "limite", List.of("200"))))
                    .dados()) {
                cnpjs.add(e.cnpj());
            }
        }
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        String base = "http://127.0.0.1:" + server.port();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
        AtomicLong errors = new AtomicLong();
        ConcurrentLinkedQueue<String> errorTexts = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            String key = keys.get(c);
            threads.add(Thread.ofVirtual().start(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (long i = 0; !stop.get(); i++) {
                    String path = i % 2 == 0
                            ? "/v1/empresas/" + cnpjs.get(rnd.nextInt(cnpjs.size()))
                            : "/v1/empresas?ufs=" + ufs[rnd.nextInt(ufs.length)] + "&limite=50&pagina="
                                    + (1 + rnd.nextInt(5));
                    long t0 = System.nanoTime();
                    boolean ok;
                    try {
                        HttpResponse<Void> r = client.send(
                                HttpRequest.newBuilder(URI.create(base + path))
                                        .header("Authorization", "Bearer " + key)
                                        .timeout(Duration.ofSeconds(30))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding());
                        ok = r.statusCode() == 200;
                        if (!ok && errorTexts.size() < 5) {
                            errorTexts.add(path + " -> " + r.statusCode());
                        }
                    } catch (Exception e) {
                        ok = false;
                        if (errorTexts.size() < 5) {
                            errorTexts.add(path + " -> " + e);
                        }
                    }
                    if (!ok) {
                        errors.incrementAndGet();
                    }
                    samples.add(new Sample(t0, System.nanoTime() - t0, ok));
                }
            }));
        }
        Thread.sleep(warmup * 1000L);
        long steadyStart = System.nanoTime();
        Thread.sleep(steady * 1000L);
        long published = System.nanoTime();
        write(store, "CURRENT", second);
        long deadline = published + Duration.ofMinutes(5).toNanos();
        while (server.register().published().generation() != 2) {
            if (System.nanoTime() > deadline) {
                stop.set(true);
                throw new IllegalStateException("generation 2 was not swapped in within 5 minutes");
            }
            Thread.sleep(20);
        }
        long swapped = System.nanoTime();
        Thread.sleep(after * 1000L);
        long end = System.nanoTime();
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        System.out.printf(
                Locale.ROOT,
                "%d connections; pointer moved, generation fetched, verified and swapped in %.1f s; errors %d%s%n",
                connections,
                (swapped - published) / 1e9,
                errors.get(),
                errorTexts.isEmpty() ? "" : " " + errorTexts);
        System.out.println("| window | requests | req/s | errors | p50 ms | p99 ms | max ms |");
        System.out.println("|---|---|---|---|---|---|---|");
        long[] steadyStats = window(samples, "steady", steadyStart, published);
        long[] swapStats = window(samples, "swap", published, swapped);
        window(samples, "after", swapped, end);
        System.out.printf(
                Locale.ROOT,
                "p99 during the swap / steady p99: %.2f%n",
                (double) swapStats[1] / Math.max(1, steadyStats[1]));
    }

    /** Prints the window's row; returns {p50, p99} in microseconds. */
    private static long[] window(ConcurrentLinkedQueue<Sample> samples, String name, long from, long to) {
        List<Sample> in = samples.stream()
                .filter(s -> s.start() >= from && s.start() < to)
                .toList();
        long[] lat = in.stream().mapToLong(Sample::nanos).toArray();
        Arrays.sort(lat);
        long errs = in.stream().filter(s -> !s.ok()).count();
        long p50 = lat.length == 0 ? 0 : lat[lat.length / 2] / 1000;
        long p99 = lat.length == 0 ? 0 : lat[(int) Math.min(lat.length - 1, Math.floor(lat.length * 0.99))] / 1000;
        long max = lat.length == 0 ? 0 : lat[lat.length - 1] / 1000;
        double seconds = (to - from) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "| %s (%.1f s) | %d | %.0f | %d | %.1f | %.1f | %.1f |%n",
                name,
                seconds,
                lat.length,
                lat.length / seconds,
                errs,
                p50 / 1000.0,
                p99 / 1000.0,
                max / 1000.0);
        return new long[] {p50, p99};
    }

    private static byte[] read(S3FileStore store, String key) throws Exception {
        try (var d = store.open(key).orElseThrow();
                var in = d.stream()) {
            return in.readAllBytes();
        }
    }

    private static void write(S3FileStore store, String key, byte[] bytes) throws Exception {
        try (var up = store.create(key)) {
            up.stream().write(bytes);
            up.commit();
        }
    }
}
