package dev.cadastro.benchmarks.publication;

import dev.cadastro.benchmarks.Flags;
import dev.cadastro.benchmarks.register.BuildSyntheticIndex;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.SearchOptions;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.register.publication.IndexFollower;
import dev.cadastro.register.publication.IndexPublisher;
import dev.cadastro.register.publication.PublishOptions;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import dev.cadastro.s3.testing.S3ProxyFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Bootstrap of a server's register from an object store against the copy floor, in the same run: the
 * production path of {@code serve --index s3://... --index-cache DIR} ({@link IndexFollower}: the
 * pointer, the manifest, parallel ranged GETs of 16 MiB parts through {@link S3FileStore} and the AWS
 * SDK, the CRC32C of every part, fsync of every file, the rename and {@link LuceneRegister}'s open of the
 * generation) from s3proxy on loopback (filesystem backend), against {@code cp -r} of the same
 * generation folder (and {@code cp -r} then {@code sync}). Variants alternate within each round, their
 * order rotating, so drift on the shared machine hits all of them; the ratio is taken per round.
 *
 * <p>Usage: {@code java -Xmx3g -cp benchmarks/target/benchmarks.jar
 * dev.cadastro.benchmarks.publication.RegisterBootstrap [--home DIR] [--establishments N] [--rounds R]
 * [--parallelism 1,4,8,16] [--variants cp,cp+sync,s3 x8] [--drop-caches true]}: {@code --variants} keeps only
 * those (cp always), {@code --drop-caches} starts every variant from a cold page cache (needs root). The
 * first run builds the register under {@code HOME/index}
 * ({@link BuildSyntheticIndex}); every run starts a fresh s3proxy and publishes it there.
 */
