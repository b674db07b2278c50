package dev.cadastro.benchmarks.register;

import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.register.LuceneRegister;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.zip.ZipInputStream;

/**
 * Latency of {@link LuceneRegister#partners} — the production path behind enrichment's partner
 * structure — on a loaded index: roots drawn uniformly from the dump's Socios files (each looked up
 * once; the first half warms the JIT, the second is timed), then roots no partner has. Single-threaded;
 * percentiles from the sorted samples. The index files are in the page cache when the machine's RAM
 * holds them (a server, not a cold disk).
 *
 * <pre>
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.register.PartnerLookupLatency \
 *     INDEX DUMP [SAMPLES]
 * </pre>
 */
public final class PartnerLookupLatency {
    private PartnerLookupLatency() {}

    public static void main(String[] args) throws IOException {
        Path index = Path.of(args[0]);
        Path dump = Path.of(args[1]);
        int samples = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        List<String> roots = sampleRoots(dump, samples, new SplittableRandom(15));
        try (LuceneRegister register = LuceneRegister.open(index)) {
            int half = roots.size() / 2;
            long[] ns = new long[roots.size() - half];
            long partners = 0;
            for (int i = 0; i < roots.size(); i++) {
                CnpjRoot root = new CnpjRoot(roots.get(i));
                long t0 = System.nanoTime();
                int n = register.partners(root).size();
                long t = System.nanoTime() - t0;
                if (n == 0) {
                    throw new IllegalStateException("no partners for " + root + ", which the Socios files list");
                }
                if (i >= half) {
                    ns[i - half] = t;
                    partners += n;
                }
            }
            report("roots with partners", ns, " (" + partners + " partners read)");
            SplittableRandom r = new SplittableRandom(16);
            long[] miss = new long[Math.min(100_000, ns.length)];
            java.util.Set<String> known = new java.util.HashSet<>(roots);
            for (int i = 0; i < miss.length; ) {
                String root = String.format("%08d", r.nextInt(100_000_000));
                if (known.contains(root)) {
                    continue;
                }
                long t0 = System.nanoTime();
                register.partners(new CnpjRoot(root));
                miss[i++] = System.nanoTime() - t0;
            }
            report("random roots (most without partners)", miss, "");
        }
    }

    private static void report(String what, long[] ns, String extra) {
        Arrays.sort(ns);
        System.out.printf(
                "partners() of %s: p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us over %,d lookups%s%n",
                what,
                pct(ns, 50) / 1e3,
                pct(ns, 99) / 1e3,
                pct(ns, 99.9) / 1e3,
                ns[ns.length - 1] / 1e3,
                ns.length,
                extra);
    }

    private static double pct(long[] sorted, double p) {
        int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1);
        return sorted[Math.max(0, i)];
    }

    /** A uniform sample (reservoir) of the distinct roots of the Socios files, shuffled. */
    private static List<String> sampleRoots(Path dump, int k, SplittableRandom r) throws IOException {
        List<String> reservoir = new ArrayList<>(k);
        long seen = 0;
        String last = null;
        for (int part = 0; part < 10; part++) {
            try (ZipInputStream zip =
                    new ZipInputStream(Files.newInputStream(dump.resolve("Socios" + part + ".zip")))) {
                zip.getNextEntry();
                BufferedReader in = new BufferedReader(new InputStreamReader(zip, StandardCharsets.ISO_8859_1));
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.length() < 10) {
                        continue;
                    }
                    String root = line.substring(1, 9);
                    if (root.equals(last) || !CnpjRoot.isValid(root)) {
                        continue;
                    }
                    last = root;
                    seen++;
                    if (reservoir.size() < k) {
                        reservoir.add(root);
                    } else {
                        long j = r.nextLong(seen);
                        if (j < k) {
                            reservoir.set((int) j, root);
                        }
                    }
                }
            }
        }
        Collections.shuffle(reservoir, new Random(r.nextLong()));
        return reservoir;
    }
}
