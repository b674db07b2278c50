package dev.cadastro.benchmarks.register;

import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.internal.Municipalities;
import dev.cadastro.register.internal.Schema;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A SQL peer of the register search: one table {@code est} of {@link PeerRows}' columns, queried with
 * the SQL that means what {@link RegisterQuery} means to the register (docs/register.md, "Query
 * rules"): values of one filter are alternatives, filters all hold, {@code false} asks for the
 * establishments without the property, a date or capital bound never matches an unknown value, and
 * results come in the index order {@code (uf, municipio, cnpj)}. Statements are prepared once per query
 * (no parameters: the values are literals, so the planner sees them) and run on one connection.
 */
abstract class SqlPeer implements AutoCloseable {
    /** Columns a page returns, all of the table's, read into strings. */
    static final String PAGE_COLUMNS = PeerRows.COLUMNS.stream().map(c -> c[0]).collect(Collectors.joining(", "));

    /** How the peer was loaded (or found loaded) and what it occupies on disk. */
    record Load(long rows, long loadMillis, long indexMillis, long diskBytes, boolean reused, String notes) {}

    final Connection connection;
    private final Load load;

    SqlPeer(Connection connection, Load load) {
        this.connection = connection;
        this.load = load;
    }

    abstract String name();

    final Load load() {
        return load;
    }

    /** {@code column} (an array of text) shares a value with {@code values}. */
    abstract String overlaps(String column, Collection<String> values);

    /**
     * Name search: every word, and a word starting with the prefix, in the {@code nomes} column. PostgreSQL
     * answers it from its full-text index; DuckDB has none and is not asked.
     */
    String nameMatch(RegisterQuery.NameSearch n) {
        List<String> terms = new ArrayList<>();
        n.words().forEach(w -> terms.add(w.toLowerCase(java.util.Locale.ROOT)));
        terms.add(n.prefix().toLowerCase(java.util.Locale.ROOT) + ":*");
        return "to_tsvector('simple', nomes) @@ to_tsquery('simple', '" + String.join(" & ", terms) + "')";
    }

    /** The statements of one query: its count, and a page in index order. */
    record Prepared(PreparedStatement count, PreparedStatement page, String where) {}

    Prepared prepare(RegisterQuery q, Lookups lookups) throws SQLException {
        String where = where(q, lookups);
        return new Prepared(
                connection.prepareStatement("SELECT count(*) FROM est WHERE " + where),
                connection.prepareStatement("SELECT " + PAGE_COLUMNS + " FROM est WHERE " + where
                        + " ORDER BY uf, municipio, cnpj LIMIT " + q.limite() + " OFFSET " + q.offset()),
                where);
    }

    /** What a finished load wrote last in its {@code peer_meta} table. */
    record Meta(long rows, long loadMillis, long indexMillis, String dump) {
        static final Meta NONE = new Meta(-1, -1, -1, "");

        /** Whether the loaded peer holds exactly these rows: same dump, same count. */
        boolean holds(PeerRows.Export export) {
            return rows == export.rows() && dump.equals(export.dump());
        }
    }

    /** The SQL that records a finished load, to run last in it. */
    static String[] metaStatements(long rows, long loadMillis, long indexMillis, String dump) {
        if (!dump.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("dump fingerprint " + dump + " is not a SHA-256 in hex");
        }
        return new String[] {
            "CREATE TABLE peer_meta (rows BIGINT NOT NULL, load_ms BIGINT NOT NULL, index_ms BIGINT NOT NULL,"
                    + " dump VARCHAR NOT NULL)",
            "INSERT INTO peer_meta VALUES (" + rows + ", " + loadMillis + ", " + indexMillis + ", '" + dump + "')"
        };
    }

    /**
     * The {@code peer_meta} of a finished load, {@link Meta#NONE} when no load finished or it predates
     * the dump fingerprint. The same SQL on DuckDB and PostgreSQL.
     */
    static Meta loadMeta(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM information_schema.columns"
                        + " WHERE table_name = 'peer_meta' AND column_name = 'dump'")) {
            r.next();
            if (r.getLong(1) == 0) {
                return Meta.NONE;
            }
        }
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT rows, load_ms, index_ms, dump FROM peer_meta")) {
            return r.next() ? new Meta(r.getLong(1), r.getLong(2), r.getLong(3), r.getString(4)) : Meta.NONE;
        }
    }

    static long count(PreparedStatement count) throws SQLException {
        try (ResultSet r = count.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    /** Runs the page query, reads every column of every row; returns the CNPJs in order. */
    static List<String> page(PreparedStatement page) throws SQLException {
        List<String> cnpjs = new ArrayList<>();
        try (ResultSet r = page.executeQuery()) {
            int columns = r.getMetaData().getColumnCount();
            while (r.next()) {
                cnpjs.add(r.getString(1));
                for (int i = 2; i <= columns; i++) {
                    r.getString(i);
                }
            }
        }
        return cnpjs;
    }

    PreparedStatement prepareLookup() throws SQLException {
        return connection.prepareStatement("SELECT " + PAGE_COLUMNS + " FROM est WHERE cnpj = ?");
    }

    static boolean lookup(PreparedStatement lookup, String cnpj) throws SQLException {
        lookup.setString(1, cnpj);
        try (ResultSet r = lookup.executeQuery()) {
            if (!r.next()) {
                return false;
            }
            int columns = r.getMetaData().getColumnCount();
            for (int i = 1; i <= columns; i++) {
                r.getString(i);
            }
            return true;
        }
    }

    /** The WHERE clause of a query (the same text in both dialects but for array overlap). */
    String where(RegisterQuery q, Lookups lookups) {
        List<String> and = new ArrayList<>();
        if (!q.ufs().isEmpty()) {
            and.add("uf IN ("
                    + q.ufs().stream()
                            .map(u -> Integer.toString(Schema.ufOrdinal(u)))
                            .collect(Collectors.joining(", "))
                    + ")");
        }
        if (!q.municipios().isEmpty()) {
            // The register's own resolution; any four-digit code is taken, as the register takes one its index holds.
            Municipalities municipalities = new Municipalities(lookups, code -> true);
            Set<Integer> codes = new LinkedHashSet<>();
            for (String m : q.municipios()) {
                codes.addAll(municipalities.resolve(m, q.ufs()));
            }
            and.add(
                    codes.isEmpty()
                            ? "FALSE"
                            : "municipio IN ("
                                    + codes.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")");
        }
        in(and, "bairro", q.bairros().stream().map(RegisterQuery::normalizeText).toList());
        if (!q.ddds().isEmpty()) {
            and.add(overlaps("ddds", q.ddds()));
        }
        in(and, "cnae", q.cnaes());
        if (!q.cnaesSecundarios().isEmpty()) {
            and.add(overlaps("cnaes2", q.cnaesSecundarios()));
        }
        in(and, "natureza", q.naturezas());
        in(and, "situacao", q.situacaoCadastral());
        in(and, "porte", q.portes());
        flag(and, "mei", q.mei().orElse(null));
        flag(and, "simples", q.simples().orElse(null));
        flag(and, "tel", q.comTelefone().orElse(null));
        flag(and, "movel", q.comTelefoneMovel().orElse(null));
        flag(and, "email", q.comEmail().orElse(null));
        flag(and, "divida", q.divida().orElse(null));
        q.aberturaDe().ifPresent(d -> and.add("abertura >= DATE '" + d + "'"));
        q.aberturaAte().ifPresent(d -> and.add("abertura <= DATE '" + d + "'"));
        q.capitalMin().ifPresent(v -> and.add("capital >= " + centavos(v)));
        q.capitalMax().ifPresent(v -> and.add("capital <= " + centavos(v)));
        q.buscaTextual().ifPresent(n -> and.add(nameMatch(n)));
        return and.isEmpty() ? "TRUE" : String.join(" AND ", and);
    }

    static String literals(Collection<String> values) {
        return values.stream().map(s -> "'" + s.replace("'", "''") + "'").collect(Collectors.joining(", "));
    }

    private static void in(List<String> and, String column, Collection<String> values) {
        if (values.size() == 1) {
            and.add(column + " = " + literals(values));
        } else if (!values.isEmpty()) {
            and.add(column + " IN (" + literals(values) + ")");
        }
    }

    private static void flag(List<String> and, String column, Boolean value) {
        if (value != null) {
            and.add(value ? column : "NOT " + column);
        }
    }

    private static long centavos(BigDecimal reais) {
        return reais.movePointRight(2).longValueExact();
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}
