package dev.cadastro.benchmarks.register;

import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.SearchOptions;
import dev.cadastro.register.SyntheticRegister;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Latency of the register's query mix Q1-Q10 (issue 4) through {@link LuceneRegister} — the production
 * path behind {@code GET /empresas} and {@code GET /empresas/{cnpj}}: count-only ({@code apenas_total}),
 * a page of 50 with its total, and CNPJ lookup. Single-threaded, after a warm-up; percentiles are
 * computed from the sorted samples (no histogram library). The peer, measured in the same run on the
 * same index files, is stock Lucene ({@link StockLucenePeer}), without its query cache unless
 * {@code -Dpeer.queryCache=true}; its counts must equal ours.
 *
 * <pre>
 * java -Xmx3g -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.register.RegisterLatency \
 *     DIR [ITERATIONS] [EXACT_COST_THRESHOLD [WINDOW_DOCS]]
 * </pre>
 *
 * <p>{@code EXACT_COST_THRESHOLD} overrides {@link SearchOptions#exactCostThreshold()} (0 forces the
 * sampled estimate wherever it meets its precision target), to measure the estimate path on indexes
 * smaller than the 70 M it is tuned for; {@code WINDOW_DOCS} overrides {@link SearchOptions#windowDocs()}
 * (a sample needs at least 30 strata of 32 windows).
 *
 * <pre>
 * </pre>
 */
public final class RegisterLatency {
    private RegisterLatency() {}

    /** The query mix, with the synthetic data's frequent and rare values. */
    static Map<String, RegisterQuery> mix() {
        SyntheticRegister shape = new SyntheticRegister(0);
        List<String> cnaes = shape.cnaesByFrequency();
        List<String> rr = shape.municipiosByFrequency("RR");
        Map<String, RegisterQuery> q = new LinkedHashMap<>();
        q.put(
                "Q1 SP+02+3 CNAEs",
                RegisterQuery.builder()
                        .ufs("SP")
                        .situacaoCadastral("02")
                        .cnaes(cnaes.get(0), cnaes.get(1), cnaes.get(2))
                        .build());
        q.put(
                "Q2 MG+mei+2020..2023",
                RegisterQuery.builder()
                        .ufs("MG")
                        .mei(true)
                        .aberturaDe(LocalDate.of(2020, 1, 1))
                        .aberturaAte(LocalDate.of(2023, 12, 31))
                        .build());
        q.put(
                "Q3 SAO PAULO+02+email",
                RegisterQuery.builder()
                        .municipios("SAO PAULO")
                        .situacaoCadastral("02")
                        .comEmail(true)
                        .build());
        q.put("Q4 02", RegisterQuery.builder().situacaoCadastral("02").build());
        q.put(
                "Q5 5 sec. CNAEs+01+simples",
                RegisterQuery.builder()
                        .cnaesSecundarios(cnaes.get(0), cnaes.get(1), cnaes.get(2), cnaes.get(3), cnaes.get(4))
                        .portes("01")
                        .simples(true)
                        .build());
        q.put(
                "Q6 SP|RJ|MG+cap>=100k+02",
                RegisterQuery.builder()
                        .ufs("SP", "RJ", "MG")
                        .capitalMin(new java.math.BigDecimal("100000"))
                        .situacaoCadastral("02")
                        .build());
        q.put(
                "Q7 2135+02+tel+2015..",
                RegisterQuery.builder()
                        .naturezas("2135")
                        .situacaoCadastral("02")
                        .comTelefone(true)
                        .aberturaDe(LocalDate.of(2015, 1, 1))
                        .build());
        q.put(
                "Q8 RR town+rare CNAE+02",
                RegisterQuery.builder()
                        .municipios(rr.get(3))
                        .cnaes(cnaes.get(120), cnaes.get(121))
                        .situacaoCadastral("02")
                        .build());
        q.put(
                "Q9 SP+02",
                RegisterQuery.builder().ufs("SP").situacaoCadastral("02").build());
        q.put(
                "Q10 ddd11+movel+no debt",
                RegisterQuery.builder()
                        .ddds("11")
                        .comTelefoneMovel(true)
                        .divida(false)
                        .build());
        return q;
    }

    public static void main(String[] args) throws java.io.IOException {
        if (args.length < 1) {
            System.err.println("usage: RegisterLatency DIR [ITERATIONS]");
            System.exit(2);
        }
        Path root = Path.of(args[0]);
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        SearchOptions.Builder options = SearchOptions.builder().refreshInterval(Duration.ZERO);
        if (args.length > 2) {
            options.exactCostThreshold(Long.parseLong(args[2]));
        }
        if (args.length > 3) {
            options.windowDocs(Integer.parseInt(args[3]));
        }
        Map<String, RegisterQuery> mix = mix();
        try (LuceneRegister register = LuceneRegister.open(root, options.build())) {
            System.out.printf(
                    "index %s: %,d establishments%n",
                    register.published().path(), register.published().documents());
            // Warm-up: every query both ways, so lazily cached bitsets exist before measuring.
            for (int w = 0; w < Math.max(20, iterations / 5); w++) {
                for (RegisterQuery q : mix.values()) {
                    register.count(countOnly(q));
                    register.search(q);
                }
            }
            StockLucenePeer peer = new StockLucenePeer(
                    register.published().path(), SyntheticRegister.lookups(), Boolean.getBoolean("peer.queryCache"));
            for (int w = 0; w < Math.max(20, iterations / 5); w++) {
                for (RegisterQuery q : mix.values()) {
                    peer.count(q);
                }
            }
            System.out.println(
                    "| query | total | aproximado | count p50 ms | count p99 ms | page-50 p50 ms | page-50 p99 ms"
                            + " | peer count p50 ms | peer count p99 ms | ratio p50 (peer/ours) |");
            System.out.println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
            List<String> cnpjs = new ArrayList<>();
            for (Map.Entry<String, RegisterQuery> e : mix.entrySet()) {
                RegisterQuery count = countOnly(e.getValue());
                long[] countNs = new long[iterations];
                long[] pageNs = new long[iterations];
                long[] peerNs = new long[iterations];
                CountResult c = null;
                long peerTotal = -1;
                for (int i = 0; i < iterations; i++) {
                    long p0 = System.nanoTime();
                    peerTotal = peer.count(e.getValue());
                    peerNs[i] = System.nanoTime() - p0;
                    long t0 = System.nanoTime();
                    c = register.count(count);
                    long t1 = System.nanoTime();
                    SearchResult page = register.search(e.getValue());
                    long t2 = System.nanoTime();
                    countNs[i] = t1 - t0;
                    pageNs[i] = t2 - t1;
                    if (i == 0) {
                        for (Empresa emp : page.dados()) {
                            cnpjs.add(emp.cnpj());
                        }
                    }
                }
                if (!c.aproximado() && peerTotal != c.total()) {
                    throw new IllegalStateException(e.getKey() + ": peer counted " + peerTotal + ", we " + c.total());
                }
                System.out.printf(
                        "| %s | %,d | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f |%n",
                        e.getKey(),
                        c.total(),
                        c.aproximado() ? "yes (" + c.low() + ".." + c.high() + ")" : "no",
                        pct(countNs, 50),
                        pct(countNs, 99),
                        pct(pageNs, 50),
                        pct(pageNs, 99),
                        pct(peerNs, 50),
                        pct(peerNs, 99),
                        pct(peerNs, 50) / pct(countNs, 50));
            }
            SplittableRandom r = new SplittableRandom(1);
            int lookups = Math.max(1000, iterations * 20);
            long[] lookupNs = new long[lookups];
            for (int i = 0; i < lookups; i++) {
                dev.cadastro.core.document.Cnpj cnpj =
                        dev.cadastro.core.document.Cnpj.of(cnpjs.get(r.nextInt(cnpjs.size())));
                long t0 = System.nanoTime();
                if (register.lookup(cnpj).isEmpty()) {
                    throw new IllegalStateException("lookup lost " + cnpj);
                }
                lookupNs[i] = System.nanoTime() - t0;
            }
            System.out.printf(
                    "lookup: p50 %.3f ms, p99 %.3f ms over %d lookups%n",
                    pct(lookupNs, 50), pct(lookupNs, 99), lookups);
            Runtime rt = Runtime.getRuntime();
            System.gc();
            System.out.printf(
                    "heap after run: %,d MB used of %,d MB max; cached filter bitsets %,d MB%n",
                    (rt.totalMemory() - rt.freeMemory()) >> 20,
                    rt.maxMemory() >> 20,
                    register.cachedBitsetBytes() >> 20);
            peer.close();
        }
    }

    private static RegisterQuery countOnly(RegisterQuery q) {
        Map<String, List<String>> p = new LinkedHashMap<>(q.toParameters());
        p.put(RegisterQuery.APENAS_TOTAL, List.of("true"));
        return RegisterQuery.parse(p);
    }

    private static double pct(long[] ns, int p) {
        long[] s = ns.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))] / 1e6;
    }
}
