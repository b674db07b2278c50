package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeys;
import dev.cadastro.core.account.Credential;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/** API keys on PostgreSQL: metadata and the SHA-256 of the secret, found by the public prefix. */
public final class PgApiKeys implements ApiKeys {
    private final DataSource dataSource;

    public PgApiKeys(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    @Override
    public boolean insert(ApiKey key, byte[] secretHash) {
        if (secretHash.length != 32) {
            throw new IllegalArgumentException("secret hash of " + secretHash.length + " bytes: SHA-256 has 32");
        }
        return Jdbc.autoCommit(dataSource, "insert key " + key.prefix(), c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO api_keys (prefix, account_id, label, secret_hash,"
                            + " scopes, person_lookup_released, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                            + " ON CONFLICT (prefix) DO NOTHING")) {
                ps.setString(1, key.prefix());
                ps.setLong(2, key.account().value());
                ps.setString(3, key.label());
                ps.setBytes(4, secretHash);
                ps.setArray(
                        5,
                        c.createArrayOf(
                                "text",
                                key.scopes().stream().map(Scope::wire).sorted().toArray()));
                ps.setBoolean(6, key.personLookupReleased());
                ps.setTimestamp(7, Jdbc.timestamp(key.createdAt()));
                ps.setTimestamp(8, key.revokedAt().map(Jdbc::timestamp).orElse(null));
                return ps.executeUpdate() == 1;
            } catch (SQLException e) {
                if ("23503".equals(e.getSQLState())) {
                    throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(key.account()));
                }
                throw e;
            }
        });
    }

    @Override
    public Optional<Credential> findCredential(String prefix) {
        return Jdbc.autoCommit(dataSource, "find key " + prefix, c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + Rows.KEY + ", " + Rows.ACCOUNT
                    + " FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.prefix = ?")) {
                ps.setString(1, prefix);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Credential(Rows.key(rs), rs.getBytes("secret_hash"), Rows.account(rs)));
                }
            }
        });
    }

    @Override
    public Optional<ApiKey> find(String prefix) {
        return Jdbc.autoCommit(dataSource, "find key " + prefix, c -> find(c, prefix));
    }

    @Override
    public List<ApiKey> list(AccountId account) {
        return Jdbc.list(
                dataSource,
                "list keys of " + account,
                "SELECT " + Rows.KEY + " FROM api_keys k WHERE k.account_id = ? ORDER BY k.created_at DESC, k.prefix",
                Rows::key,
                account.value());
    }

    @Override
    public ApiKey revoke(String prefix, Instant at) {
        Objects.requireNonNull(at, "at");
        return updateKey(
                "revoke key " + prefix,
                "UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE prefix = ?",
                Jdbc.timestamp(at),
                prefix);
    }

    @Override
    public ApiKey setPersonLookupReleased(String prefix, boolean released) {
        return updateKey(
                "release key " + prefix,
                "UPDATE api_keys SET person_lookup_released = ? WHERE prefix = ?",
                released,
                prefix);
    }

    /**
     * Sets one column of the key named by {@code prefix} ({@code update} takes the value, then the prefix)
     * and reads the key back on the same connection; {@link NotFoundException} when no key has the prefix.
     */
    private ApiKey updateKey(String what, String update, Object value, String prefix) {
        return Jdbc.autoCommit(dataSource, what, c -> {
            try (PreparedStatement ps = c.prepareStatement(update)) {
                Jdbc.set(ps, value, prefix);
                if (ps.executeUpdate() == 0) {
                    throw new NotFoundException(Message.KEY_PREFIX_NOT_FOUND.with(prefix));
                }
            }
            return find(c, prefix).orElseThrow();
        });
    }

    private static Optional<ApiKey> find(Connection c, String prefix) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Rows.KEY + " FROM api_keys k WHERE k.prefix = ?")) {
            ps.setString(1, prefix);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(Rows.key(rs)) : Optional.empty();
            }
        }
    }
}
