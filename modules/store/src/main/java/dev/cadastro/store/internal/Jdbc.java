package dev.cadastro.store.internal;

import dev.cadastro.store.StoreException;
import dev.cadastro.store.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** Connection handling shared by the adapters: one place for commit, rollback and error wrapping. */
final class Jdbc {
    /** SQLSTATE of a unique violation: the idempotency key (or prefix) was already used. */
    static final String UNIQUE_VIOLATION = "23505";

    /** SQLSTATE of a check violation: the database refused an overdraft the code let through. */
    static final String CHECK_VIOLATION = "23514";

    /** SQLSTATE of {@code store_require} (V14): a statement's part wrote nothing, so nothing was committed. */
    static final String REQUIREMENT_FAILED = "ST001";

    private Jdbc() {}

    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs work on a connection in auto-commit mode: each statement is its own transaction. */
    static <T> T autoCommit(DataSource dataSource, String what, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /** Reads one row of a result. */
    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Runs one statement with these parameters in auto-commit mode: the number of rows it changed. */
    static int update(DataSource dataSource, String what, String sql, Object... values) {
        return autoCommit(dataSource, what, c -> update(c, sql, values));
    }

    /**
     * Runs one statement on one row, named by its key and the state it must still be in, in auto-commit
     * mode: whether it changed that row (false: the row is gone or no longer in that state).
     */
    static boolean updateOne(DataSource dataSource, String what, String sql, Object... values) {
        return update(dataSource, what, sql, values) == 1;
    }

    /**
     * Runs one housekeeping statement (a purge) in auto-commit mode, allowed to run long: the number of rows
     * it changed.
     */
    static int housekeeping(DataSource dataSource, String what, String sql, Object... values) {
        return autoCommit(dataSource, what, c -> {
            allowLongStatements(c);
            return update(c, sql, values);
        });
    }

    private static int update(Connection c, String sql, Object... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            set(ps, values);
            return ps.executeUpdate();
        }
    }

    /** Runs one query in auto-commit mode: its first row, read by {@code row}, or empty when it has none. */
    static <T> Optional<T> first(DataSource dataSource, String what, String sql, Row<T> row, Object... values) {
        return autoCommit(dataSource, what, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                set(ps, values);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(row.read(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Runs one query in auto-commit mode (one snapshot): every row, in order, read by {@code row}. */
    static <T> List<T> list(DataSource dataSource, String what, String sql, Row<T> row, Object... values) {
        return autoCommit(dataSource, what, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                set(ps, values);
                List<T> all = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        all.add(row.read(rs));
                    }
                }
                return all;
            }
        });
    }

    /** Runs work in one READ COMMITTED transaction, committed when it returns, rolled back when it throws. */
    static <T> T transaction(DataSource dataSource, String what, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            T result;
            try {
                result = work.run(c);
                c.commit();
            } catch (SQLException | RuntimeException | Error e) {
                // The failure the caller sees is the statement's: a connection the pool dropped because of
                // it (a server gone or read-only) also fails the rollback and the reset, and those must
                // not hide why.
                rollbackQuietly(c, e);
                try {
                    c.setAutoCommit(true);
                } catch (SQLException r) {
                    e.addSuppressed(r);
                }
                throw e;
            }
            c.setAutoCommit(true);
            return result;
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * The failure a caller sees: {@link StoreUnavailableException} (a 503, nothing charged) when the
     * database could not be reached or stopped answering, {@link StoreException} (a 500) otherwise.
     */
    static StoreException failure(String what, SQLException e) {
        String text = what + " failed: " + e.getMessage() + " (SQLSTATE " + e.getSQLState() + ")";
        return unavailable(e) ? new StoreUnavailableException(text, e) : new StoreException(text, e);
    }

    /**
     * Whether the failure says the server is out of reach rather than that it refused the statement: no
     * connection within the pool's timeout or the watch's refusal (SQLSTATE class 08, connection
     * exception), no answer within the network timeout (pgjdbc reports 08006), the server shutting
     * down or restarting (57P01-57P03), or a write refused because the server is read-only (25006: after
     * a failover, a connection still open to the demoted primary; the pool drops it, see {@link
     * EvictOnReadOnly}, and the retry reaches the new primary).
     */
    static boolean unavailable(SQLException e) {
        if (EvictOnReadOnly.readOnly(e)) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (OUT_OF_REACH.contains(state)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Lifts the network timeout of this connection for a statement that may rightly run long
     * (migrations, housekeeping); the pool puts the default back when the connection is returned.
     */
    static void allowLongStatements(Connection c) throws SQLException {
        if (c.getNetworkTimeout() != 0) { // 0: the operator chose no timeout at all
            c.setNetworkTimeout(Runnable::run, (int) LONG_STATEMENT.toMillis());
        }
    }

    /**
     * The SQLSTATEs of a server out of reach: connection exceptions (not 08P01, a protocol violation,
     * which is a bug) and the server shutting down or restarting.
     */
    private static final java.util.Set<String> OUT_OF_REACH =
            java.util.Set.of("08000", "08001", "08003", "08004", "08006", "08007", "57P01", "57P02", "57P03");

    /** The network timeout of {@link #allowLongStatements}: a frozen server still frees the thread. */
    static final Duration LONG_STATEMENT = Duration.ofMinutes(30);

    static boolean isUniqueViolation(SQLException e) {
        return UNIQUE_VIOLATION.equals(e.getSQLState());
    }

    static Timestamp timestamp(Instant instant) {
        return Timestamp.from(instant);
    }

    static void set(PreparedStatement ps, Object... values) throws SQLException {
        setFrom(ps, 1, values);
    }

    /** Sets parameters {@code first}, {@code first + 1}, ... to the values. */
    static void setFrom(PreparedStatement ps, int first, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            ps.setObject(first + i, values[i]);
        }
    }

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
