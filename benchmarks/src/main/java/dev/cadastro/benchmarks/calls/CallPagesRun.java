package dev.cadastro.benchmarks.calls;

import dev.cadastro.benchmarks.Flags;
import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.store.Database;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.postgresql.PGConnection;

/**
 * Pages of the call-records list at the store, the production path {@code PgCallStore.page} (a keyset
 * read on the partial index {@code calls_list} through HikariCP and pgjdbc), on 2 million ready calls of
 * one integration in the 7-day window of an embedded PostgreSQL, against the same walk done with {@code
 * OFFSET} in the same run.
 *
 * <p>Not a JMH benchmark: the work is a database state built once (minutes) and then read, which JMH's
 * forked iterations do not fit. The calls are loaded with {@code COPY} (ingest one by one is not what is
 * measured), a tenth of them in groups of three sharing one microsecond so the keyset meets ties. Then:
 *
 * <ul>
 *   <li>keyset, first page: {@code --samples} fetches of the first page of {@code --limit};
 *   <li>keyset, deep page: the walk from the first page to page {@code --page} by cursor (every page timed),
 *       then {@code --samples} fetches at that position;
 *   <li>keyset with the {@code agente} filter (one agent of 400): its first page and its last full page;
 *   <li>OFFSET, first page and deep page: {@code ORDER BY classified_at DESC, id DESC LIMIT 50 OFFSET k*50}
 *       on the same table and the same pool, {@code --offset-samples} fetches each.
 * </ul>
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.cadastro.benchmarks.calls.CallPagesRun
 * [--calls 2000000] [--page 10000] [--limit 50] [--samples 2000] [--offset-samples 40] [--dir
 * target/call-pages-bench]}
 */
public final class CallPagesRun {
    private CallPagesRun() {}

