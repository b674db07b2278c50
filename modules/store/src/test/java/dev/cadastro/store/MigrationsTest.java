package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Plan;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class MigrationsTest {

    @Test
    void serversStartingAtOnceMigrateOnceAndBothWork() throws Exception {
        String url = TestDatabase.freshDatabase();
        int servers = 4;
        ExecutorService pool = Executors.newFixedThreadPool(servers);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Store>> opened = new ArrayList<>();
        try {
            for (int i = 0; i < servers; i++) {
                opened.add(pool.submit(() -> {
                    go.await();
                    return Store.open(Database.builder().url(url).poolSize(2).build(), Clock.systemUTC());
                }));
            }
            go.countDown();
            List<Store> stores = new ArrayList<>();
            for (Future<Store> f : opened) {
                stores.add(f.get());
            }
            long applying = stores.stream()
                    .filter(s -> !s.migrationsApplied().isEmpty())
                    .count();
            assertEquals(1, applying, "exactly one server applies the scripts");
            assertEquals(
                    List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19),
                    stores.stream()
                            .filter(s -> !s.migrationsApplied().isEmpty())
                            .findFirst()
                            .orElseThrow()
                            .migrationsApplied());
            var account = stores.get(0).accounts().create("visible everywhere", new Plan("p", 10));
            for (Store s : stores) {
                assertEquals(account, s.accounts().require(account.id()));
                s.close();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aScriptChangedAfterItWasAppliedIsRefused() throws Exception {
        String url = TestDatabase.freshDatabase();
        try (Store s = Store.open(Database.url(url), Clock.systemUTC());
                Connection c = s.dataSource().getConnection();
                Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE schema_version SET checksum = 'edited' WHERE version = 1");
        }
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> Store.open(Database.url(url), Clock.systemUTC()));
        assertTrue(e.getMessage().contains("V1__accounts_keys_ledger.sql was changed"), e.getMessage());
    }

    @Test
    void reopeningACurrentSchemaAppliesNothing() throws Exception {
        String url = TestDatabase.freshDatabase();
        try (Store first = Store.open(Database.url(url), Clock.systemUTC())) {
            assertEquals(
                    List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19),
                    first.migrationsApplied());
        }
        try (Store again = Store.open(Database.url(url), Clock.systemUTC());
                Connection c = again.dataSource().getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM schema_version")) {
            assertEquals(List.of(), again.migrationsApplied());
            rs.next();
            assertEquals(19, rs.getInt(1));
        }
    }
}
