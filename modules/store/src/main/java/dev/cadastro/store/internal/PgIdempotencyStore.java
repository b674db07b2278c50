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
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Client idempotency keys on PostgreSQL ({@code idempotency_requests}). A claim is a short sequence of
 * single-row statements in auto-commit, no transaction held across the caller's work: the unique
 * (account, key) makes exactly one of concurrent first uses insert the row; a takeover is a
 * conditional update that only one caller can win.
 */
public final class PgIdempotencyStore implements IdempotencyStore {
    private static final Timestamp RELEASED = Timestamp.from(Instant.EPOCH);

    /** Moves a pending key's lease, from the end its holder read, to another (renewal) or to the past (release). */
    private static final String MOVE_LEASE =
            "UPDATE idempotency_requests SET locked_until = ? WHERE id = ? AND answer IS NULL AND locked_until = ?";

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
    public boolean complete(long id, Instant leaseUntil, byte[] answer, Instant now) {
        Objects.requireNonNull(answer, "answer");
        return Jdbc.updateOne(
                dataSource,
                "completion of an idempotent request",
                "UPDATE idempotency_requests"
                        + " SET answer = ?, completed_at = ?, locked_until = NULL"
                        + " WHERE id = ? AND answer IS NULL AND locked_until = ?",
                answer,
                Jdbc.timestamp(now),
                id,
                Jdbc.timestamp(leaseUntil));
    }

    @Override
    public boolean renew(long id, Instant leaseUntil, Instant newLeaseUntil) {
        return Jdbc.updateOne(
                leases,
                "renewal of an idempotency key",
                MOVE_LEASE,
                Jdbc.timestamp(newLeaseUntil),
                id,
                Jdbc.timestamp(leaseUntil));
    }

    @Override
    public Optional<Instant> leaseUntil(long id) {
        return Jdbc.autoCommit(leases, "re-read of an idempotency key's lease", c -> {
            // FOR SHARE waits for a renewal still running on a connection whose client gave up on it: what
            // is read is its outcome, committed or rolled back, never the value it is about to replace.
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT locked_until FROM idempotency_requests" + " WHERE id = ? AND answer IS NULL FOR SHARE")) {
                Jdbc.set(ps, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.<Instant>empty();
                    }
                    Timestamp until = rs.getTimestamp(1);
                    return until == null || !until.after(RELEASED)
                            ? Optional.<Instant>empty()
                            : Optional.of(until.toInstant());
                }
            }
        });
    }

    @Override
    public void release(long id, Instant leaseUntil) {
        Jdbc.update(dataSource, "release of an idempotency key", MOVE_LEASE, RELEASED, id, Jdbc.timestamp(leaseUntil));
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
