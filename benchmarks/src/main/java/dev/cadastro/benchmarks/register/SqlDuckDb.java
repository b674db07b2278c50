package dev.cadastro.benchmarks.register;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.stream.Collectors;

/**
 * DuckDB in process (duckdb_jdbc), the columnar peer: the table is created from the rows file in one
 * {@code CREATE TABLE AS ... ORDER BY uf, municipio, cnpj}, so its row groups' min/max zone maps prune
 * geography and a page in index order is a short ordered scan; an ART index on {@code cnpj} serves
 * lookups. {@code memory_limit} 4 GB, 2 threads, spill files under the work folder. A database whose
 * row count and dump fingerprint match the rows file is reused.
 */
final class SqlDuckDb extends SqlPeer {
    static final String FILE = "peer.duckdb";

    private SqlDuckDb(Connection connection, Load load) {
        super(connection, load);
    }

    /** Opens (loading when needed) the DuckDB peer under {@code work}. */
    static SqlDuckDb open(Path work, PeerRows.Export rows) throws SQLException, IOException {
        Path file = work.resolve(FILE);
        Connection c = connect(file, work);
        Meta existing = loadMeta(c);
        if (existing.holds(rows)) {
            return new SqlDuckDb(
                    c,
                    new Load(
                            existing.rows(),
                            existing.loadMillis(),
                            existing.indexMillis(),
                            size(work),
                            true,
                            version(c)));
        }
        if (existing.rows() >= 0 || tableRows(c) >= 0) {
            c.close();
            Files.deleteIfExists(file);
            Files.deleteIfExists(work.resolve(FILE + ".wal"));
            c = connect(file, work);
        }
        long t0 = System.nanoTime();
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE est AS SELECT cnpj, uf, municipio, situacao, porte, natureza, cnae,"
                    + " " + list("cnaes2") + " AS cnaes2, " + list("ddds") + " AS ddds,"
                    + " mei, simples, tel, movel, email, divida, abertura, capital, razao_social, bairro"
                    + " FROM " + readCsv(rows.require("DuckDB"), false) + " ORDER BY uf, municipio, cnpj");
            long t1 = System.nanoTime();
            // The unique index also proves every CNPJ is there once, as in the register.
            s.execute("CREATE UNIQUE INDEX est_cnpj ON est (cnpj)");
            long t2 = System.nanoTime();
            long loaded = tableRows(c);
            if (loaded != rows.rows()) {
                throw new IllegalStateException("DuckDB holds " + loaded + " rows, the file " + rows.rows());
            }
            for (String sql : metaStatements(loaded, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, rows.dump())) {
                s.execute(sql);
            }
            s.execute("CHECKPOINT");
            return new SqlDuckDb(
                    c, new Load(loaded, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, size(work), false, version(c)));
        }
    }

    private static Connection connect(Path file, Path work) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
        try (Statement s = c.createStatement()) {
            s.execute("SET memory_limit = '4GB'");
            s.execute("SET threads = 2");
            s.execute("SET temp_directory = '" + work.resolve("duckdb.tmp").toAbsolutePath() + "'");
            s.execute("SET preserve_insertion_order = true");
        }
        return c;
    }

    /** DuckDB's reader of the rows file; {@code raw} keeps every column as text (for passing it on). */
    static String readCsv(Path file, boolean raw) {
        String columns = PeerRows.COLUMNS.stream()
                .map(col -> "'" + col[0] + "': '" + (raw || col[1].endsWith("[]") ? "VARCHAR" : col[1]) + "'")
                .collect(Collectors.joining(", "));
        String compression = file.getFileName().toString().endsWith(".gz") ? " compression = 'gzip'," : "";
        return "read_csv('" + file.toAbsolutePath() + "'," + compression
                + " delim = '\\t', header = false, quote = '', escape = '',"
                + " nullstr = '\\N', auto_detect = false, columns = {" + columns + "})";
    }

    /** {@code {a,b}} (the file's array) as a DuckDB list. */
    private static String list(String column) {
        return "CASE WHEN " + column + " = '{}' THEN []::VARCHAR[] ELSE string_split(substr(" + column + ", 2, length("
                + column + ") - 2), ',') END";
    }

    /**
     * Writes the rows file sorted in index order, as text unchanged, for PostgreSQL to load in the order
     * a clustered table would have; DuckDB sorts (spilling to disk) in an in-memory database.
     */
    static long sortForCopy(Path rows, Path out, Path work) throws SQLException {
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = c.createStatement()) {
            s.execute("SET memory_limit = '4GB'");
            s.execute("SET threads = 2");
            s.execute("SET temp_directory = '" + work.resolve("duckdb.tmp").toAbsolutePath() + "'");
            s.execute("SET preserve_insertion_order = true");
            s.execute("COPY (SELECT * FROM " + readCsv(rows, true)
                    + " ORDER BY uf::SMALLINT, municipio::SMALLINT, cnpj) TO '" + out.toAbsolutePath()
                    + "' (FORMAT csv, DELIMITER '\\t', HEADER false, QUOTE '', ESCAPE '', NULLSTR '\\N')");
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static String version(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT version()")) {
            r.next();
            return "DuckDB " + r.getString(1);
        }
    }

    private static long tableRows(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 'est'")) {
            r.next();
            if (r.getLong(1) == 0) {
                return -1;
            }
        }
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM est")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static long size(Path work) throws IOException {
        Path f = work.resolve(FILE);
        Path wal = work.resolve(FILE + ".wal");
        return Files.size(f) + (Files.exists(wal) ? Files.size(wal) : 0);
    }

    @Override
    String name() {
        return "DuckDB";
    }

    @Override
    String overlaps(String column, Collection<String> values) {
        return "list_has_any(" + column + ", [" + literals(values) + "])";
    }
}
