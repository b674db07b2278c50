package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.idempotency.ClientKey;
import dev.cadastro.core.idempotency.IdempotencyStore;
import dev.cadastro.core.idempotency.RequestFingerprint;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Client idempotency keys on PostgreSQL ({@code idempotency_requests}). A claim is a short sequence of
 * single-row statements in auto-commit, no transaction held across the caller's work: the unique
 * (account, key) makes exactly one of concurrent first uses insert the row; a takeover is a
 * conditional update that only one caller can win.
 */
public final class PgIdempotencyStore implements IdempotencyStore {
    private static final Timestamp RELEASED = Timestamp.from(Instant.EPOCH);

    private final DataSource dataSource;
    private final DataSource leases;

    public PgIdempotencyStore(DataSource dataSource) {
        this(dataSource, dataSource);
    }

    /**
     * @param leases the connections of renewals and of their re-reads: a pool of their own, so a renewal
     *     never queues behind the requests that saturate the main pool while its lease runs out
     */
    public PgIdempotencyStore(DataSource dataSource, DataSource leases) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.leases = Objects.requireNonNull(leases, "leases");
    }

    @Override
    public Claim claim(
            AccountId account,
            ClientKey key,
            RequestFingerprint fingerprint,
            Instant now,
            Duration lease,
            Duration retention) {
        // Microseconds, as PostgreSQL keeps them: the value fences the attempt and must compare equal.
        Instant fence = now.plus(lease).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        Timestamp leaseUntil = Jdbc.timestamp(fence);
        Timestamp expired = Jdbc.timestamp(now.minus(retention));
        return Jdbc.autoCommit(dataSource, "claim of an idempotency key", c -> {
            // Each pass either decides or sees the row change under it (deleted, taken over); a few passes at most.
            for (int pass = 0; pass < 10; pass++) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO idempotency_requests"
                        + " (account_id, client_key, fingerprint, created_at, locked_until) VALUES (?, ?, ?, ?, ?)"
                        + " ON CONFLICT (account_id, client_key) DO NOTHING RETURNING id")) {
                    Jdbc.set(insert, account.value(), key.value(), fingerprint.hex(), Jdbc.timestamp(now), leaseUntil);
                    try (ResultSet rs = insert.executeQuery()) {
                        if (rs.next()) {
                            return new Claim.Acquired(rs.getLong(1), fence);
                        }
                    }
                } catch (SQLException e) {
                    if ("23503".equals(e.getSQLState())) {
                        throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(account));
                    }
                    throw e;
                }
                long id;
                Timestamp createdAt;
                Timestamp lockedUntil;
                byte[] answer;
                String stored;
                try (PreparedStatement select = c.prepareStatement("SELECT id, fingerprint, created_at, locked_until,"
                        + " answer FROM idempotency_requests WHERE account_id = ? AND client_key = ?")) {
                    Jdbc.set(select, account.value(), key.value());
                    try (ResultSet rs = select.executeQuery()) {
                        if (!rs.next()) {
                            continue; // purged or expired between the two statements
                        }
                        id = rs.getLong(1);
                        stored = rs.getString(2);
                        createdAt = rs.getTimestamp(3);
                        lockedUntil = rs.getTimestamp(4);
                        answer = rs.getBytes(5);
                    }
                }
                if (!createdAt.after(expired)) {
                    try (PreparedStatement delete =
                            c.prepareStatement("DELETE FROM idempotency_requests WHERE id = ? AND created_at <= ?")) {
                        Jdbc.set(delete, id, expired);
                        delete.executeUpdate();
                    }
                    continue;
                }
                if (!stored.equals(fingerprint.hex())) {
                    return new Claim.OtherRequest(createdAt.toInstant());
                }
                if (answer != null) {
                    return new Claim.Completed(answer);
                }
                if (lockedUntil != null && lockedUntil.toInstant().isAfter(now)) {
                    return new Claim.InFlight(lockedUntil.toInstant());
                }
                try (PreparedStatement take = c.prepareStatement("UPDATE idempotency_requests SET locked_until = ?"
                        + " WHERE id = ? AND answer IS NULL AND (locked_until IS NULL OR locked_until <= ?)")) {
                    Jdbc.set(take, leaseUntil, id, Jdbc.timestamp(now));
                    if (take.executeUpdate() == 1) {
                        return new Claim.Acquired(id, fence);
                    }
                }
            }
            throw new IllegalStateException("idempotency key of account " + account + " kept changing during a claim");
        });
    }

    @Override
    public boolean complete(long id, List<Instant> fences, byte[] answer, Instant now) {
        Objects.requireNonNull(answer, "answer");
        return Jdbc.autoCommit(dataSource, "completion of an idempotent request", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE idempotency_requests"
                    + " SET answer = ?, completed_at = ?, locked_until = NULL"
                    + " WHERE id = ? AND answer IS NULL AND locked_until" + oneOf(fences))) {
                Jdbc.set(ps, answer, Jdbc.timestamp(now), id);
                bind(ps, 4, fences);
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public boolean renew(long id, List<Instant> fences, Instant newLeaseUntil) {
        return Jdbc.autoCommit(leases, "renewal of an idempotency key", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE idempotency_requests SET locked_until = ?"
                    + " WHERE id = ? AND answer IS NULL AND locked_until" + oneOf(fences))) {
                Jdbc.set(ps, Jdbc.timestamp(newLeaseUntil), id);
                bind(ps, 3, fences);
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public void release(long id, List<Instant> fences) {
        Jdbc.autoCommit(dataSource, "release of an idempotency key", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE idempotency_requests SET locked_until = ?"
                    + " WHERE id = ? AND answer IS NULL AND locked_until" + oneOf(fences))) {
                Jdbc.set(ps, RELEASED, id);
                bind(ps, 3, fences);
                return ps.executeUpdate();
            }
        });
    }

    /**
     * {@code IN (?, ...)}, one parameter per fence: an attempt's fences are one, or a few more while the
     * outcome of its renewals is unknown. Every fence is a value the attempt itself may have written;
     * another attempt's fence is its own clock reading plus the lease, equal to one of them only if two
     * clocks read the same microsecond, and then both attempts ran the same request under the same
     * reference: either answer is right.
     */
    private static String oneOf(List<Instant> fences) {
        if (fences.isEmpty()) {
            throw new IllegalArgumentException("an attempt holds at least one fence");
        }
        return " IN (" + String.join(", ", java.util.Collections.nCopies(fences.size(), "?")) + ")";
    }

    private static void bind(PreparedStatement ps, int first, List<Instant> fences) throws SQLException {
        for (int i = 0; i < fences.size(); i++) {
            ps.setTimestamp(first + i, Jdbc.timestamp(fences.get(i)));
        }
    }

    @Override
    public long purge(Instant cutoff) {
        return Jdbc.housekeeping(
                dataSource,
                "purge of idempotency keys",
                "DELETE FROM idempotency_requests WHERE created_at < ?",
                Jdbc.timestamp(cutoff));
    }
}
