package dev.cadastro.benchmarks.register;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.SearchOptions;
import dev.cadastro.register.internal.LookupsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;

/**
 * The register search side by side with two SQL peers, in the same run and on the same rows (issue 4):
 * DuckDB in process ({@link SqlDuckDb}) and PostgreSQL embedded ({@link SqlPostgres}), against {@link
 * LuceneRegister} — the production path behind {@code GET /empresas} and {@code GET /empresas/{cnpj}}
 * — on an index that {@code ./cadastro load} built from the same dump. For each query of the Q1-Q10
 * mix ({@link RegisterLatency#mix()}): the count ({@code apenas_total}), a page of 50 with its total
 * (the peers run their count and their ordered page query), and lookup by CNPJ; single-threaded, after
 * a warm-up; percentiles from the sorted samples.
 *
 * <p>The rows come from the dump through the loader's own reader ({@link PeerRows}), once, into a file
 * under the work folder; the peers load it once and are reused by later runs. Every count is checked:
 * the peers must agree with each other, and with ours when ours is exact; an estimate of ours
 * ({@code aproximado}) must hold the peers' exact count in its interval. When the index is one segment
 * its order is global, {@code (uf, municipio, cnpj)}, and each page's CNPJs are compared with the
 * peers' {@code ORDER BY uf, municipio, cnpj}. A count that differs stops the run at once with exit status
 * 1, naming the query; other disagreements (pages, lookups) are printed at the end and make it 1 too.
 *
 * <p>Each peer's floor is measured too: a prepared {@code SELECT 1} through the same connection, what the
 * peer pays per statement (a JDBC round trip an in-process call does not pay) before it reads a row. A
 * count a peer answers a few times above its floor is one it answers from an index made for it.
 *
 * <p>A peer's measurement of one query stops after {@code ITERATIONS} samples or when it has spent the
 * time budget ({@code --budget-s}, 10 s by default) with at least 5 samples; the tables say how many
 * samples each figure rests on.
 *
 * <p>Ours is warmed up for {@code --warmup-s} seconds of the whole mix, counts and pages (20 by default,
 * and at least {@code max(20, ITERATIONS / 5)} rounds) before its counts and pages are measured, so
 * that the JIT has had the time a running server gives it; lookups are not part of the warm-up.
 *
 * <pre>
 * java -Xmx3g --enable-native-access=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *     dev.cadastro.benchmarks.register.PeerComparison DUMP_DIR INDEX_DIR WORK_DIR [ITERATIONS] \
 *     [--peers duckdb,postgres] [--budget-s S] [--warmup-s S] [--debt DIR] [--delete-rows] [--load-peers-only]
 *     [--scratch DIR]
 * </pre>
 *
 * <p>{@code --load-peers-only} exports the rows and loads the peers, then stops, without reading
 * INDEX_DIR (which may not exist yet): on a tight disk the peers can be loaded before our index is
 * built, and the run that measures reuses them. Give the same {@code --debt} to both runs (without it,
 * the dump's own {@code debt/} folder is read when there is one, as {@code ./cadastro load} does). DUMP_DIR
 * {@code -} measures without the dump (deleted to make room once the peers and our index were loaded):
 * the peers must hold the rows the work folder's {@code rows.properties} names, and queries resolve
 * municipalities with the index's own table. {@code --scratch DIR} puts the dump reader's join files
 * (about 4 GB at 70 M) there instead of the work folder.
 *
 * <p>{@code --delete-rows} deletes the rows file once the peers are loaded (PostgreSQL's load deletes it
 * as soon as it is sorted), for a 70 M run on a tight disk; a later run reuses the loaded peers, but a
 * peer that must load again asks for a new export.
 */
public final class PeerComparison {
    private static final int MIN_SAMPLES = 5;

    private PeerComparison() {}

    /** Samples of one peer on one query. */
    record PeerRun(long count, long[] countNs, long[] pageNs, List<String> page) {}

