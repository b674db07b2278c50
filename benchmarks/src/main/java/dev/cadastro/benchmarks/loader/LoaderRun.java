package dev.cadastro.benchmarks.loader;

import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.LoadSummary;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.server.DumpLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * End-to-end loader run (not JMH: one pass over a dump is minutes long). Exercises the production
 * paths {@link DumpGenerator#generate}, {@link DumpReader#readInto} (the reader and join alone, into a
 * discarding sink) and {@link DumpLoader#load} (reader, register index writer, verification and atomic
 * publication), and, as a peer measured in the same run, the way most loaders read the files: a {@code
 * BufferedReader} decoding ISO-8859-1 and {@code String.split} on {@code ";"} (no join, no index).
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.loader.LoaderRun
 * WORKDIR ESTABLISHMENTS [SEED]}; the dump is generated into {@code WORKDIR/dump} when absent. Prints
 * the figures as a Markdown table row for a run's section in {@code benchmarks/history/}. Peak heap is sampled every 50
 * ms (heap in use after the collector ran, summed over the heap pools); peak RSS is the process's
 * {@code VmHWM}.
 */
public final class LoaderRun {
    private LoaderRun() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: LoaderRun WORKDIR ESTABLISHMENTS [SEED]");
            System.exit(2);
        }
        Path work = Path.of(args[0]);
        long n = Long.parseLong(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        Path dump = work.resolve("dump");
        HeapSampler heap = HeapSampler.start();
        if (!Files.exists(dump.resolve("Simples.zip"))) {
            GeneratedDump g = DumpGenerator.generate(
                    dump, GeneratorOptions.builder(n).seed(seed).build());
            System.out.printf(
                    Locale.ROOT,
                    "generate: %,d establishments in %.1f s (%,.0f rows/s), %s on disk%n",
                    g.establishments(),
                    g.elapsed().toMillis() / 1000.0,
                    g.establishmentRows() / (g.elapsed().toMillis() / 1000.0),
                    mb(size(dump)));
        }
        long t0 = System.nanoTime();
        long peerRows = peer(dump);
        double peerSeconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "peer (BufferedReader + split, Estabelecimentos only): %,d rows in %.1f s (%,.0f rows/s)%n",
                peerRows,
                peerSeconds,
                peerRows / peerSeconds);

        LoadOptions options = LoadOptions.builder(dump)
                .rejects(work.resolve("rejects.tsv"))
                .scratch(work)
                .build();
        t0 = System.nanoTime();
        LoadSummary read = DumpReader.open(options).readInto(e -> {});
        double readSeconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "reader + join only (all 37 ZIPs, CRCs checked): %,d establishments in %.1f s (%,.0f/s)%n",
                read.establishments(),
                readSeconds,
                read.establishments() / readSeconds);

        Path index = work.resolve("index");
        heap.reset();
        t0 = System.nanoTime();
        DumpLoader.Result result =
                DumpLoader.load(options, index, DumpLoader.buildOptionsFor(options, read.establishments()));
        double loadSeconds = (System.nanoTime() - t0) / 1e9;
        long indexBytes = size(result.published().path());
        System.out.print(result.summary().render());
        System.out.printf(
                Locale.ROOT,
                "load end to end: %,d establishments in %.1f s (%,.0f/s); peak heap %s; peak RSS %s; index %s (%.1f bytes per establishment)%n",
                result.published().documents(),
                loadSeconds,
                result.published().documents() / loadSeconds,
                mb(heap.peak()),
                mb(rssPeakBytes()),
                mb(indexBytes),
                (double) indexBytes / result.published().documents());
        System.out.printf(
                Locale.ROOT,
                "| %,d | %.1f s | %,.0f/s | %,.0f/s | %,.0f rows/s | %s | %s | %.0f B |%n",
                result.published().documents(),
                loadSeconds,
                result.published().documents() / loadSeconds,
                read.establishments() / readSeconds,
                peerRows / peerSeconds,
                mb(heap.peak()),
                mb(rssPeakBytes()),
                (double) indexBytes / result.published().documents());
        heap.stop();
    }

    /** The peer: line-by-line decode and split of every Estabelecimentos file. */
    static long peer(Path dump) throws IOException {
        long rows = 0;
        long fields = 0;
        for (int part = 0; part < 10; part++) {
            try (ZipFile zip = new ZipFile(
                            dump.resolve("Estabelecimentos" + part + ".zip").toFile());
                    BufferedReader in = new BufferedReader(
                            new InputStreamReader(
                                    zip.getInputStream(zip.entries().nextElement()), StandardCharsets.ISO_8859_1),
                            1 << 16)) {
                String line;
                while ((line = in.readLine()) != null) {
                    String[] f = line.split("\";\"");
                    fields += f.length;
                    rows++;
                }
            }
        }
        if (fields == 42) {
            System.out.print("");
        }
        return rows;
    }

    static long size(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%,.0f MB", bytes / 1048576.0);
    }

    static long rssPeakBytes() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return -1;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }

    /** Samples the heap in use every 50 ms and keeps the maximum. */
    static final class HeapSampler implements Runnable {
        private final AtomicLong peak = new AtomicLong();
        private volatile boolean running = true;

        static HeapSampler start() {
            HeapSampler s = new HeapSampler();
            Thread t = new Thread(s, "heap-sampler");
            t.setDaemon(true);
            t.start();
            return s;
        }

        @Override
        public void run() {
            while (running) {
                long used = 0;
                for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                    if (pool.getType() == MemoryType.HEAP) {
                        used += pool.getUsage().getUsed();
                    }
                }
                peak.accumulateAndGet(used, Math::max);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        long peak() {
            return peak.get();
        }

        void reset() {
            peak.set(0);
        }

        void stop() {
            running = false;
        }
    }
}
