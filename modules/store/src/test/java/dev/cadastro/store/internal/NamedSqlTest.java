package dev.cadastro.store.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The store's named parameters, and a statement that fails through {@code store_require} inside a
 * transaction, against a real PostgreSQL.
 */
class NamedSqlTest {
    private static EmbeddedDatabase server;
    private static PGSimpleDataSource db;

    @BeforeAll
    static void start() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "named-sql-pg-"), false);
        db = new PGSimpleDataSource();
        db.setURL(server.jdbcUrl());
        Migrations.apply(db, java.time.Clock.systemUTC());
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE own (id int PRIMARY KEY)");
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void namesBecomePlaceholdersButCastsQuotesAndCommentsStayAsTheyAre() {
        NamedSql sql = NamedSql.of("""
                -- a comment naming :not_a_parameter is dropped
                SELECT :a::int, ':b', ":c", /* :d */ :a + :e_2, x[1:2]
                """);
        assertEquals("SELECT ?::int, ':b', \":c\", /* :d */ ? + ?, x[1:2]", sql.sql());
        assertEquals(Set.of("a", "e_2"), sql.names());
    }

    @Test
    void aQuestionMarkIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> NamedSql.of("SELECT ? WHERE :a"));
    }

    @Test
    void aNameUsedTwiceIsBoundToOneValueEverywhere() throws SQLException {
        NamedSql sql = NamedSql.of("SELECT :n::int + :n::int, :s::text, :null_value::text");
        try (Connection c = db.getConnection();
                PreparedStatement ps = sql.prepare(c)) {
            sql.bind(ps, NamedSql.args().set("n", 20).set("s", "it's").set("null_value", null));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals(40, rs.getInt(1));
                assertEquals("it's", rs.getString(2));
                assertEquals(null, rs.getString(3));
            }
        }
    }

    @Test
    void aMissingOrUnknownNameFailsBeforeTheStatementRuns() throws SQLException {
        NamedSql sql = NamedSql.of("SELECT :a::int, :b::int");
        try (Connection c = db.getConnection();
                PreparedStatement ps = sql.prepare(c)) {
            IllegalArgumentException missing = assertThrows(
                    IllegalArgumentException.class,
                    () -> sql.bind(ps, NamedSql.args().set("a", 1)));
            assertTrue(missing.getMessage().contains("[b]"), missing.getMessage());
            IllegalArgumentException extra = assertThrows(
                    IllegalArgumentException.class,
                    () -> sql.bind(ps, NamedSql.args().set("a", 1).set("c", 2)));
            assertTrue(extra.getMessage().contains("[c]"), extra.getMessage());
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> NamedSql.args().set("a", 1).set("a", 2));
    }

    @Test
    void joinedStatementsShareTheirNames() {
        NamedSql joined = NamedSql.join(NamedSql.of("SELECT :a"), NamedSql.of("SELECT :b, :a"));
        assertEquals("SELECT ?; SELECT ?, ?", joined.sql());
        assertEquals(Set.of("a", "b"), joined.names());
    }

    @Test
    void aStoreRequirementThatFailsRollsBackTheTransactionAndFreesTheConnection() throws SQLException {
        NamedSql insert = NamedSql.of("INSERT INTO own VALUES (:id)");
        NamedSql require = NamedSql.of("SELECT store_require(false, 'refused on purpose')");
        // One connection, as a pool of one would hand back: it must come back with no transaction open.
        try (Connection c = db.getConnection()) {
            javax.sql.DataSource single = single(c);
            StoreException e = assertThrows(
                    StoreException.class,
                    () -> Jdbc.transaction(single, "a transaction that fails", t -> {
                        try (PreparedStatement ps = insert.prepare(t)) {
                            insert.bind(ps, NamedSql.args().set("id", 1));
                            ps.executeUpdate();
                        }
                        try (PreparedStatement ps = require.prepare(t)) {
                            require.bind(ps, NamedSql.args());
                            return ps.execute();
                        }
                    }));
            assertTrue(e.getMessage().contains("ST001"), e.getMessage());
            assertEquals(Jdbc.REQUIREMENT_FAILED, ((SQLException) e.getCause()).getSQLState());
            assertTrue(c.getAutoCommit());
            Jdbc.transaction(single, "a transaction that commits", t -> {
                try (PreparedStatement ps = insert.prepare(t)) {
                    insert.bind(ps, NamedSql.args().set("id", 2));
                    return ps.executeUpdate();
                }
            });
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT array_agg(id)::text, txid_current_if_assigned() FROM own")) {
                rs.next();
                assertEquals("{2}", rs.getString(1), "the failed transaction's insert was rolled back");
                assertEquals(null, rs.getObject(2), "no transaction left open");
            }
        }
    }

    /** A data source handing out one connection, which closing does not close. */
    private static javax.sql.DataSource single(Connection c) {
        PGSimpleDataSource unused = new PGSimpleDataSource();
        return new javax.sql.DataSource() {
            @Override
            public Connection getConnection() {
                return (Connection) java.lang.reflect.Proxy.newProxyInstance(
                        Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (p, m, args) -> {
                            if (m.getName().equals("close")) {
                                return null;
                            }
                            try {
                                return m.invoke(c, args);
                            } catch (java.lang.reflect.InvocationTargetException t) {
                                throw t.getCause();
                            }
                        });
            }

            @Override
            public Connection getConnection(String user, String password) {
                return getConnection();
            }

            @Override
            public java.io.PrintWriter getLogWriter() throws SQLException {
                return unused.getLogWriter();
            }

            @Override
            public void setLogWriter(java.io.PrintWriter out) throws SQLException {
                unused.setLogWriter(out);
            }

            @Override
            public void setLoginTimeout(int seconds) throws SQLException {
                unused.setLoginTimeout(seconds);
            }

            @Override
            public int getLoginTimeout() throws SQLException {
                return unused.getLoginTimeout();
            }

            @Override
            public java.util.logging.Logger getParentLogger() {
                return java.util.logging.Logger.getGlobal();
            }

            @Override
            public <T> T unwrap(Class<T> iface) throws SQLException {
                throw new SQLException("not a wrapper");
            }

            @Override
            public boolean isWrapperFor(Class<?> iface) {
                return false;
            }
        };
    }
}
