package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.store.internal.Migrations;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.util.PSQLException;

/**
 * V16 (ADR 0048) on the rows a V15 schema holds: a ready call takes its archive time, cut to the second,
 * as its feed position; a call still being archived takes none; and from then on no ready call can be
 * without a position (the feed would never serve it).
 */
class CallFeedMigrationTest {
    @Test
    void readyCallsTakeTheirArchiveSecondAndNoReadyCallIsLeftOutOfTheFeed() throws SQLException {
        PGSimpleDataSource db = TestDatabase.dataSource(TestDatabase.freshDatabase());
        Migrations.apply(db, Clock.systemUTC(), 15);
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO call_integrations (name, created_at) VALUES ('v15', now())");
            s.execute("INSERT INTO calls (integration_id, id, occurrence_id, agent_login, queue, result_description,"
                    + " classified_at, started_at, duration_seconds, archived_at, recording_key, ingested_at, updated_at)"
                    + " SELECT i.id, x.id, x.id, 'ana', 'vendas', 'Venda', '2026-11-20 10:00:00Z', '2026-11-20 09:58:00Z',"
                    + " 60, x.archived, 'k', now(), now() FROM call_integrations AS i,"
                    + " (VALUES ('ready', timestamptz '2026-11-20 10:04:07.654321Z'), ('archiving', NULL))"
                    + " AS x(id, archived)");
        }
        assertEquals(List.of(16), Migrations.apply(db, Clock.systemUTC(), 16));
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT id, available_at = timestamptz '2026-11-20 10:04:07Z',"
                    + " available_at IS NULL FROM calls ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals("archiving", rs.getString(1));
                assertTrue(rs.getBoolean(3));
                assertTrue(rs.next());
                assertEquals("ready", rs.getString(1));
                assertTrue(rs.getBoolean(2));
            }
            PSQLException refused = assertThrows(
                    PSQLException.class,
                    () -> s.execute("UPDATE calls SET archived_at = now() WHERE id = 'archiving'"));
            assertEquals("23514", refused.getSQLState(), refused.getMessage());
            s.execute("UPDATE calls SET archived_at = now(), available_at = date_trunc('second', now())"
                    + " WHERE id = 'archiving'");
        }
    }
}
