package dev.cadastro.benchmarks.register;

import dev.cadastro.store.EmbeddedDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;

/**
 * PostgreSQL (the store's embedded server, data folder under the work folder, kept between runs), the
 * row-store peer, set up as a DBA would for this read-only workload on a 24 GB, 2-core machine and for
 * these queries:
 *
 * <ul>
 *   <li>settings (ALTER SYSTEM, then one restart): {@code shared_buffers} 4 GB, {@code work_mem} 256 MB,
 *       {@code effective_cache_size} 12 GB, 2 parallel workers per gather, {@code random_page_cost} 1.1
 *       (the data is cached), JIT off (it only adds compile time to sub-second queries), minimal WAL for
 *       the bulk load, at most 512 MB of WAL kept;
 *   <li>the rows COPYed (pgjdbc's CopyManager) in index order (sorted by DuckDB first), in the
 *       transaction that creates the table, so the heap is clustered on {@code (uf, municipio, cnpj)};
 *   <li>indexes: the primary key; {@code (uf, municipio, cnpj)} for geography and pages in order;
 *       covering b-trees for the mix's filter combinations so counts are index-only scans (the debt
 *       flag is included where Q14-Q16 filter on it); GIN on the secondary CNAEs and the area codes;
 *       then VACUUM ANALYZE so the visibility map is set.
 * </ul>
 *
 * A database whose {@code peer_meta} row count and dump fingerprint match the rows file is reused.
 */
final class SqlPostgres extends SqlPeer {
    /** Server settings and their values as {@code SHOW} prints them. */
    static final Map<String, String> SETTINGS = new LinkedHashMap<>();

    static {
        SETTINGS.put("shared_buffers", "4GB");
        SETTINGS.put("work_mem", "256MB");
        SETTINGS.put("maintenance_work_mem", "1GB");
        SETTINGS.put("effective_cache_size", "12GB");
        SETTINGS.put("max_parallel_workers_per_gather", "2");
        SETTINGS.put("max_parallel_maintenance_workers", "2");
        SETTINGS.put("random_page_cost", "1.1");
        SETTINGS.put("effective_io_concurrency", "200");
        SETTINGS.put("jit", "off");
        SETTINGS.put("wal_level", "minimal");
        SETTINGS.put("max_wal_senders", "0");
        // WAL kept small: at 70 M the disk holds the dump, an index and this database with little to spare, and
        // a bulk load under minimal WAL writes little but VACUUM's page images.
        SETTINGS.put("max_wal_size", "512MB");
        SETTINGS.put("checkpoint_timeout", "30min");
    }

    /** Indexes after the load: name and definition. */
    static final List<String[]> INDEXES = List.of(
            new String[] {"est_pkey", "ALTER TABLE est ADD CONSTRAINT est_pkey PRIMARY KEY (cnpj)"},
            new String[] {"est_geo", "CREATE INDEX est_geo ON est (uf, municipio, cnpj)"},
            new String[] {
                "est_sit_geo",
                "CREATE INDEX est_sit_geo ON est (situacao, uf, municipio) INCLUDE (email, capital, divida)"
            },
            new String[] {"est_cnae", "CREATE INDEX est_cnae ON est (cnae, situacao, uf, municipio)"},
            new String[] {"est_nat", "CREATE INDEX est_nat ON est (natureza, situacao, abertura) INCLUDE (tel)"},
            new String[] {"est_uf_mei", "CREATE INDEX est_uf_mei ON est (uf, mei, abertura) INCLUDE (divida)"},
            new String[] {"est_cnaes2", "CREATE INDEX est_cnaes2 ON est USING gin (cnaes2)"},
            new String[] {"est_ddds", "CREATE INDEX est_ddds ON est USING gin (ddds)"},
            // Name search: full text over the folded (unaccented, upper-case) name words, the 'simple'
            // configuration (no stemming, no stop-words of its own: the export already left ours out).
            new String[] {"est_nomes", "CREATE INDEX est_nomes ON est USING gin (to_tsvector('simple', nomes))"});

    private final EmbeddedDatabase server;

    private SqlPostgres(EmbeddedDatabase server, Connection connection, Load load) {
        super(connection, load);
        this.server = server;
    }

