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
 * Latency of the register's query mix Q1-Q16 (issues 4 and 21) through {@link LuceneRegister} — the production
 * path behind {@code GET /empresas} and {@code GET /empresas/{cnpj}}: count-only ({@code apenas_total}),
 * a page of 50 with its total, and CNPJ lookup. Single-threaded, after a warm-up; percentiles are
 * computed from the sorted samples (no histogram library). The peer, measured in the same run on the
 * same index files, is stock Lucene ({@link StockLucenePeer}), without its query cache unless
 * {@code -Dpeer.queryCache=true}; its counts must equal ours.
 *
 * <p>{@code -Dpeer=false} measures our engine alone, the queries in turn (no stock-Lucene query between
 * two of ours to evict the caches), plus lookups. {@code -Dqueries=Q5,Q7} keeps only those queries. With {@code -Dlatency.csv=FILE} (and {@code
 * -Dlatency.label=TEXT} to name the run) it also writes the percentiles as CSV for {@link LatencyPlot}.
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

    /**
     * Q13's town: Tombos, a small town of Minas Gerais, which the generator places in the state's Zipf
     * tail (docs/loader.md) with an expected 2,700 establishments of 70 M.
     */
    static final String SMALL_TOWN = "TOMBOS";

    static final String SMALL_TOWN_UF = "MG";

    /**
     * Name search ({@code busca_textual}, issue 44): one to three common and rare words, with and without
     * filters; {@code PeerComparison --names} runs it against PostgreSQL's full-text index.
     */
    static Map<String, RegisterQuery> nameMix() {
        Map<String, RegisterQuery> q = new LinkedHashMap<>();
        q.put("N1 padaria", RegisterQuery.builder().buscaTextual("padaria").build());
        q.put(
                "N2 padaria in Sao Paulo city",
                RegisterQuery.builder()
                        .ufs("SP")
                        .municipios("7107")
                        .buscaTextual("padaria")
                        .build());
        q.put(
                "N3 transportes active in MG",
                RegisterQuery.builder()
                        .ufs("MG")
                        .situacaoCadastral("02")
                        .buscaTextual("transportes")
                        .build());
        q.put(
                "N4 joao silva",
                RegisterQuery.builder().buscaTextual("joao silva").build());
        q.put("N5 prefix jo", RegisterQuery.builder().buscaTextual("jo").build());
        q.put(
                "N6 full name",
                RegisterQuery.builder()
                        .buscaTextual("sebastiao goncalves araujo")
                        .build());
        q.put(
                "N7 rare otica paraiso",
                RegisterQuery.builder().buscaTextual("otica paraiso").build());
        q.put(
                "N8 acai SP 02 email",
                RegisterQuery.builder()
                        .ufs("SP")
                        .situacaoCadastral("02")
                        .comEmail(true)
                        .buscaTextual("acai")
                        .build());
        return q;
    }

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
        q.put("Q2 MG+mei+2020..2023", mgMeiOpened2020To2023().build());
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
        // Q11-Q16 (issue 21): city-level queries of realistic size on the generator's Censo 2022 geography,
        // where the city of Sao Paulo holds millions of establishments, and the PGFN debt filter both ways.
        // Their values are the generator's (DumpGenerator), not SyntheticRegister's.
        q.put(
                "Q11 SAO PAULO+02",
                RegisterQuery.builder()
                        .municipios("SAO PAULO")
                        .situacaoCadastral("02")
                        .build());
        q.put(
                "Q12 BELO HORIZONTE+5611203+02",
                RegisterQuery.builder()
                        .municipios("BELO HORIZONTE")
                        .cnaes("5611203")
                        .situacaoCadastral("02")
                        .build());
        q.put(
                "Q13 " + SMALL_TOWN + " (" + SMALL_TOWN_UF + ")+02",
                RegisterQuery.builder()
                        .ufs(SMALL_TOWN_UF)
                        .municipios(SMALL_TOWN)
                        .situacaoCadastral("02")
                        .build());
        q.put(
                "Q14 SP+02+debt",
                RegisterQuery.builder()
                        .ufs("SP")
                        .situacaoCadastral("02")
                        .divida(true)
                        .build());
        q.put(
                "Q15 RIO DE JANEIRO+02+email+no debt",
                RegisterQuery.builder()
                        .municipios("RIO DE JANEIRO")
                        .situacaoCadastral("02")
                        .comEmail(true)
                        .divida(false)
                        .build());
        q.put("Q16 MG+mei+2020..2023+debt", mgMeiOpened2020To2023().divida(true).build());
        return q;
    }

    /** Q2's filters, which Q16 narrows to the establishments with debt. */
    private static RegisterQuery.Builder mgMeiOpened2020To2023() {
        return RegisterQuery.builder()
                .ufs("MG")
                .mei(true)
                .aberturaDe(LocalDate.of(2020, 1, 1))
                .aberturaAte(LocalDate.of(2023, 12, 31));
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
        String only = System.getProperty("queries");
        if (only != null) {
            // -Dqueries=Q5,Q7 keeps those queries of the mix (for profiling one of them).
            List<String> wanted = List.of(only.split(","));
            mix.keySet().removeIf(k -> !wanted.contains(k.split(" ")[0]));
        }
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
            if (!Boolean.parseBoolean(System.getProperty("peer", "true"))) {
                roundRobin(register, mix, iterations);
                lookups(register, iterations, List.of());
                heap(register);
                return;
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
            StringBuilder csv = new StringBuilder();
            // -Dlatency.label names this run in the CSV (e.g. "cadastro 16 segments"), for one plot of several runs.
            String label = System.getProperty("latency.label", "");
            String ours = ("cadastro " + label).strip();
            String stock = ("stock Lucene " + org.apache.lucene.util.Version.LATEST + " " + label).strip();
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
                if (c.aproximado() && (peerTotal < c.low() || peerTotal > c.high())) {
                    throw new IllegalStateException(e.getKey() + ": peer counted " + peerTotal + ", our estimate "
                            + c.total() + " (" + c.low() + ".." + c.high() + ") does not hold it");
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
                csvLine(csv, e.getKey(), ours, "count p50", pct(countNs, 50));
                csvLine(csv, e.getKey(), ours, "count p99", pct(countNs, 99));
                csvLine(csv, e.getKey(), ours, "page-50 p50", pct(pageNs, 50));
                csvLine(csv, e.getKey(), ours, "page-50 p99", pct(pageNs, 99));
                csvLine(csv, e.getKey(), stock, "count p50", pct(peerNs, 50));
                csvLine(csv, e.getKey(), stock, "count p99", pct(peerNs, 99));
            }
            String csvFile = System.getProperty("latency.csv");
            if (csvFile != null) {
                java.nio.file.Files.writeString(Path.of(csvFile), csv);
            }
            lookups(register, iterations, cnpjs);
            heap(register);
            peer.close();
        }
    }

    /**
     * Distinct CNPJs drawn uniformly over the index: a state with probability proportional to its
     * establishments, a random page of 50 in it, one random record of that page. All are drawn before
     * any is looked up, so a lookup never follows the search that found its record.
     */
    private static List<String> spreadCnpjs(LuceneRegister register, int wanted, SplittableRandom r) {
        List<String> ufs = RegisterQuery.UF_CODES;
        long[] cumulative = new long[ufs.size()];
        long sum = 0;
        for (int i = 0; i < ufs.size(); i++) {
            sum += register.count(RegisterQuery.builder().ufs(ufs.get(i)).build())
                    .total();
            cumulative[i] = sum;
        }
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        for (int attempt = 0; out.size() < wanted && attempt < 2 * wanted && sum > 0; attempt++) {
            long pick = r.nextLong(sum);
            int i = 0;
            while (cumulative[i] <= pick) {
                i++;
            }
            long total = cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]);
            int pages = (int) Math.max(1, Math.min(Integer.MAX_VALUE, total / 50));
            SearchResult page = register.search(RegisterQuery.builder()
                    .ufs(ufs.get(i))
                    .limite(50)
                    .pagina(1 + r.nextInt(pages))
                    .build());
            if (!page.dados().isEmpty()) {
                out.add(page.dados().get(r.nextInt(page.dados().size())).cnpj());
            }
        }
        List<String> list = new ArrayList<>(out);
        java.util.Collections.shuffle(list, new java.util.Random(r.nextLong()));
        return list;
    }

    /** Lookups of distinct CNPJs drawn over the whole index, then of the mix's first-page CNPJs (when given). */
    private static void lookups(LuceneRegister register, int iterations, List<String> cnpjs) {
        // Lookups of CNPJs spread uniformly over the whole index, each looked up once; the first half
        // warms the JIT, the second is timed. The index files are in the page cache when the machine's
        // RAM holds them (this measures a server, not a cold disk).
        List<String> spread = spreadCnpjs(register, Math.max(2_000, iterations * 50), new SplittableRandom(1));
        int half = spread.size() / 2;
        long[] lookupNs = new long[spread.size() - half];
        for (int i = 0; i < spread.size(); i++) {
            dev.cadastro.core.document.Cnpj cnpj = dev.cadastro.core.document.Cnpj.of(spread.get(i));
            long t0 = System.nanoTime();
            if (register.lookup(cnpj).isEmpty()) {
                throw new IllegalStateException("lookup lost " + cnpj);
            }
            if (i >= half) {
                lookupNs[i - half] = System.nanoTime() - t0;
            }
        }
        System.out.printf(
                "lookup of distinct CNPJs drawn uniformly over the index: p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms,"
                        + " max %.3f ms over %d lookups (after %d warm-up lookups)%n",
                pct(lookupNs, 50), pct(lookupNs, 99), pct(lookupNs, 99.9), pct(lookupNs, 100), lookupNs.length, half);
        if (cnpjs.isEmpty()) {
            return;
        }
        SplittableRandom r = new SplittableRandom(1);
        long[] repeatNs = new long[Math.max(1000, iterations * 20)];
        for (int i = 0; i < repeatNs.length; i++) {
            dev.cadastro.core.document.Cnpj cnpj =
                    dev.cadastro.core.document.Cnpj.of(cnpjs.get(r.nextInt(cnpjs.size())));
            long t0 = System.nanoTime();
            if (register.lookup(cnpj).isEmpty()) {
                throw new IllegalStateException("lookup lost " + cnpj);
            }
            repeatNs[i] = System.nanoTime() - t0;
        }
        System.out.printf(
                "lookup of the %d CNPJs of the mix's first pages, repeated: p50 %.3f ms, p99 %.3f ms over %d"
                        + " lookups%n",
                cnpjs.size(), pct(repeatNs, 50), pct(repeatNs, 99), repeatNs.length);
    }

    private static void heap(LuceneRegister register) {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.out.printf(
                "heap after run: %,d MB used of %,d MB max; cached filter bitsets %,d MB%n",
                (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20, register.cachedBitsetBytes() >> 20);
    }

    /**
     * Our engine alone (no peer between its queries, whose scans would evict the caches), the ten
     * queries in turn, {@code iterations} rounds: count-only then the page of 50 of each query.
     */
    private static void roundRobin(LuceneRegister register, Map<String, RegisterQuery> mix, int iterations) {
        List<String> names = new ArrayList<>(mix.keySet());
        long[][] countNs = new long[names.size()][iterations];
        long[][] pageNs = new long[names.size()][iterations];
        CountResult[] last = new CountResult[names.size()];
        for (int i = 0; i < iterations; i++) {
            for (int q = 0; q < names.size(); q++) {
                RegisterQuery query = mix.get(names.get(q));
                long t0 = System.nanoTime();
                last[q] = register.count(countOnly(query));
                long t1 = System.nanoTime();
                register.search(query);
                long t2 = System.nanoTime();
                countNs[q][i] = t1 - t0;
                pageNs[q][i] = t2 - t1;
            }
        }
        System.out.println("ours alone, the mix in turn (" + iterations + " rounds):");
        System.out.println(
                "| query | total | aproximado | count p50 ms | count p99 ms | page-50 p50 ms | page-50 p99 ms |");
        System.out.println("|---|---:|---|---:|---:|---:|---:|");
        StringBuilder csv = new StringBuilder();
        String ours = ("cadastro " + System.getProperty("latency.label", "")).strip();
        for (int q = 0; q < names.size(); q++) {
            CountResult c = last[q];
            System.out.printf(
                    "| %s | %,d | %s | %.3f | %.3f | %.3f | %.3f |%n",
                    names.get(q),
                    c.total(),
                    c.aproximado() ? "yes (" + c.low() + ".." + c.high() + ")" : "no",
                    pct(countNs[q], 50),
                    pct(countNs[q], 99),
                    pct(pageNs[q], 50),
                    pct(pageNs[q], 99));
            csvLine(csv, names.get(q), ours, "count p50", pct(countNs[q], 50));
            csvLine(csv, names.get(q), ours, "count p99", pct(countNs[q], 99));
            csvLine(csv, names.get(q), ours, "page-50 p50", pct(pageNs[q], 50));
            csvLine(csv, names.get(q), ours, "page-50 p99", pct(pageNs[q], 99));
        }
        String csvFile = System.getProperty("latency.csv");
        if (csvFile != null) {
            try {
                java.nio.file.Files.writeString(Path.of(csvFile), csv);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static void csvLine(StringBuilder csv, String query, String engine, String metric, double ms) {
        csv.append(query.replace(',', ' '))
                .append(',')
                .append(engine)
                .append(',')
                .append(metric)
                .append(',')
                .append(String.format(java.util.Locale.ROOT, "%.4f", ms))
                .append('\n');
    }

    /** The same query, count-only ({@code apenas_total=true}). */
    static RegisterQuery countOnly(RegisterQuery q) {
        return q.toBuilder().countOnly(true).build();
    }

    /** The p-th percentile of the samples (nearest rank), in milliseconds. */
    static double pct(long[] ns, double p) {
        long[] s = ns.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))] / 1e6;
    }
}
