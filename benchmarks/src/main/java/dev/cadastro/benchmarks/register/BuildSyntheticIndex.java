package dev.cadastro.benchmarks.register;

import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.register.RegisterIndexBuilder;
import dev.cadastro.register.SyntheticRegister;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds a synthetic register index of N establishments straight through {@link RegisterIndexBuilder}
 * (the production writer and publication path, without the dump reader), with the skewed
 * distributions of {@link SyntheticRegister}. Several threads generate and add, each over its own CNPJ
 * range.
 *
 * <pre>
 * java -Xmx3g -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.register.BuildSyntheticIndex \
 *     DIR ESTABLISHMENTS [THREADS]
 * </pre>
 */
public final class BuildSyntheticIndex {
    private BuildSyntheticIndex() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: BuildSyntheticIndex DIR ESTABLISHMENTS [THREADS]");
            System.exit(2);
        }
        Path root = Path.of(args[0]);
        long n = Long.parseLong(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        if (n <= 0 || n > 90_000_000L) {
            throw new IllegalArgumentException("ESTABLISHMENTS " + n + " is outside 1..90000000");
        }
        long t0 = System.nanoTime();
        PublishedIndex published;
        BuildOptions options = BuildOptions.builder()
                .ramBufferMb(256)
                .indexingThreads(threads)
                .expectedCount(n)
                .build();
        try (RegisterIndexBuilder builder = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), options)) {
            List<Thread> workers = new ArrayList<>();
            long share = (n + threads - 1) / threads;
            for (int t = 0; t < threads; t++) {
                long from = t * share;
                long to = Math.min(n, from + share);
                int seed = t;
                workers.add(Thread.ofPlatform().start(() -> {
                    SyntheticRegister g = new SyntheticRegister(1000 + seed, from);
                    for (long i = from; i < to; i++) {
                        builder.add(g.next());
                    }
                }));
            }
            for (Thread w : workers) {
                w.join();
            }
            long added = System.nanoTime();
            System.out.printf("added %,d in %.1f s%n", builder.added(), (added - t0) / 1e9);
            published = builder.publish("synthetic " + n);
        }
        long bytes;
        try (Stream<Path> files = Files.walk(published.path())) {
            bytes = files.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
        System.out.printf(
                "published %s: %,d establishments, %,d bytes (%.1f bytes per establishment), %.1f s in all%n",
                published.path(),
                published.documents(),
                bytes,
                (double) bytes / published.documents(),
                (System.nanoTime() - t0) / 1e9);
    }
}
