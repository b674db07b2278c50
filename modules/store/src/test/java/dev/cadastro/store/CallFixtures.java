package dev.cadastro.store;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.Integration;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Integrations, calls, destinations and the outbox for the call-store tests, on the shared test database. */
final class CallFixtures {
    private CallFixtures() {}

    /** A new integration (through the token port, as the operator creates one). */
    static Integration integration() {
        String name = "it-" + UUID.randomUUID().toString().substring(0, 13);
        return TestDatabase.store().callTokens().create(name).integration();
    }

    /** A ready call classified at {@code at}, archived a minute later. */
    static CallRecord ready(Integration i, String id, Instant at) {
        return call(i, id, at, at.plusSeconds(60), "Venda realizada");
    }

    static CallRecord call(Integration i, String id, Instant classifiedAt, Instant archivedAt, String result) {
        return call(i, id, classifiedAt, archivedAt, result, "ana.silva", "vendas");
    }

    static CallRecord call(
            Integration i,
            String id,
            Instant classifiedAt,
            Instant archivedAt,
            String result,
            String agent,
            String queue) {
        Instant started = classifiedAt.minusSeconds(300);
        return new CallRecord(
                i.id(),
                id,
                id,
                "7",
                agent,
                "Ana Silva",
                queue,
                "R1",
                result,
                classifiedAt,
                started,
                240,
                archivedAt,
                "calls/" + i.id() + "/" + id + ".wav");
    }

    static CallRecord reclassified(CallRecord r, Instant at, String result) {
        return new CallRecord(
                r.integrationId(),
                r.id(),
                r.occurrenceId(),
                r.agentId(),
                r.agentLogin(),
                r.agentName(),
                r.queue(),
                "R9",
                result,
                at,
                r.startedAt(),
                r.durationSeconds(),
                r.archivedAt(),
                r.recordingKey());
    }

    static CallRecord archived(CallRecord r, Instant at) {
        return new CallRecord(
                r.integrationId(),
                r.id(),
                r.occurrenceId(),
                r.agentId(),
                r.agentLogin(),
                r.agentName(),
                r.queue(),
                r.resultCode(),
                r.resultDescription(),
                r.classifiedAt(),
                r.startedAt(),
                r.durationSeconds(),
                at,
                r.recordingKey());
    }

    /** Gives the integration a push destination (enabled or paused), resending reclassified calls or not. */
    static void destination(Integration i, boolean resend, boolean enabled) {
        sql(
                "INSERT INTO call_push_destinations (integration_id, url, header_name, header_value,"
                        + " resend_reclassified, enabled, updated_at) VALUES (?, 'https://crm.example/hook',"
                        + " 'Authorization', 'Bearer x', ?, ?, now())",
                i.id(),
                resend,
                enabled);
    }

    /** A delivery row, as the tests look at it. */
    record Delivery(String callId, String reason, String state, int attempts, String webhookId) {}

    static List<Delivery> deliveries(Integration i) {
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT call_id, reason, state, attempts, webhook_id"
                        + " FROM call_deliveries WHERE integration_id = ? ORDER BY id")) {
            ps.setLong(1, i.id());
            List<Delivery> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Delivery(
                            rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static long count(String sql, Object... params) {
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int k = 0; k < params.length; k++) {
                ps.setObject(k + 1, params[k]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static void sql(String sql, Object... params) {
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int k = 0; k < params.length; k++) {
                ps.setObject(k + 1, params[k]);
            }
            ps.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