    /** Everything measured for one query. */
    record Row(
            String name,
            CountResult ours,
            SearchResult oursPage,
            long[] oursCountNs,
            long[] oursPageNs,
            List<String> oursCnpjs,
            Map<String, PeerRun> peers) {}

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        List<String> peerNames = List.of("duckdb", "postgres");
        long budgetNs = 10_000_000_000L;
        long warmupNs = 20_000_000_000L;
        Path debt = null;
        boolean deleteRows = false;
        boolean rollup = true;
        boolean loadOnly = false;
        Path scratch = null;
        boolean names = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--peers" -> peerNames = List.of(args[++i].split(","));
                case "--budget-s" -> budgetNs = Long.parseLong(args[++i]) * 1_000_000_000L;
                case "--warmup-s" -> warmupNs = Long.parseLong(args[++i]) * 1_000_000_000L;
                case "--debt" -> debt = Path.of(args[++i]);
                case "--delete-rows" -> deleteRows = true;
                case "--no-rollup" -> rollup = false;
                case "--load-peers-only" -> loadOnly = true;
                case "--scratch" -> scratch = Path.of(args[++i]);
                case "--names" -> names = true;
                default -> positional.add(args[i]);
            }
        }
        if (positional.size() < 3) {
            System.err.println("usage: PeerComparison DUMP_DIR INDEX_DIR WORK_DIR [ITERATIONS]"
                    + " [--peers duckdb,postgres] [--budget-s S] [--warmup-s S] [--debt DIR] [--delete-rows] [--no-rollup]"
                    + " [--load-peers-only] [--scratch DIR]");
            System.exit(2);
        }
        // DUMP_DIR "-": the dump was deleted after the peers were loaded (disk); the rows the peers hold are
        // those the work folder's rows.properties names, and the municipality table is the index's own.
        Path dump = positional.get(0).equals("-") ? null : Path.of(positional.get(0));
        Path index = Path.of(positional.get(1));
        Path work = Path.of(positional.get(2));
        int iterations = positional.size() > 3 ? Integer.parseInt(positional.get(3)) : 200;
        Files.createDirectories(work);
        // --peers none: no peer (with --load-peers-only, the rows exported alone).
        peerNames = peerNames.stream().filter(p -> !p.equals("none")).toList();
        for (String p : peerNames) {
            if (!p.equals("duckdb") && !p.equals("postgres")) {
                throw new IllegalArgumentException("--peers " + p + " is not one of duckdb, postgres, none");
            }
        }
        // DuckDB first: PostgreSQL's load is the last use of the rows file (see --delete-rows).
        peerNames = peerNames.stream().distinct().sorted().toList();

        if (loadOnly) {
            // The peers loaded from the dump alone (INDEX_DIR is not read): on a tight disk they can be loaded
            // while our index is still to be built, and a later run with the index reuses them.
            List<SqlPeer> peers = new ArrayList<>();
            try {
                openPeers(dump, debt, work, scratch, -1, peerNames, deleteRows, peers);
                printLoads(peers);
            } finally {
                for (SqlPeer peer : peers) {
                    peer.close();
                }
            }
            return;
        }

        List<String> problems = new ArrayList<>();
        List<SqlPeer> peers = new ArrayList<>();
        int segmentsSeen = 0;
        try (LuceneRegister register = LuceneRegister.open(
                index,
                SearchOptions.builder()
                        .refreshInterval(Duration.ZERO)
                        .rollupCounts(rollup)
                        .build())) {
            long documents = register.published().documents();
            int segments;
            try (FSDirectory dir = FSDirectory.open(register.published().path());
                    DirectoryReader r = DirectoryReader.open(dir)) {
                segments = r.leaves().size();
            }
            segmentsSeen = segments;
            System.out.printf(
                    Locale.ROOT,
                    "# Register search vs DuckDB and PostgreSQL%n%n%s; index %s: %,d establishments, %d segment(s), precomputed counts %s;"
                            + " %d processors, max heap %,d MB%n",
                    Instant.now(),
                    register.published().path(),
                    documents,
                    segments,
                    rollup
                            ? String.format(Locale.ROOT, "on (%,d KB of heap)", register.precomputedCountBytes() >> 10)
                            : "off (--no-rollup)",
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.getRuntime().maxMemory() >> 20);

            Lookups lookups = openPeers(dump, debt, work, scratch, documents, peerNames, deleteRows, peers);
            if (lookups == null) {
                lookups = LookupsFile.read(register.published().path().resolve(LookupsFile.NAME));
            }

            Map<String, RegisterQuery> mix = names ? RegisterLatency.nameMix() : RegisterLatency.mix();
            Map<String, Map<String, SqlPeer.Prepared>> prepared = new LinkedHashMap<>();
            for (SqlPeer peer : peers) {
                Map<String, SqlPeer.Prepared> byQuery = new LinkedHashMap<>();
                for (Map.Entry<String, RegisterQuery> e : mix.entrySet()) {
                    byQuery.put(e.getKey(), peer.prepare(e.getValue(), lookups));
                }
                prepared.put(peer.name(), byQuery);
            }

            // Warm-up: ours for at least --warmup-s seconds of the mix, so the JIT can compile the query
            // path (JMH warms up by time for the same reason); each peer runs every statement twice
            // (native code: its caches only).
            long warmupEnd = System.nanoTime() + warmupNs;
            int rounds = 0;
            while (rounds < Math.max(20, iterations / 5) || System.nanoTime() < warmupEnd) {
                for (RegisterQuery q : mix.values()) {
                    register.count(RegisterLatency.countOnly(q));
                    register.search(q);
                }
                rounds++;
            }
            System.out.printf(Locale.ROOT, "ours warmed up: %,d rounds of the mix%n", rounds);
            for (SqlPeer peer : peers) {
                for (int w = 0; w < 2; w++) {
                    for (SqlPeer.Prepared p : prepared.get(peer.name()).values()) {
                        SqlPeer.count(p.count());
                        SqlPeer.page(p.page());
                    }
                }
            }

            List<Row> results = new ArrayList<>();
            List<String> sample = new ArrayList<>();
            for (Map.Entry<String, RegisterQuery> e : mix.entrySet()) {
                String name = e.getKey();
                RegisterQuery q = e.getValue();
                RegisterQuery countQuery = RegisterLatency.countOnly(q);
                long[] oursCount = new long[iterations];
                long[] oursPage = new long[iterations];
                CountResult c = null;
                SearchResult page = null;
                for (int i = 0; i < iterations; i++) {
                    long t0 = System.nanoTime();
                    c = register.count(countQuery);
                    long t1 = System.nanoTime();
                    page = register.search(q);
                    oursCount[i] = t1 - t0;
                    oursPage[i] = System.nanoTime() - t1;
                }
                List<String> oursCnpjs = page.dados().stream()
                        .map(Empresa::cnpj)
                        .map(PeerComparison::plain)
                        .toList();
                sample.addAll(oursCnpjs);
                Map<String, PeerRun> runs = new LinkedHashMap<>();
                for (SqlPeer peer : peers) {
                    SqlPeer.Prepared p = prepared.get(peer.name()).get(name);
                    long[] total = {0};
                    long[] countNs = time(iterations, budgetNs, () -> total[0] = SqlPeer.count(p.count()));
                    List<List<String>> pages = new ArrayList<>();
                    long[] pageNs = time(iterations, budgetNs, () -> {
                        SqlPeer.count(p.count());
                        pages.add(SqlPeer.page(p.page()));
                        if (pages.size() > 1) {
                            pages.remove(0);
                        }
                    });
                    runs.put(peer.name(), new PeerRun(total[0], countNs, pageNs, pages.get(0)));
                }
                Row row = new Row(name, c, page, oursCount, oursPage, oursCnpjs, runs);
                try {
                    check(row, segments, problems);
                } catch (CountMismatch mismatch) {
                    System.out.println();
                    System.out.println("Cross-check FAILURE, stopping: " + mismatch.getMessage());
                    // Thrown out of main (exit status 1) once the peers are closed by the finally below.
                    throw mismatch;
                }
                results.add(row);
            }

            print(results, peers, iterations, segments);

            // Lookup by CNPJ: the CNPJs of our pages, drawn at random, the same sequence for everyone.
            List<Cnpj> parsed = sample.stream().map(Cnpj::of).toList();
            int lookups1 = Math.max(1000, iterations * 20);
            SplittableRandom random = new SplittableRandom(1);
            int[] picks = new int[lookups1];
            for (int i = 0; i < picks.length; i++) {
                picks[i] = random.nextInt(parsed.size());
            }
            long[] oursLookup = new long[picks.length];
            for (int w = 0; w < 2; w++) {
                for (int i = 0; i < picks.length; i++) {
                    long t0 = System.nanoTime();
                    if (register.lookup(parsed.get(picks[i])).isEmpty()) {
                        problems.add("ours: lookup lost " + sample.get(picks[i]));
                    }
                    oursLookup[i] = System.nanoTime() - t0;
                }
            }
            System.out.println();
            System.out.println("| lookup by CNPJ | p50 ms | p99 ms | samples | ratio p50 (peer/ours) |");
            System.out.println("|---|---:|---:|---:|---:|");
            System.out.printf("| ours (LuceneRegister.lookup) | %s | |%n", timing(oursLookup));
            for (SqlPeer peer : peers) {
                try (PreparedStatement ps = peer.prepareLookup()) {
                    for (int i = 0; i < Math.min(200, picks.length); i++) {
                        SqlPeer.lookup(ps, sample.get(picks[i]));
                    }
                    int[] n = {0};
                    long[] ns = time(picks.length, budgetNs, () -> {
                        String cnpj = sample.get(picks[n[0]++]);
                        if (!SqlPeer.lookup(ps, cnpj)) {
                            problems.add(peer.name() + ": lookup lost " + cnpj);
                        }
                    });
                    System.out.printf(
                            "| %s (primary key / unique index) | %s | %s |%n",
                            peer.name(),
                            timing(ns),
                            ratio(RegisterLatency.pct(ns, 50), RegisterLatency.pct(oursLookup, 50)));
                }
            }

            // The floor of a peer: a statement that reads no table, through the same JDBC path; what
            // each of its counts pays before it reads a row. As many samples as the lookups.
            System.out.println();
            System.out.println("| peer floor (`SELECT 1`, prepared) | p50 ms | p99 ms | samples |");
            System.out.println("|---|---:|---:|---:|");
            for (SqlPeer peer : peers) {
                try (PreparedStatement ps = peer.connection.prepareStatement("SELECT 1")) {
                    for (int i = 0; i < 200; i++) {
                        SqlPeer.count(ps);
                    }
                    long[] ns = time(picks.length, budgetNs, () -> SqlPeer.count(ps));
                    System.out.printf("| %s | %s |%n", peer.name(), timing(ns));
                }
            }

            printLoads(peers);
            System.out.printf(
                    Locale.ROOT,
                    "| ours (./cadastro load, separately) | %,d | | | %,d | | index generation on disk |%n",
                    documents,
                    directorySize(register.published().path()) >> 20);

            System.out.println();
            System.out.println("SQL of each query (PostgreSQL spelling) and PostgreSQL's plan for its count:");
            SqlPeer pg = peers.stream()
                    .filter(p -> p instanceof SqlPostgres)
                    .findFirst()
                    .orElse(null);
            for (Map.Entry<String, RegisterQuery> e : mix.entrySet()) {
                SqlPeer any = pg != null ? pg : peers.isEmpty() ? null : peers.get(0);
                if (any == null) {
                    break;
                }
                String where = prepared.get(any.name()).get(e.getKey()).where();
                System.out.printf("- %s: `WHERE %s`%n", e.getKey(), where);
                if (pg != null) {
                    try (Statement s = pg.connection.createStatement();
                            ResultSet r = s.executeQuery("EXPLAIN SELECT count(*) FROM est WHERE " + where)) {
                        List<String> plan = new ArrayList<>();
                        while (r.next()) {
                            String line = r.getString(1).strip();
                            if (line.contains("Scan") || line.contains("Gather")) {
                                plan.add(line.replaceAll("\\s+\\(cost=.*", ""));
                            }
                        }
                        System.out.println("  plan: " + String.join(" / ", plan));
                    }
                }
            }
        } finally {
            for (SqlPeer peer : peers) {
                peer.close();
            }
        }
        System.out.println();
        if (peers.isEmpty()) {
            System.out.println("Cross-checks: none (no peer ran).");
        } else if (problems.isEmpty()) {
            System.out.println("Cross-checks: every count agrees (estimates hold the exact count), "
                    + (segmentsSeen == 1
                            ? "every page matches."
                            : "pages not compared (the index has " + segmentsSeen
                                    + " segments, so its order is per segment; load with --segments 1 to compare)."));
        } else {
            System.out.println("Cross-check FAILURES:");
            problems.forEach(p -> System.out.println("- " + p));
            System.exit(1);
        }
    }

    /**
     * Exports the dump's rows (or finds them exported) and opens each peer into {@code peers}, loading it
     * when the work folder does not hold these rows yet; {@code documents} is the index's count, which the
     * rows must equal, or -1 when no index is read. Returns the dump's lookup tables, or null when {@code
     * dump} is null: then the rows are those recorded in the work folder when the peers were loaded.
     */
    private static Lookups openPeers(
            Path dump,
            Path debt,
            Path work,
            Path scratch,
            long documents,
            List<String> peerNames,
            boolean deleteRows,
            List<SqlPeer> peers)
            throws Exception {
        Lookups lookups = null;
        PeerRows.Export rows;
        if (dump == null) {
            rows = PeerRows.recorded(work);
        } else {
            LoadOptions options = LoadOptions.builder(dump)
                    .debt(debt)
                    .rejects(work.resolve("rows.rejects.tsv"))
                    .scratch(scratch != null ? scratch : work)
                    .verifyUnread(false)
                    .build();
            DumpReader reader = DumpReader.open(options);
            lookups = reader.lookups();
            // The folder the reader reads (--debt, else the dump's debt/), so rows exported without it are
            // not reused for a load with it.
            rows = PeerRows.ensure(reader, PeerRows.fingerprint(dump, options.debt()), work, documents);
        }
        System.out.printf(
                Locale.ROOT,
                "rows: %,d from dump %s (%s, %.1f s, %s)%n",
                rows.rows(),
                rows.dumpDate(),
                rows.reused() ? "exported earlier" : "exported now",
                rows.millis() / 1e3,
                Files.exists(rows.file())
                        ? String.format(Locale.ROOT, "%,d MB", Files.size(rows.file()) >> 20)
                        : "file deleted after loading");
        if (documents >= 0 && rows.rows() != documents) {
            throw new IllegalStateException("the dump gives " + rows.rows() + " establishments, the index holds "
                    + documents + ": was the index built from this dump?");
        }
        for (String p : peerNames) {
            System.out.printf("opening %s (loading it when the work folder does not hold it yet)...%n", p);
            peers.add(p.equals("duckdb") ? SqlDuckDb.open(work, rows) : SqlPostgres.open(work, rows, deleteRows));
        }
        if (deleteRows) {
            Files.deleteIfExists(rows.file());
        }
        return lookups;
    }

    private static void printLoads(List<SqlPeer> peers) {
        System.out.println();
        System.out.println("| peer | rows | load s | indexes + vacuum/checkpoint s | on disk MB | loaded | notes |");
        System.out.println("|---|---:|---:|---:|---:|---|---|");
        for (SqlPeer peer : peers) {
            SqlPeer.Load l = peer.load();
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %,d | %.1f | %.1f | %,d | %s | %s |%n",
                    peer.name(),
                    l.rows(),
                    l.loadMillis() / 1e3,
                    l.indexMillis() / 1e3,
                    l.diskBytes() >> 20,
                    l.reused() ? "earlier run" : "this run",
                    l.notes());
        }
    }

    /**
     * A count of a query that differs between the measured parties: the comparison stops there, as every
     * later figure would compare answers to different questions (a dump loaded with debt files on one
     * side and without on the other gives exactly that on the {@code divida} queries).
     */
    static final class CountMismatch extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        CountMismatch(String message) {
            super(message);
        }
    }

    /**
     * Cross-checks the counts of one query: the peers agree with each other, ours (count-only and the
     * page's total) equals theirs when exact, or holds theirs in its interval when an estimate.
     *
     * @throws CountMismatch naming the query, at the first count that differs
     */
    static void checkCounts(Row row) {
        Long exact = null;
        for (Map.Entry<String, PeerRun> e : row.peers().entrySet()) {
            long n = e.getValue().count();
            if (exact == null) {
                exact = n;
            } else if (exact != n) {
                throw new CountMismatch(row.name() + ": peers disagree, "
                        + row.peers().keySet() + " counted "
                        + row.peers().values().stream().map(PeerRun::count).toList());
            }
            CountResult c = row.ours();
            if (c.aproximado()) {
                if (n < c.low() || n > c.high()) {
                    throw new CountMismatch(String.format(
                            Locale.ROOT,
                            "%s: our estimate %,d (%,d..%,d) does not hold %s's exact %,d",
                            row.name(),
                            c.total(),
                            c.low(),
                            c.high(),
                            e.getKey(),
                            n));
                }
            } else if (c.total() != n) {
                throw new CountMismatch(String.format(
                        Locale.ROOT, "%s: we count %,d, %s counts %,d", row.name(), c.total(), e.getKey(), n));
            }
            if (!row.oursPage().aproximado() && row.oursPage().total() != n) {
                throw new CountMismatch(String.format(
                        Locale.ROOT,
                        "%s: our page states total %,d, %s counts %,d",
                        row.name(),
                        row.oursPage().total(),
                        e.getKey(),
                        n));
            }
        }
    }

    private static void check(Row row, int segments, List<String> problems) {
        checkCounts(row);
        for (Map.Entry<String, PeerRun> e : row.peers().entrySet()) {
            if (segments == 1 && !row.oursCnpjs().equals(e.getValue().page())) {
                problems.add(row.name() + ": page differs from " + e.getKey() + "'s at position "
                        + firstDifference(row.oursCnpjs(), e.getValue().page()) + " (ours "
                        + row.oursCnpjs().size() + " rows, theirs "
                        + e.getValue().page().size() + ")");
            }
        }
    }

    private static int firstDifference(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return i + 1;
            }
        }
        return Math.min(a.size(), b.size()) + 1;
    }

    /** A table's header and rule: our columns, then p50, p99, ratio, samples (and {@code extra}) per peer. */
    private static void header(String head, String rule, List<SqlPeer> peers, String extraHead, String extraRule) {
        StringBuilder h = new StringBuilder(head);
        StringBuilder r = new StringBuilder(rule);
        for (SqlPeer p : peers) {
            h.append(' ')
                    .append(p.name())
                    .append(" p50 ms | ")
                    .append(p.name())
                    .append(" p99 ms | ")
                    .append(p.name())
                    .append("/ours p50 | n |")
                    .append(extraHead);
            r.append("---:|---:|---:|---:|").append(extraRule);
        }
        System.out.println(h);
        System.out.println(r);
    }

    private static void print(List<Row> rows, List<SqlPeer> peers, int iterations, int segments) {
        System.out.printf("%n## Counts (apenas_total); ours: %d samples per query%n%n", iterations);
        header("| query | exact total | ours | ours p50 ms | ours p99 ms |", "|---|---:|---|---:|---:|", peers, "", "");
        for (Row r : rows) {
            PeerRun first =
                    r.peers().isEmpty() ? null : r.peers().values().iterator().next();
            CountResult c = r.ours();
            StringBuilder line = new StringBuilder(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.3f | %.3f |",
                    r.name(),
                    first == null ? "" : String.format(Locale.ROOT, "%,d", first.count()),
                    c.aproximado()
                            ? String.format(Locale.ROOT, "~%,d (%,d..%,d)", c.total(), c.low(), c.high())
                            : String.format(Locale.ROOT, "%,d", c.total()),
                    RegisterLatency.pct(r.oursCountNs(), 50),
                    RegisterLatency.pct(r.oursCountNs(), 99)));
            for (PeerRun p : r.peers().values()) {
                line.append(peerColumns(p.countNs(), r.oursCountNs()));
            }
            System.out.println(line);
        }
        System.out.printf("%n## Page of 50 with its total (peers: count + ORDER BY uf, municipio, cnpj LIMIT 50)%n%n");
        header("| query | ours p50 ms | ours p99 ms |", "|---|---:|---:|", peers, " same page |", "---|");
        for (Row r : rows) {
            StringBuilder line = new StringBuilder(String.format(
                    Locale.ROOT,
                    "| %s | %.3f | %.3f |",
                    r.name(),
                    RegisterLatency.pct(r.oursPageNs(), 50),
                    RegisterLatency.pct(r.oursPageNs(), 99)));
            for (PeerRun p : r.peers().values()) {
                line.append(peerColumns(p.pageNs(), r.oursPageNs()))
                        .append(' ')
                        .append(
                                segments != 1
                                        ? "n/a (" + segments + " segments)"
                                        : r.oursCnpjs().equals(p.page()) ? "yes" : "NO")
                        .append(" |");
            }
            System.out.println(line);
        }
        System.out.println();
        for (SqlPeer p : peers) {
            double min = Double.MAX_VALUE;
            String at = "";
            for (Row r : rows) {
                double x = RegisterLatency.pct(r.peers().get(p.name()).countNs(), 50)
                        / RegisterLatency.pct(r.oursCountNs(), 50);
                if (x < min) {
                    min = x;
                    at = r.name();
                }
            }
            int goal = p instanceof SqlPostgres ? 100 : 10;
            System.out.printf(
                    Locale.ROOT,
                    "Goal ours >= %dx faster than %s on every count (p50): %s; smallest ratio %.1fx (%s)%n",
                    goal,
                    p.name(),
                    min >= goal ? "met" : "NOT met",
                    min,
                    at);
        }
    }

    /** Samples {@code op} up to {@code max} times, stopping early once past the budget with enough samples. */
    static long[] time(int max, long budgetNs, ThrowingOp op) throws Exception {
        long[] ns = new long[max];
        long spent = 0;
        int n = 0;
        while (n < max && (spent < budgetNs || n < MIN_SAMPLES)) {
            long t0 = System.nanoTime();
            op.run();
            long t = System.nanoTime() - t0;
            ns[n++] = t;
            spent += t;
        }
        return Arrays.copyOf(ns, n);
    }

    @FunctionalInterface
    interface ThrowingOp {
        void run() throws Exception;
    }

    /** A timing's cells: its p50 and p99 in ms, its sample count. */
    private static String timing(long[] ns) {
        return String.format(
                Locale.ROOT, "%.3f | %.3f | %d", RegisterLatency.pct(ns, 50), RegisterLatency.pct(ns, 99), ns.length);
    }

    /** A peer's columns for one measure: its p50 and p99 in ms, its p50 over ours, its sample count. */
    private static String peerColumns(long[] peerNs, long[] oursNs) {
        return String.format(
                Locale.ROOT,
                " %.3f | %.3f | %s | %d |",
                RegisterLatency.pct(peerNs, 50),
                RegisterLatency.pct(peerNs, 99),
                ratio(RegisterLatency.pct(peerNs, 50), RegisterLatency.pct(oursNs, 50)),
                peerNs.length);
    }

    private static String ratio(double peer, double ours) {
        double x = peer / ours;
        return String.format(Locale.ROOT, x >= 100 ? "%,.0fx" : "%.1fx", x);
    }

    private static String plain(String cnpj) {
        return cnpj.replaceAll("[^0-9A-Za-z]", "").toUpperCase(Locale.ROOT);
    }

    private static long directorySize(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            long total = 0;
            for (Path f : files.toList()) {
                total += Files.size(f);
            }
            return total;
        }
    }
}
