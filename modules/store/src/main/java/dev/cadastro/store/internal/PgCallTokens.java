package dev.cadastro.store.internal;

import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.Integration;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/**
 * Integrations and their bearer tokens on PostgreSQL ({@code call_integrations}, {@code call_tokens}).
 * A token is {@code crt_} and 32 random bytes in base64url; the table keeps its SHA-256 (unique, so
 * authentication is one indexed lookup) and its first {@value #PREFIX_LENGTH} characters for the
 * operator's list. Nothing is cached: a token revoked by one server is refused by every server at once.
 */
public final class PgCallTokens implements CallTokens {
    /** What every call-records token starts with, so a company-data key is told apart at a glance. */
    public static final String TOKEN_PREFIX = "crt_";

    static final int PREFIX_LENGTH = 8;
    private static final int TOKEN_LENGTH = TOKEN_PREFIX.length() + 43;

    private final DataSource dataSource;
    private final Clock clock;
    private final RandomGenerator random;

    /** @param random a {@code SecureRandom}: the tokens are the integrations' only credential */
    public PgCallTokens(DataSource dataSource, Clock clock, RandomGenerator random) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    public Issued create(String integrationName) {
        requireName(integrationName);
        return Jdbc.transaction(dataSource, "create a token for integration " + integrationName, c -> {
            Instant now = now();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_integrations (name, created_at)"
                    + " VALUES (?, ?) ON CONFLICT (name) DO NOTHING")) {
                Jdbc.set(ps, integrationName, PgCallStore.time(now));
                ps.executeUpdate();
            }
            Integration integration = lock(c, integrationName).orElseThrow();
            return issue(c, integration, now);
        });
    }

    @Override
    public Issued rotate(String integrationName) {
        requireName(integrationName);
        return Jdbc.transaction(dataSource, "rotate the token of integration " + integrationName, c -> {
            Integration integration = lock(c, integrationName)
                    .orElseThrow(() -> new NoSuchElementException("no integration is named '" + integrationName + "'"));
            Instant now = now();
            Issued issued = issue(c, integration, now);
            try (PreparedStatement ps = c.prepareStatement("UPDATE call_tokens SET revoked_at = ?"
                    + " WHERE integration_id = ? AND id <> ? AND revoked_at IS NULL")) {
                Jdbc.set(ps, PgCallStore.time(now), integration.id(), issued.tokenId());
                ps.executeUpdate();
            }
            return issued;
        });
    }

    @Override
    public boolean revoke(long tokenId) {
        return Jdbc.updateOne(
                dataSource,
                "revoke call token " + tokenId,
                "UPDATE call_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                PgCallStore.time(now()),
                tokenId);
    }

    @Override
    public List<TokenInfo> list(Optional<String> integrationName) {
        Objects.requireNonNull(integrationName, "integrationName");
        String name = integrationName.orElse(null);
        return Jdbc.list(
                dataSource,
                "list call tokens",
                "SELECT t.id, i.id AS integration_id, i.name, t.prefix,"
                        + " t.created_at, t.revoked_at FROM call_tokens t JOIN call_integrations i"
                        + " ON i.id = t.integration_id WHERE (?::text IS NULL OR i.name = ?)"
                        + " ORDER BY t.created_at DESC, t.id DESC",
                rs -> {
                    OffsetDateTime revoked = rs.getObject("revoked_at", OffsetDateTime.class);
                    return new TokenInfo(
                            rs.getLong("id"),
                            new Integration(rs.getLong("integration_id"), rs.getString("name")),
                            rs.getString("prefix"),
                            rs.getObject("created_at", OffsetDateTime.class).toInstant(),
                            Optional.ofNullable(revoked).map(OffsetDateTime::toInstant));
                },
                name,
                name);
    }

    @Override
    public Optional<Integration> integration(String name) {
        if (!Integration.validName(name)) {
            return Optional.empty();
        }
        return Jdbc.autoCommit(dataSource, "find integration", c -> find(c, name));
    }

    @Override
    public Optional<Integration> authenticate(String token) {
        // Anything that cannot be a token is refused without a query.
        if (token == null || token.length() != TOKEN_LENGTH || !token.startsWith(TOKEN_PREFIX)) {
            return Optional.empty();
        }
        byte[] hash = sha256(token);
        return Jdbc.first(
                dataSource,
                "authenticate a call token",
                "SELECT i.id, i.name FROM call_tokens t"
                        + " JOIN call_integrations i ON i.id = t.integration_id"
                        + " WHERE t.token_hash = ? AND t.revoked_at IS NULL",
                PgCallTokens::integration,
                hash);
    }

    private Issued issue(Connection c, Integration integration, Instant now) throws SQLException {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String token = TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_tokens (integration_id, token_hash, prefix,"
                + " created_at) VALUES (?, ?, ?, ?) RETURNING id")) {
            ps.setLong(1, integration.id());
            ps.setBytes(2, sha256(token));
            ps.setString(3, token.substring(0, PREFIX_LENGTH));
            ps.setObject(4, PgCallStore.time(now));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Issued(integration, rs.getLong(1), token);
            }
        }
    }

    private static Optional<Integration> find(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, name FROM call_integrations WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(integration(rs)) : Optional.empty();
            }
        }
    }

    /** An integration from a row's first two columns, its id and its name. */
    static Integration integration(ResultSet rs) throws SQLException {
        return new Integration(rs.getLong(1), rs.getString(2));
    }

    /**
     * {@link #find} with the integration's row locked until the transaction ends, so concurrent rotations
     * (and creations) of one integration take turns: each revokes every token but its own, and the last
     * one's token is the only one left active. Without the lock, two rotations each miss the other's
     * uncommitted token and both stay active.
     */
    private static Optional<Integration> lock(Connection c, String name) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT id, name FROM call_integrations WHERE name = ? FOR UPDATE")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(integration(rs)) : Optional.empty();
            }
        }
    }

    private static void requireName(String name) {
        if (!Integration.validName(name)) {
            // The record's constructor words the rule.
            new Integration(0, String.valueOf(name));
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
