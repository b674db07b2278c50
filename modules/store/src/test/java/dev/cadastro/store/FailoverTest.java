package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cadastro.core.account.Plan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A store on a multi-host URL ({@code targetServerType=primary}) whose primary turns read-only under it,
 * as a primary demoted by a failover does: writes on the connections still open to it are answered as
 * retryable unavailability ({@link StoreUnavailableException}, a 503), never as a 500, and the store
 * follows the new primary by itself, without a restart. Two real PostgreSQL servers; the demotion is
 * {@code default_transaction_read_only}, which is also what pgjdbc asks a host to tell a primary from a
 * standby.
 */
class FailoverTest {
    private static EmbeddedDatabase first;
    private static EmbeddedDatabase second;

    @BeforeAll
    static void startTwoServers() throws Exception {
        first = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "pg-first-"), false);
        second = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "pg-second-"), false);
    }

    @AfterAll
    static void stop() {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
    }

    @Test
    void writesOnADemotedPrimaryAreUnavailableAndTheStoreFollowsTheNewPrimary() throws Exception {
        // The standby-to-be has the schema, as a replica would.
        Store.open(Database.builder().url(second.jdbcUrl()).poolSize(1).build(), Clock.systemUTC())
                .close();
        String url = "jdbc:postgresql://localhost:" + first.port() + ",localhost:" + second.port()
                + "/postgres?user=postgres&targetServerType=primary";
        try (Store store = Store.open(Database.builder().url(url).poolSize(2).build(), Clock.systemUTC())) {
            String before = "antes " + UUID.randomUUID();
            store.accounts().create(before, new Plan("teste", 1000));
            assertEquals(1, accountsNamed(first, before));

            readOnly(first, true);
            try {
                // The pooled connections still point at the demoted server: a write there is a 503.
                assertThrows(
                        StoreUnavailableException.class,
                        () -> store.accounts().create("durante " + UUID.randomUUID(), new Plan("teste", 1000)));

                String after = "depois " + UUID.randomUUID();
                Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
                while (true) {
                    try {
                        store.accounts().create(after, new Plan("teste", 1000));
                        break;
                    } catch (StoreUnavailableException e) {
                        if (Instant.now().isAfter(deadline)) {
                            fail("the store never reached the new primary: " + e.getMessage());
                        }
                        Thread.onSpinWait();
                    }
                }
                assertEquals(1, accountsNamed(second, after), "the write went to the new primary");
                assertEquals(0, accountsNamed(first, after));
                assertTrue(store.databaseAnswering());
            } finally {
                readOnly(first, false);
            }
        }
    }

    @Test
    void aReadOnlyRefusalIsUnavailabilityWhateverTheUrl() throws Exception {
        try (Store store =
                Store.open(Database.builder().url(first.jdbcUrl()).poolSize(1).build(), Clock.systemUTC())) {
            readOnly(first, true);
            try {
                assertThrows(
                        StoreUnavailableException.class,
                        () -> store.accounts().create("só leitura " + UUID.randomUUID(), new Plan("teste", 1000)));
            } finally {
                readOnly(first, false);
            }
        }
    }

    private static void readOnly(EmbeddedDatabase server, boolean on) throws Exception {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                Statement s = c.createStatement()) {
            s.execute("ALTER SYSTEM SET default_transaction_read_only = " + (on ? "on" : "off"));
            s.execute("SELECT pg_reload_conf()");
        }
        // A reload reaches every session at its next command; wait until a new one sees it.
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SHOW transaction_read_only")) {
                rs.next();
                if (rs.getString(1).equals(on ? "on" : "off")) {
                    return;
                }
            }
        }
        fail("the server never turned read-only " + on);
    }

    private static int accountsNamed(EmbeddedDatabase server, String name) throws Exception {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl());
                var ps = c.prepareStatement("SELECT count(*) FROM accounts WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
