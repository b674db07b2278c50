package dev.cadastro.server;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * A real embedded PostgreSQL for the push tests (one per test JVM), a fresh database per use, and the
 * rows the call store's ingest would write (integrations, ready calls, their outbox rows) inserted with
 * SQL so the push side is tested on its own.
 */
final class PushFixture {
    private static EmbeddedDatabase server;

    final String url;

    private PushFixture(String url) {
        this.url = url;
    }

    /** A new empty database, migrated by the first store opened on it. */
    static synchronized PushFixture fresh() {
        if (server == null) {
            try {
                server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "push-pg-"), false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        }
        String name = "push_" + UUID.randomUUID().toString().replace("-", "");
        sql(server.jdbcUrl(), "CREATE DATABASE " + name);
        return new PushFixture(server.jdbcUrl().replace("/postgres?", "/" + name + "?"));
    }

    Store open(Clock clock) {
        return Store.open(Database.builder().url(url).poolSize(16).build(), clock);
    }

    Integration integration(String name) {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO call_integrations (name, created_at) VALUES (?, now()) RETURNING id")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Integration(rs.getLong(1), name);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static CallRecord call(Integration integration, String id, Instant classifiedAt) {
        return new CallRecord(
                integration.id(),
                id,
                id,
                "417",
                "maria.souza",
                "Maria Souza",
                "vendas",
                "12",
                "Venda realizada",
                classifiedAt,
                classifiedAt.minusSeconds(300),
                280,
                classifiedAt.plusSeconds(60),
                "calls/" + integration.id() + "/" + id + ".wav");
    }

    /** Inserts a ready call and its outbox row due at {@code due}; the delivery's id. */
    long readyCall(CallRecord call, Instant due) {
        try (Connection c = DriverManager.getConnection(url)) {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO calls (integration_id, id, occurrence_id,"
                            + " agent_id, agent_login, agent_name, queue, result_code, result_description, classified_at,"
                            + " started_at, duration_seconds, archived_at, recording_key, ingested_at, updated_at,"
                            + " available_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, date_trunc('second', ?::timestamptz))")) {
                int i = 1;
                ps.setLong(i++, call.integrationId());
                ps.setString(i++, call.id());
                ps.setString(i++, call.occurrenceId());
                ps.setString(i++, call.agentId());
                ps.setString(i++, call.agentLogin());
                ps.setString(i++, call.agentName());
                ps.setString(i++, call.queue());
                ps.setString(i++, call.resultCode());
                ps.setString(i++, call.resultDescription());
                ps.setTimestamp(i++, Timestamp.from(call.classifiedAt()));
                ps.setTimestamp(i++, Timestamp.from(call.startedAt()));
                ps.setInt(i++, call.durationSeconds());
                ps.setTimestamp(i++, Timestamp.from(call.archivedAt()));
                ps.setString(i++, call.recordingKey());
                ps.setTimestamp(i++, Timestamp.from(due));
                ps.setTimestamp(i++, Timestamp.from(due));
                ps.setTimestamp(i++, Timestamp.from(call.archivedAt()));
                ps.executeUpdate();
            }
            return outbox(c, call, due);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long outbox(Connection c, CallRecord call, Instant due) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_deliveries (integration_id, call_id,"
                + " webhook_id, reason, state, next_attempt_at, created_at, ready_at)"
                + " VALUES (?, ?, ?, 'pronta', 'pendente', ?, ?, ?) RETURNING id")) {
            ps.setLong(1, call.integrationId());
            ps.setString(2, call.id());
            ps.setString(3, "msg_" + UUID.randomUUID().toString().replace("-", ""));
            ps.setTimestamp(4, Timestamp.from(due));
            ps.setTimestamp(5, Timestamp.from(due));
            ps.setTimestamp(6, Timestamp.from(due));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** One column of one delivery row. */
    Object delivery(long id, String column) {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM call_deliveries WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Object o = rs.getObject(1);
                return o instanceof Timestamp t ? t.toInstant() : o;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    long count(String where) {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM call_deliveries WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sql(String url, String statement) {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
