package dev.cadastro.store.internal;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Knows whether the database answers, and makes a request that needs it fail at once while it does not.
 *
 * <p>A thread of its own runs {@code SHOW transaction_read_only} (a read-only answer counts as a
 * failure) every {@link #PERIOD} on a connection of its own, outside
 * the pool, opened by {@code probe} with tight timeouts (the caller's job: pgjdbc's {@code
 * connectTimeout}, {@code loginTimeout} and {@code socketTimeout}). While that fails, the data source
 * from {@link #gated(DataSource)} refuses {@link DataSource#getConnection()} at once with an {@link
 * SQLTransientConnectionException}, which {@link Jdbc#failure} turns into a 503 for the client: the
 * pool is not asked, so no request waits out the pool's connection timeout behind a dead or frozen
 * server, and nothing is sent that could commit later. The first answer opens the gate again.
 *
 * <p>Requests already inside a statement when the database stops answering are bounded by the pool
 * connections' network timeout, not by this watch.
 */
public final class DatabaseWatch implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DatabaseWatch.class.getName());

    /** How often the probe runs. */
    public static final Duration PERIOD = Duration.ofMillis(500);

    /** Opens the probe's own connection. */
    @FunctionalInterface
    public interface Probe {
        Connection open() throws SQLException;
    }

    private final Probe probe;
    private final Clock clock;
    private final ScheduledExecutorService thread;
    private volatile Instant downSince;
    private volatile String lastFailure;
    private Connection connection;

    private DatabaseWatch(Probe probe, Clock clock) {
        this.probe = Objects.requireNonNull(probe, "probe");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cadastro-database-watch");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts watching: the database counts as answering until a probe fails. */
    public static DatabaseWatch start(Probe probe, Clock clock) {
        DatabaseWatch watch = new DatabaseWatch(probe, clock);
        watch.thread.scheduleWithFixedDelay(watch::check, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return watch;
    }

    /** Whether the last probe got its answer. */
    public boolean answering() {
        return downSince == null;
    }

    /** Since when the probes have failed, if they do. */
    public Optional<Instant> downSince() {
        return Optional.ofNullable(downSince);
    }

    private void check() {
        try {
            if (connection == null) {
                connection = probe.open();
            }
            try (Statement s = connection.createStatement();
                    ResultSet rs = s.executeQuery("SHOW transaction_read_only")) {
                // A standby, or a demoted primary after a failover, answers but refuses every write: for the
                // store that is a database gone. Dropping the connection lets the next probe open one
                // through the URL, which a multi-host URL with targetServerType=primary points at the new
                // primary.
                if (rs.next() && "on".equalsIgnoreCase(rs.getString(1))) {
                    throw new SQLException(
                            "the database answers read-only (a standby, or a primary demoted by a failover)",
                            EvictOnReadOnly.READ_ONLY);
                }
            }
            if (downSince != null) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "the database answers again after {0} s",
                        Duration.between(downSince, clock.instant()).toSeconds());
                downSince = null;
            }
        } catch (SQLException | RuntimeException e) {
            closeConnection();
            if (downSince == null) {
                downSince = clock.instant();
                lastFailure = e.getMessage();
                LOG.log(
                        System.Logger.Level.WARNING,
                        "the database does not answer ({0}); requests that need it are refused with 503 until it does",
                        e.getMessage());
            }
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.abort(Runnable::run);
            } catch (SQLException | RuntimeException e) {
                // Gone already.
            }
            connection = null;
        }
    }

    /** {@code pool} behind the gate: it refuses connections at once while the probes fail. */
    public DataSource gated(DataSource pool) {
        return new Gated(pool);
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            // A probe in flight may take its timeouts (about 6 s); only then is its connection ours to close.
            if (thread.awaitTermination(10, TimeUnit.SECONDS)) {
                closeConnection();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class Gated implements DataSource {
        private final DataSource pool;

        Gated(DataSource pool) {
            this.pool = Objects.requireNonNull(pool, "pool");
        }

        private void open() throws SQLException {
            Instant since = downSince;
            if (since != null) {
                // SQLSTATE 08006, connection failure: what pgjdbc reports for a server that went away.
                throw new SQLTransientConnectionException(
                        "the database has not answered since " + since + " (" + lastFailure + ")", "08006");
            }
        }

        @Override
        public Connection getConnection() throws SQLException {
            open();
            return pool.getConnection();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            open();
            return pool.getConnection(username, password);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return pool.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            pool.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            pool.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return pool.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return pool.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
        }

        @Override
        public boolean isWrapperFor(Class<?> type) throws SQLException {
            return type.isInstance(this) || pool.isWrapperFor(type);
        }
    }
}