    public static void main(String[] args) throws Exception {
        int calls = Integer.parseInt(Flags.value(args, "calls", "2000000"));
        int deepPage = Integer.parseInt(Flags.value(args, "page", "10000"));
        int limit = Integer.parseInt(Flags.value(args, "limit", "50"));
        int samples = Integer.parseInt(Flags.value(args, "samples", "2000"));
        int offsetSamples = Integer.parseInt(Flags.value(args, "offset-samples", "40"));
        Path dir = Path.of(Flags.value(args, "dir", "target/call-pages-bench"));
        if ((long) deepPage * limit > calls) {
            throw new IllegalArgumentException(
                    "--page " + deepPage + " of " + limit + " needs more than " + calls + " calls");
        }
        Files.createDirectories(dir);
        Path data = Files.createTempDirectory(dir, "pg-");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Database db = Database.builder()
                .embedded(data)
                .durableCommits(false)
                .poolSize(4)
                .build();
        System.out.printf(
                Locale.ROOT,
                "call pages: %,d ready calls, page %d of %d, %d samples (%d with OFFSET), %d cores, %s%n",
                calls,
                deepPage,
                limit,
                samples,
                offsetSamples,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        try (Store store = Store.open(db, Clock.systemUTC())) {
            Integration integration = store.callTokens().create("bench-pages").integration();
            long t0 = System.nanoTime();
            load(store, integration.id(), calls, now);
            System.out.printf(Locale.ROOT, "loaded and analyzed in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            Instant windowStart = now.minus(Duration.ofDays(7));
            CallStore store0 = store.calls();

            // Warm-up: the JIT and the index's upper levels.
            for (int i = 0; i < 500; i++) {
                store0.page(integration.id(), CallFilter.NONE, Optional.empty(), windowStart, limit);
            }
            long[] first = new long[samples];
            for (int i = 0; i < samples; i++) {
                long s = System.nanoTime();
                List<CallRecord> p =
                        store0.page(integration.id(), CallFilter.NONE, Optional.empty(), windowStart, limit);
                first[i] = System.nanoTime() - s;
                check(p.size() == limit, "first page has " + p.size());
            }

            long[] walk = new long[deepPage - 1];
            Optional<CallPosition> after = Optional.empty();
            long walked = 0;
            for (int i = 0; i < deepPage - 1; i++) {
                long s = System.nanoTime();
                List<CallRecord> p = store0.page(integration.id(), CallFilter.NONE, after, windowStart, limit);
                walk[i] = System.nanoTime() - s;
                check(p.size() == limit, "page " + (i + 1) + " has " + p.size());
                after = Optional.of(p.get(p.size() - 1).position());
                walked += p.size();
            }
            long[] deep = new long[samples];
            List<CallRecord> deepKeyset = List.of();
            for (int i = 0; i < samples; i++) {
                long s = System.nanoTime();
                deepKeyset = store0.page(integration.id(), CallFilter.NONE, after, windowStart, limit);
                deep[i] = System.nanoTime() - s;
            }
            check(walked == (long) (deepPage - 1) * limit, "walked " + walked);

            // One agent's calls (a 400th of them): the filter's own index, first page and last full page.
            CallFilter agent = new CallFilter(
                    Optional.empty(), Optional.empty(), Optional.of("agente.7"), Optional.empty(), Optional.empty());
            int agentPages = calls / 400 / limit;
            long[] agentFirst = new long[samples];
            for (int i = 0; i < samples; i++) {
                long s = System.nanoTime();
                List<CallRecord> p = store0.page(integration.id(), agent, Optional.empty(), windowStart, limit);
                agentFirst[i] = System.nanoTime() - s;
                check(p.size() == limit, "agent's first page has " + p.size());
            }
            Optional<CallPosition> agentAfter = Optional.empty();
            for (int i = 0; i < agentPages - 1; i++) {
                List<CallRecord> p = store0.page(integration.id(), agent, agentAfter, windowStart, limit);
                check(p.stream().allMatch(r -> r.agentLogin().equals("agente.7")), "filter leaked");
                agentAfter = Optional.of(p.get(p.size() - 1).position());
            }
            long[] agentDeep = new long[samples];
            for (int i = 0; i < samples; i++) {
                long s = System.nanoTime();
                store0.page(integration.id(), agent, agentAfter, windowStart, limit);
                agentDeep[i] = System.nanoTime() - s;
            }

            long[] offFirst = new long[offsetSamples];
            long[] offDeep = new long[offsetSamples];
            List<String> deepOffsetIds = List.of();
            try (Connection c = store.dataSource().getConnection()) {
                c.setNetworkTimeout(Runnable::run, 0); // the OFFSET peer's deep pages may take seconds
                for (int i = 0; i < 5; i++) {
                    offset(c, integration.id(), windowStart, limit, 0);
                    offset(c, integration.id(), windowStart, limit, (long) (deepPage - 1) * limit);
                }
                for (int i = 0; i < offsetSamples; i++) {
                    long s = System.nanoTime();
                    offset(c, integration.id(), windowStart, limit, 0);
                    offFirst[i] = System.nanoTime() - s;
                    s = System.nanoTime();
                    deepOffsetIds = offset(c, integration.id(), windowStart, limit, (long) (deepPage - 1) * limit);
                    offDeep[i] = System.nanoTime() - s;
                }
            }
            check(
                    deepOffsetIds.equals(deepKeyset.stream().map(CallRecord::id).toList()),
                    "the keyset's and OFFSET's page " + deepPage + " differ");

            System.out.printf(
                    Locale.ROOT, "%-40s %9s %9s %9s %9s%n", "ms per page of " + limit, "p50", "p99", "max", "n");
            row("keyset, page 1", first);
            row("keyset, pages 1.." + (deepPage - 1) + " (the walk)", walk);
            row("keyset, page " + deepPage, deep);
            row("keyset, agente filter, page 1", agentFirst);
            row("keyset, agente filter, page " + agentPages, agentDeep);
            row("OFFSET, page 1", offFirst);
            row("OFFSET, page " + deepPage + " (OFFSET " + (long) (deepPage - 1) * limit + ")", offDeep);
            System.out.printf(
                    Locale.ROOT,
                    "page %d / page 1, p50: keyset %.2fx, OFFSET %.1fx; OFFSET / keyset at page %d, p50: %.0fx%n",
                    deepPage,
                    pct(deep, 50) / pct(first, 50),
                    pct(offDeep, 50) / pct(offFirst, 50),
                    deepPage,
                    pct(offDeep, 50) / pct(deep, 50));
        }
    }

    /**
     * The ready calls over the last 6.5 days, newest first by number; a tenth of them in groups of three
     * that share one microsecond.
     */
    private static void load(Store store, long integrationId, int calls, Instant now) throws SQLException, IOException {
        long spanMicros = Duration.ofHours(156).toNanos() / 1_000;
        long step = Math.max(1, spanMicros / calls);
        try (Connection c = store.dataSource().getConnection()) {
            c.setNetworkTimeout(Runnable::run, 0); // a bulk load, not a request: no network timeout
            PGConnection pg = c.unwrap(PGConnection.class);
            Reader rows = new Reader() {
                private int next = 0;
                private final StringBuilder buf = new StringBuilder();
                private int pos = 0;

                @Override
                public int read(char[] cbuf, int off, int len) {
                    while (pos >= buf.length()) {
                        if (next >= calls) {
                            return -1;
                        }
                        buf.setLength(0);
                        pos = 0;
                        for (int k = 0; k < 1000 && next < calls; k++, next++) {
                            row(buf, next);
                        }
                    }
                    int n = Math.min(len, buf.length() - pos);
                    buf.getChars(pos, pos + n, cbuf, off);
                    pos += n;
                    return n;
                }

                private void row(StringBuilder b, int n) {
                    long tick = (n % 30 < 3) ? n - n % 30 : n; // ties: 3 calls of each 30 share a microsecond
                    Instant classified = now.minusNanos(1_000L * (tick * step + 1 + (tick % 997)));
                    Instant started = classified.minusSeconds(200 + n % 300);
                    String id = String.format(Locale.ROOT, "C%09d", n);
                    String agent = "agente." + (n % 400);
                    b.append(integrationId).append('\t');
                    b.append(id).append('\t').append(id).append('\t');
                    b.append(n % 400)
                            .append('\t')
                            .append(agent)
                            .append('\t')
                            .append("Agente ")
                            .append(n % 400)
                            .append('\t');
                    b.append("fila-").append(n % 12).append('\t');
                    b.append(n % 16 == 0 ? "\\N" : "R" + (n % 40)).append('\t');
                    b.append("Resultado ").append(n % 40).append('\t');
                    b.append(classified).append('\t').append(started).append('\t');
                    b.append(120 + n % 300).append('\t');
                    b.append(classified.plusSeconds(90)).append('\t');
                    b.append("calls/")
                            .append(integrationId)
                            .append('/')
                            .append(id)
                            .append(".wav\t");
                    b.append(now).append('\t').append(now).append('\n');
                }

                @Override
                public void close() {}
            };
            pg.getCopyAPI()
                    .copyIn(
                            "COPY calls (integration_id, id, occurrence_id, agent_id, agent_login, agent_name, queue,"
                                    + " result_code, result_description, classified_at, started_at, duration_seconds,"
                                    + " archived_at, recording_key, ingested_at, updated_at) FROM STDIN",
                            rows);
            try (Statement s = c.createStatement()) {
                s.execute("VACUUM ANALYZE calls");
            }
        }
    }

    private static List<String> offset(Connection c, long integrationId, Instant windowStart, int limit, long offset)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT integration_id, id, occurrence_id, agent_id, agent_login,"
                        + " agent_name, queue, result_code, result_description, classified_at, started_at, duration_seconds,"
                        + " archived_at, recording_key FROM calls WHERE integration_id = ? AND archived_at IS NOT NULL"
                        + " AND classified_at >= ? ORDER BY classified_at DESC, id DESC LIMIT ? OFFSET ?")) {
            ps.setLong(1, integrationId);
            ps.setObject(2, OffsetDateTime.ofInstant(windowStart, ZoneOffset.UTC));
            ps.setInt(3, limit);
            ps.setLong(4, offset);
            List<String> ids = new java.util.ArrayList<>(limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // Read every column, as the store does.
                    for (int k = 1; k <= 14; k++) {
                        rs.getObject(k);
                    }
                    ids.add(rs.getString(2));
                }
            }
            return ids;
        }
    }

    private static void row(String name, long[] nanos) {
        System.out.printf(
                Locale.ROOT,
                "%-40s %9.3f %9.3f %9.3f %9d%n",
                name,
                pct(nanos, 50),
                pct(nanos, 99),
                pct(nanos, 100),
                nanos.length);
    }

    /** The percentile in milliseconds. */
    private static double pct(long[] nanos, double p) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))] / 1e6;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("ANOMALY: " + what);
            System.exit(1);
        }
    }
}
