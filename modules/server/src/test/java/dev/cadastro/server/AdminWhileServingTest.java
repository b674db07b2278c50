package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.server.cli.CliRuns;
import dev.cadastro.store.EmbeddedDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./cadastro admin} on the embedded database of a running server: through the address the
 * server recorded, in this JVM and from another process, instead of failing on the data folder's lock.
 */
class AdminWhileServingTest {

    @Test
    void adminJoinsTheRunningServersDatabaseInProcessAndFromAnotherProcess() throws Exception {
        ServerFixture f = ServerFixture.get();
        Path db = f.server.store().embedded().orElseThrow().dir();
        Path address = db.resolve(EmbeddedDatabase.ADDRESS_FILE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(address)));
        assertTrue(EmbeddedDatabase.running(db).isPresent());

        CliRuns.Run created = CliRuns.inProcess(
                "admin", "--home", db.getParent().toString(), "create-account", "--name", "Enquanto Serve");
        assertEquals(0, created.status(), created.err());
        assertTrue(
                f.server.store().accounts().list().stream().map(Account::name).anyMatch("Enquanto Serve"::equals),
                "the running server's store has the account");

        CliRuns.Run listed = CliRuns.process("admin", "list-accounts", "--embedded-db", db.toString());
        assertEquals(0, listed.status(), listed.err());
        assertTrue(listed.out().contains("Enquanto Serve"), listed.out());
        assertEquals("", listed.err(), "quiet: no INFO lines of the embedded PostgreSQL");
    }

    @Test
    void anAddressLeftByAProcessThatIsGoneIsIgnored(@TempDir Path dir) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(
                dir.resolve(EmbeddedDatabase.ADDRESS_FILE),
                "pid=" + gone.pid() + "\nport=5432\nurl=jdbc:postgresql://localhost:5432/postgres?user=postgres\n");
        assertEquals(Optional.empty(), EmbeddedDatabase.running(dir));
        CliRuns.Run run = CliRuns.inProcess("admin", "list-accounts", "--embedded-db", dir.toString());
        assertEquals(3, run.status(), run.err());
        assertTrue(run.err().contains("no database in"), run.err());
    }
}
