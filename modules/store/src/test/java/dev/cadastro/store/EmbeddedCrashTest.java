package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A JVM killed with {@code kill -9} while it runs the embedded server leaves the server running, with
 * its lock file, and no one to stop it. The next start on the folder stops that orphan (its lock file
 * names this folder, and no live process records it as its own) and starts at the first try, data kept;
 * a server another live process runs is left alone, and the start says which process holds it.
 */
class EmbeddedCrashTest {

    @Test
    void theFirstStartAfterAKilledJvmStopsTheOrphanedServerAndKeepsTheData() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "pg-crash-");
        Process child = child(dir);
        long orphan = awaitReady(child);
        child.destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child JVM died");
        assertTrue(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false), "its server outlived it");

        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir, false)) {
            assertFalse(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false), "the orphan was stopped");
            assertTrue(db.postmasterPid() != orphan, "a server of this process serves the folder");
            assertEquals(List.of("written before the kill"), markers(db));
        }
    }

    @Test
    void aServerThatAnotherLiveProcessRunsIsLeftAloneAndTheStartNamesThatProcess() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "pg-busy-");
        Process child = child(dir);
        long postmaster = awaitReady(child);
        try {
            IllegalStateException busy =
                    assertThrows(IllegalStateException.class, () -> EmbeddedDatabase.start(dir, false));
            assertTrue(busy.getMessage().contains("in use by process " + child.pid()), busy.getMessage());
            assertTrue(ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false), "left running");
        } finally {
            child.getOutputStream().close(); // the child stops its server and exits
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child stopped");
        }
    }

    @Test
    void aStartThatFailsSaysWhyInOneLineFromTheServersLog() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "pg-broken-");
        EmbeddedDatabase.start(dir, false).close();
        Files.writeString(dir.resolve("data").resolve("PG_VERSION"), "9\n");
        UncheckedIOException failed =
                assertThrows(UncheckedIOException.class, () -> EmbeddedDatabase.start(dir, false));
        String message = failed.getMessage();
        assertFalse(message.contains("\n"), "one line: " + message);
        assertTrue(message.contains("its log says:") && message.contains("FATAL"), message);
    }

    private static List<String> markers(EmbeddedDatabase db) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT v FROM crash_marker")) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    /** A JVM of its own running {@link EmbeddedServerChild} on the test's classes and libraries. */
    private static Process child(Path dir) throws IOException {
        String paths = Stream.of(System.getProperty("jdk.module.path", ""), System.getProperty("java.class.path", ""))
                .flatMap(p -> Stream.of(p.split(File.pathSeparator)))
                .filter(p -> !p.isBlank())
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(
                        java.toString(),
                        "-Xmx256m",
                        "-cp",
                        paths,
                        EmbeddedServerChild.class.getName(),
                        dir.toAbsolutePath().toString())
                .redirectErrorStream(true)
                .start();
    }

    /** The postmaster's process id the child prints once its server runs; at most 120 s. */
    private static long awaitReady(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Long> ready = CompletableFuture.supplyAsync(() -> {
            try {
                StringBuilder seen = new StringBuilder();
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("READY ")) {
                        return Long.parseLong(line.substring("READY ".length()).strip());
                    }
                    seen.append(line).append('\n');
                }
                throw new IllegalStateException("the child ended before its server ran:\n" + seen);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return ready.get(120, TimeUnit.SECONDS);
    }
}
