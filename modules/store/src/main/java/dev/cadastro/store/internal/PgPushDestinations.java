package dev.cadastro.store.internal;

import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.calls.push.PushDestinations;
import java.net.URI;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/** Push destinations on PostgreSQL ({@code call_push_destinations}, one row per integration). */
public final class PgPushDestinations implements PushDestinations {
    static final String COLUMNS = "d.integration_id, i.name AS integration_name, d.url, d.header_name,"
            + " d.header_value, d.resend_reclassified, d.signing_secret, d.enabled";

    private final DataSource dataSource;

    public PgPushDestinations(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    @Override
    public Optional<Integration> integration(String name) {
        return Jdbc.autoCommit(dataSource, "find integration", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, name FROM call_integrations WHERE name = ?")) {
                Jdbc.set(ps, name);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new Integration(rs.getLong(1), rs.getString(2))) : Optional.empty();
                }
            }
        });
    }

    @Override
    public void set(PushDestination d, Instant now) {
        Jdbc.autoCommit(dataSource, "set push destination of " + d.integration().name(), c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_push_destinations (integration_id,"
                    + " url, header_name, header_value, resend_reclassified, signing_secret, enabled, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (integration_id) DO UPDATE SET"
                    + " url = EXCLUDED.url, header_name = EXCLUDED.header_name, header_value = EXCLUDED.header_value,"
                    + " resend_reclassified = EXCLUDED.resend_reclassified, signing_secret = EXCLUDED.signing_secret,"
                    + " enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at")) {
                Jdbc.set(
                        ps,
                        d.integration().id(),
                        d.url().toString(),
                        d.headerName(),
                        d.headerValue(),
                        d.resendReclassified(),
                        d.signingSecret(),
                        d.enabled(),
                        Jdbc.timestamp(now));
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Optional<PushDestination> get(long integrationId) {
        return Jdbc.autoCommit(dataSource, "get push destination", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM call_push_destinations d"
                    + " JOIN call_integrations i ON i.id = d.integration_id WHERE d.integration_id = ?")) {
                Jdbc.set(ps, integrationId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(destination(rs)) : Optional.empty();
                }
            }
        });
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
        return Jdbc.autoCommit(dataSource, enabled ? "resume push destination" : "pause push destination", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE call_push_destinations SET enabled = ?, updated_at = ? WHERE integration_id = ?")) {
                Jdbc.set(ps, enabled, Jdbc.timestamp(now), integrationId);
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public List<PushDestination> list() {
        return Jdbc.autoCommit(dataSource, "list push destinations", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM call_push_destinations d"
                    + " JOIN call_integrations i ON i.id = d.integration_id ORDER BY i.name")) {
                List<PushDestination> all = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        all.add(destination(rs));
                    }
                }
                return all;
            }
        });
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