    /**
     * Opens the PostgreSQL peer under {@code work}, loading it when it does not hold the rows yet;
     * {@code deleteRows} deletes the rows file once it is sorted for COPY (PostgreSQL loads last).
     */
    static SqlPostgres open(Path work, PeerRows.Export rows, boolean deleteRows) throws SQLException, IOException {
        Path dir = work.resolve("postgres");
        EmbeddedDatabase server = EmbeddedDatabase.start(dir, false);
        Connection c = DriverManager.getConnection(server.jdbcUrl());
        if (!configured(c)) {
            try (Statement s = c.createStatement()) {
                for (Map.Entry<String, String> e : SETTINGS.entrySet()) {
                    s.execute("ALTER SYSTEM SET " + e.getKey() + " = '" + e.getValue() + "'");
                }
            }
            c.close();
            server.close();
            server = EmbeddedDatabase.start(dir, false);
            c = DriverManager.getConnection(server.jdbcUrl());
            if (!configured(c)) {
                throw new IllegalStateException("PostgreSQL did not take the settings " + SETTINGS);
            }
        }
        Meta existing = loadMeta(c);
        if (existing.holds(rows)) {
            return new SqlPostgres(
                    server,
                    c,
                    new Load(
                            existing.rows(),
                            existing.loadMillis(),
                            existing.indexMillis(),
                            size(c),
                            true,
                            folder(dir) + version(c)));
        }
        Path sorted = work.resolve("rows.sorted.tsv");
        long sortMillis = SqlDuckDb.sortForCopy(rows.require("PostgreSQL"), sorted, work);
        if (deleteRows) {
            Files.delete(rows.file());
        }
        long t0 = System.nanoTime();
        boolean loaded = false;
        try (Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("DROP TABLE IF EXISTS peer_meta");
            s.execute("DROP TABLE IF EXISTS est");
            s.execute("CREATE TABLE est (cnpj text COLLATE \"C\" NOT NULL, uf smallint NOT NULL,"
                    + " municipio smallint NOT NULL, situacao text, porte text, natureza text, cnae text,"
                    + " cnaes2 text[] NOT NULL, ddds text[] NOT NULL, mei boolean NOT NULL, simples boolean NOT NULL,"
                    + " tel boolean NOT NULL, movel boolean NOT NULL, email boolean NOT NULL, divida boolean NOT NULL,"
                    + " abertura date, capital bigint, razao_social text, bairro text, nomes text)");
            long copied;
            try (InputStream in = Files.newInputStream(sorted)) {
                copied = c.unwrap(PGConnection.class)
                        .getCopyAPI()
                        .copyIn("COPY est FROM STDIN WITH (FORMAT text, ENCODING 'UTF8')", in, 1 << 20);
            }
            c.commit();
            c.setAutoCommit(true);
            if (copied != rows.rows()) {
                throw new IllegalStateException("PostgreSQL copied " + copied + " rows, the file holds " + rows.rows());
            }
            loaded = true;
        } finally {
            if (loaded || !deleteRows) {
                Files.deleteIfExists(sorted);
            } else if (Files.exists(sorted)) {
                // The rows file was deleted to make room: keep the sorted copy as the rows file, so a failed
                // COPY (disk or WAL full) does not cost a re-export of the dump.
                Files.move(sorted, rows.file(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        long t1 = System.nanoTime();
        StringBuilder notes = new StringBuilder("sort for COPY " + sortMillis / 1000 + " s; ");
        try (Statement s = c.createStatement()) {
            for (String[] index : INDEXES) {
                long i0 = System.nanoTime();
                s.execute(index[1]);
                notes.append(index[0])
                        .append(' ')
                        .append((System.nanoTime() - i0) / 1_000_000_000)
                        .append(" s, ");
            }
            long v0 = System.nanoTime();
            s.execute("VACUUM (ANALYZE) est");
            notes.append("vacuum analyze ")
                    .append((System.nanoTime() - v0) / 1_000_000_000)
                    .append(" s; ");
            long t2 = System.nanoTime();
            for (String sql : metaStatements(rows.rows(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, rows.dump())) {
                s.execute(sql);
            }
            s.execute("CHECKPOINT");
            return new SqlPostgres(
                    server,
                    c,
                    new Load(
                            rows.rows(),
                            (t1 - t0) / 1_000_000,
                            (t2 - t1) / 1_000_000,
                            size(c),
                            false,
                            notes + folder(dir) + version(c)));
        }
    }

    private static boolean configured(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (Map.Entry<String, String> e : SETTINGS.entrySet()) {
                try (ResultSet r = s.executeQuery("SHOW " + e.getKey())) {
                    r.next();
                    if (!r.getString(1).equals(e.getValue())) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static long size(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT pg_total_relation_size('est')")) {
            r.next();
            return r.getLong(1);
        }
    }

    /** The data folder's size (relations, WAL, catalog), as a note. */
    private static String folder(Path dir) throws IOException {
        long total = 0;
        try (var files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                try {
                    total += Files.size(f);
                } catch (java.nio.file.NoSuchFileException gone) {
                    // a WAL segment recycled while walking
                }
            }
        }
        return String.format(java.util.Locale.ROOT, "data folder %,d MB; ", total >> 20);
    }

    private static String version(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SHOW server_version")) {
            r.next();
            return "PostgreSQL " + r.getString(1);
        }
    }

    @Override
    String name() {
        return "PostgreSQL";
    }

    @Override
    String overlaps(String column, Collection<String> values) {
        return column + " && ARRAY[" + literals(values) + "]::text[]";
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            server.close();
        }
    }
}
