package dev.cadastro.store.internal;

import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.calls.push.PushDestinations;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/** Push destinations on PostgreSQL ({@code call_push_destinations}, one row per integration). */
public final class PgPushDestinations implements PushDestinations {
    static final String COLUMNS = "d.integration_id, i.name AS integration_name, d.url, d.header_name,"
            + " d.header_value, d.resend_reclassified, d.signing_secret, d.enabled";

    /** Every destination with its integration's name, before the condition or order that picks them. */
    private static final String DESTINATIONS =
            "SELECT " + COLUMNS + " FROM call_push_destinations d JOIN call_integrations i ON i.id = d.integration_id";

    private final DataSource dataSource;

    public PgPushDestinations(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    @Override
    public Optional<Integration> integration(String name) {
        return Jdbc.first(
                dataSource,
                "find integration",
                "SELECT id, name FROM call_integrations WHERE name = ?",
                PgCallTokens::integration,
                name);
    }

    @Override
    public void set(PushDestination d, Instant now) {
        Jdbc.update(
                dataSource,
                "set push destination of " + d.integration().name(),
                "INSERT INTO call_push_destinations (integration_id,"
                        + " url, header_name, header_value, resend_reclassified, signing_secret, enabled, updated_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (integration_id) DO UPDATE SET"
                        + " url = EXCLUDED.url, header_name = EXCLUDED.header_name, header_value = EXCLUDED.header_value,"
                        + " resend_reclassified = EXCLUDED.resend_reclassified, signing_secret = EXCLUDED.signing_secret,"
                        + " enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at",
                d.integration().id(),
                d.url().toString(),
                d.headerName(),
                d.headerValue(),
                d.resendReclassified(),
                d.signingSecret(),
                d.enabled(),
                Jdbc.timestamp(now));
    }

    @Override
    public Optional<PushDestination> get(long integrationId) {
        return Jdbc.first(
                dataSource,
                "get push destination",
                DESTINATIONS + " WHERE d.integration_id = ?",
                PgPushDestinations::destination,
                integrationId);
    }

    @Override
    public boolean pause(long integrationId, Instant now) {
        return enable(integrationId, false, now);
    }

    @Override
    public boolean resume(long integrationId, Instant now) {
        return enable(integrationId, true, now);
    }

    private boolean enable(long integrationId, boolean enabled, Instant now) {
        return Jdbc.updateOne(
                dataSource,
                enabled ? "resume push destination" : "pause push destination",
                "UPDATE call_push_destinations SET enabled = ?, updated_at = ? WHERE integration_id = ?",
                enabled,
                Jdbc.timestamp(now),
                integrationId);
    }

    @Override
    public List<PushDestination> list() {
        return Jdbc.list(
                dataSource,
                "list push destinations",
                DESTINATIONS + " ORDER BY i.name",
                PgPushDestinations::destination);
    }

    /** A destination from the {@link #COLUMNS} of a row. */
    static PushDestination destination(ResultSet rs) throws SQLException {
        return new PushDestination(
                new Integration(rs.getLong("integration_id"), rs.getString("integration_name")),
                URI.create(rs.getString("url")),
                rs.getString("header_name"),
                rs.getString("header_value"),
                rs.getBoolean("resend_reclassified"),
                rs.getString("signing_secret"),
                rs.getBoolean("enabled"));
    }
}
