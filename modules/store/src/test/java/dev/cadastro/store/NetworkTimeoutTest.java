package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The network timeout of the pool's connections: 2 s by default, set by the builder, and pgjdbc's own
 * {@code socketTimeout} in the URL wins, which is how an operator of {@code serve --database} sets it.
 */
class NetworkTimeoutTest {

    @Test
    void pooledConnectionsWaitTwoSecondsForTheServerByDefault() throws Exception {
        assertEquals(2_000, networkTimeoutMillis(Database.builder().url(TestDatabase.freshDatabase())));
    }

    @Test
    void theBuilderSetsItAndZeroTurnsItOff() throws Exception {
        String url = TestDatabase.freshDatabase();
        assertEquals(5_000, networkTimeoutMillis(Database.builder().url(url).networkTimeout(Duration.ofSeconds(5))));
        assertEquals(0, networkTimeoutMillis(Database.builder().url(url).networkTimeout(Duration.ZERO)));
    }

    @Test
    void socketTimeoutInTheUrlWins() throws Exception {
        assertEquals(
                7_000, networkTimeoutMillis(Database.builder().url(TestDatabase.freshDatabase() + "&socketTimeout=7")));
    }

    private static int networkTimeoutMillis(Database.Builder builder) throws Exception {
        try (Store store = Store.open(builder.poolSize(1).build(), Clock.systemUTC());
                Connection c = store.dataSource().getConnection()) {
            return c.getNetworkTimeout();
        }
    }
}
