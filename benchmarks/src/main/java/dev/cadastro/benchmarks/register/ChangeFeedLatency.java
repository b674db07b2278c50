package dev.cadastro.benchmarks.register;

import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.SearchOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Latency of the monthly change feed ({@code GET /v1/empresas/alteracoes}, issue 45) through {@link
 * LuceneRegister#changes}: count-only and a page of 50, for filtered change queries, against the same
 * filters searched on the whole register ({@link LuceneRegister#search}) in the same run, alternated
 * query by query. Single-threaded, after a warm-up; percentiles from the sorted samples. The index's
 * current generation must have been loaded over a previous one (so it holds its changes), for example:
 *
 * <pre>
 * ./cadastro generate --out m1 --establishments 1000000 --seed 45
 * ./cadastro generate --out m2 --evolve-from m1 --reference 2026-09 --seed 45
 * ./cadastro load --dump m1 --index idx &amp;&amp; ./cadastro load --dump m2 --index idx
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.register.ChangeFeedLatency idx [ITERATIONS]
 * </pre>
 */
public final class ChangeFeedLatency {
    private ChangeFeedLatency() {}

    /** The filters, searched whole and as changes of {@code types}. */
    private record Shape(RegisterQuery filters, Set<ChangeType> types) {}

    static Map<String, Shape> shapes() {
        Map<String, Shape> m = new LinkedHashMap<>();
        m.put(
                "C1 all changes in SP",
                new Shape(RegisterQuery.builder().ufs("SP").build(), Set.of()));
        m.put(
                "C2 openings in SP, RJ, MG",
                new Shape(RegisterQuery.builder().ufs("SP", "RJ", "MG").build(), Set.of(ChangeType.ABERTURA)));
        m.put(
                "C3 closures of a CNAE",
                new Shape(
                        RegisterQuery.builder().cnaes("4781400", "9602501").build(),
                        Set.of(ChangeType.BAIXA, ChangeType.SITUACAO)));
        m.put(
                "C4 moves and new contacts, active with e-mail",
                new Shape(
                        RegisterQuery.builder()
                                .situacaoCadastral("02")
                                .comEmail(true)
                                .build(),
                        Set.of(ChangeType.ENDERECO, ChangeType.CONTATO)));
        m.put(
                "C5 any change of a Simples company in RJ",
                new Shape(RegisterQuery.builder().ufs("RJ").simples(true).build(), Set.of()));
        return m;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ChangeFeedLatency INDEX_DIR [ITERATIONS]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        SearchOptions options =
                SearchOptions.builder().refreshInterval(Duration.ZERO).build();
        try (LuceneRegister register = LuceneRegister.open(dir, options)) {
            System.out.printf(
                    Locale.ROOT,
                    "index %s: %,d establishments; %d iterations; load %s%n",
                    dir,
                    register.published().documents(),
                    iterations,
                    loadAverage());
            System.out.printf(
                    Locale.ROOT,
                    "%-48s %-12s %10s %9s %9s %9s %10s %9s %9s%n",
                    "query",
                    "form",
                    "feed total",
                    "p50 ms",
                    "p99 ms",
                    "max ms",
                    "search tot",
                    "p50 ms",
                    "p99 ms");
            for (Map.Entry<String, Shape> e : shapes().entrySet()) {
                for (boolean count : new boolean[] {true, false}) {
                    RegisterQuery q = e.getValue().filters().toBuilder()
                            .countOnly(count)
                            .limite(50)
                            .build();
                    ChangeQuery cq = new ChangeQuery(q, e.getValue().types(), Optional.empty());
                    long[] feed = new long[iterations];
                    long[] search = new long[iterations];
                    long feedTotal = 0;
                    long searchTotal = 0;
                    for (int i = 0; i < iterations / 5; i++) { // warm-up
                        register.changes(cq);
                        if (count) {
                            register.count(q);
                        } else {
                            register.search(q);
                        }
                    }
                    for (int i = 0; i < iterations; i++) {
                        long t0 = System.nanoTime();
                        feedTotal = register.changes(cq).total();
                        long t1 = System.nanoTime();
                        searchTotal = count
                                ? register.count(q).total()
                                : register.search(q).total();
                        long t2 = System.nanoTime();
                        feed[i] = t1 - t0;
                        search[i] = t2 - t1;
                    }
                    Arrays.sort(feed);
                    Arrays.sort(search);
                    System.out.printf(
                            Locale.ROOT,
                            "%-48s %-12s %,10d %9.3f %9.3f %9.3f %,10d %9.3f %9.3f%n",
                            e.getKey(),
                            count ? "count" : "page of 50",
                            feedTotal,
                            RegisterLatency.pct(feed, 50),
                            RegisterLatency.pct(feed, 99),
                            feed[feed.length - 1] / 1e6,
                            searchTotal,
                            RegisterLatency.pct(search, 50),
                            RegisterLatency.pct(search, 99));
                }
            }
            System.out.printf(Locale.ROOT, "load after: %s%n", loadAverage());
        }
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