public final class RegisterBootstrap {
    private RegisterBootstrap() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = Flags.pairs(args);
        Path home = Path.of(o.getOrDefault("--home", "benchmarks/data/bootstrap"));
        long n = Long.parseLong(o.getOrDefault("--establishments", "5000000"));
        int rounds = Integer.parseInt(o.getOrDefault("--rounds", "3"));
        List<Integer> parallelism = Arrays.stream(
                        o.getOrDefault("--parallelism", "1,4,8,16").split(","))
                .map(Integer::parseInt)
                .toList();
        // Every variant from a cold page cache (root only): the source files, the store's copy and the target
        // all start on disk, as on a new server, instead of whatever the previous variant left cached.
        boolean dropCaches = Boolean.parseBoolean(o.getOrDefault("--drop-caches", "false"));
        Path root = home.resolve("index");
        if (!Files.exists(root.resolve("CURRENT"))) {
            BuildSyntheticIndex.main(new String[] {root.toString(), Long.toString(n), "2"});
        }
        Path gen = LuceneRegister.currentGeneration(root).orElseThrow().path();
        long documents = LuceneRegister.currentGeneration(root).orElseThrow().documents();
        long bytes = sizeOf(gen);
        deleteTree(home.resolve("s3"));
        try (S3ProxyFixture s3 = S3ProxyFixture.start(home.resolve("s3"))) {
            s3.createBucket("bench");
            try (S3FileStore store =
                    S3FileStore.open(s3.connection(), S3Location.parse("--index", "s3://bench/register"))) {
                long t0 = System.nanoTime();
                IndexPublisher.Publication p = IndexPublisher.publish(root, store, "", PublishOptions.defaults());
                double up = (System.nanoTime() - t0) / 1e9;
                System.out.printf(
                        Locale.ROOT,
                        "register: %,d establishments, %d files, %,d bytes; published to s3proxy in %.1f s (%.0f MB/s)%n",
                        documents,
                        p.files(),
                        bytes,
                        up,
                        bytes / up / 1e6);
                // cp+open: the copy floor plus what the follower also does after it, the register's open.
                List<String> variants = new ArrayList<>(List.of("cp", "cp+sync", "cp+open"));
                parallelism.forEach(k -> variants.add("s3 x" + k));
                // The transport alone, to read the follower's own share: the same ranged GETs, discarded.
                variants.add("get x8");
                variants.add("get+crc x8");
                // The per-part check of manifest version 1, for comparison (ADR 0050).
                variants.add("get+sha x8");
                if (o.containsKey("--variants")) {
                    List<String> only = Arrays.asList(o.get("--variants").split(","));
                    variants.retainAll(only);
                    if (!variants.contains("cp") || variants.size() != only.size()) {
                        throw new IllegalArgumentException("--variants: cp and some of " + only + " expected");
                    }
                }
                Map<String, List<Double>> seconds = new LinkedHashMap<>();
                Map<String, List<Double>> ratios = new LinkedHashMap<>();
                variants.forEach(v -> {
                    seconds.put(v, new ArrayList<>());
                    ratios.put(v, new ArrayList<>());
                });
                for (int r = 0; r < rounds; r++) {
                    Map<String, Double> round = new LinkedHashMap<>();
                    for (int i = 0; i < variants.size(); i++) {
                        String v = variants.get((i + r) % variants.size());
                        if (dropCaches) {
                            dropCaches();
                        }
                        double s = run(v, gen, "gen-" + p.generation() + "/", home, store, documents);
                        round.put(v, s);
                        seconds.get(v).add(s);
                        System.out.printf(
                                Locale.ROOT,
                                "round %d %-10s %6.2f s  %6.0f MB/s  load %s%n",
                                r + 1,
                                v,
                                s,
                                bytes / s / 1e6,
                                loadAverage());
                    }
                    for (String v : variants) {
                        ratios.get(v).add(round.get(v) / round.get("cp"));
                    }
                }
                System.out.printf(Locale.ROOT, "%nbytes %,d; medians of %d rounds%n", bytes, rounds);
                System.out.println("| variant | seconds (median) | MB/s | x cp (median of per-round ratios) |");
                System.out.println("|---|---|---|---|");
                for (String v : variants) {
                    double s = median(seconds.get(v));
                    System.out.printf(
                            Locale.ROOT, "| %s | %.2f | %.0f | %.2f |%n", v, s, bytes / s / 1e6, median(ratios.get(v)));
                }
            }
        }
    }

    /** Writes back dirty pages, then drops the clean ones (page cache, dentries and inodes). */
    private static void dropCaches() throws Exception {
        exec("sync");
        Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
    }

    private static double run(String variant, Path gen, String published, Path home, S3FileStore store, long documents)
            throws Exception {
        Path target = home.resolve("target");
        deleteTree(target);
        long t0 = System.nanoTime();
        if (variant.startsWith("get")) {
            rangedGets(store, published, 8, variant.contains("sha") ? "sha" : variant.contains("crc") ? "crc" : "");
        } else if (variant.equals("cp+open")) {
            Files.createDirectories(target);
            exec("cp", "-r", gen.toString(), target.resolve(gen.getFileName()).toString());
            Files.copy(gen.getParent().resolve("CURRENT"), target.resolve("CURRENT"));
            try (LuceneRegister r = LuceneRegister.open(
                    target,
                    SearchOptions.builder().refreshInterval(Duration.ZERO).build())) {
                if (r.published().documents() != documents) {
                    throw new IllegalStateException("opened " + r.published());
                }
            }
        } else if (variant.startsWith("cp")) {
            exec("cp", "-r", gen.toString(), target.toString());
            if (variant.equals("cp+sync")) {
                exec("sync");
            }
        } else {
            int k = Integer.parseInt(variant.substring("s3 x".length()));
            try (IndexFollower f = IndexFollower.start(
                    target,
                    store,
                    "",
                    FollowOptions.defaults().withPoll(Duration.ZERO).withParallelism(k),
                    SearchOptions.builder().refreshInterval(Duration.ZERO).build())) {
                f.poll().orElseThrow();
                if (f.register().published().documents() != documents) {
                    throw new IllegalStateException("opened " + f.register().published());
                }
                f.register().close();
            }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        deleteTree(target);
        exec("sync");
        return s;
    }

    /**
     * Every part of the published generation (its folder {@code prefix}) as the follower asks for it (16 MiB
     * ranges), {@code threads} at a time, to nothing.
     */
    private static void rangedGets(S3FileStore store, String prefix, int threads, String check) throws Exception {
        List<long[]> ranges = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (var e : store.list(prefix)) {
            for (long off = 0; off < Math.max(1, e.size()); off += PublishOptions.DEFAULT_PART_SIZE) {
                keys.add(e.key());
                ranges.add(new long[] {off, Math.min(PublishOptions.DEFAULT_PART_SIZE, e.size() - off)});
            }
        }
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<Exception> failure =
                new java.util.concurrent.atomic.AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                byte[] buf = new byte[256 << 10];
                try {
                    java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
                    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
                    for (int i; (i = next.getAndIncrement()) < ranges.size(); ) {
                        try (var d = store.open(keys.get(i), ranges.get(i)[0], ranges.get(i)[1])
                                        .orElseThrow();
                                var in = d.stream()) {
                            for (int n; (n = in.read(buf)) > 0; ) {
                                if (check.equals("sha")) {
                                    md.update(buf, 0, n);
                                } else if (check.equals("crc")) {
                                    crc.update(buf, 0, n);
                                }
                            }
                        }
                        md.reset();
                        crc.reset();
                    }
                } catch (Exception e) {
                    failure.set(e);
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private static void exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + p.exitValue());
        }
    }

    static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The 1-minute load average (Linux), to read each figure beside the machine's load; "?" elsewhere. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int m = s.size() / 2;
        return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }
}
