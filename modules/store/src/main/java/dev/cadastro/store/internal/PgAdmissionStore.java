package dev.cadastro.store.internal;

import dev.cadastro.core.account.Credential;
import dev.cadastro.core.ratelimit.AdmissionStore;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Admission on PostgreSQL (ADR 0012, ADR 0015): one auto-committed statement per request reads the key
 * and its account by prefix and, when the stored secret hash equals the presented one, the key is not
 * revoked and the API is enabled, counts the request: a row per key and epoch minute, a row per
 * account and calendar day. Each counter is an {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE
 * requests < limit}, which increments only below the limit, under the row lock, so any number of
 * server instances sharing the database count exactly. The day is counted only when the minute
 * admitted the request; its limit is the plan's, read in the same statement. The minute is counted
 * only when the day, as the statement's snapshot sees it, is below its limit: a refusal for the daily
 * limit does not spend the per-minute allowance. (Requests racing for the day's last slot may each
 * spend a minute slot; one of them gets the slot.) With group commit on, many requests share one
 * transaction and one commit ({@link AdmissionBatcher}, ADR 0031), each counted by the same statement.
 */
public final class PgAdmissionStore implements AdmissionStore, AutoCloseable {
    private static final String ADMIT = "WITH c AS ("
            + " SELECT k.prefix, k.account_id, a.daily_request_limit FROM api_keys k JOIN accounts a ON a.id = k.account_id"
            + " WHERE k.prefix = ? AND k.secret_hash = ? AND k.revoked_at IS NULL AND a.api_enabled),"
            + " m AS ("
            + " INSERT INTO rate_minute (key_prefix, epoch_minute, requests) SELECT c.prefix, ?, 1 FROM c"
            + " WHERE COALESCE((SELECT r.requests FROM rate_day r WHERE r.account_id = c.account_id AND r.day = ?), 0)"
            + " < c.daily_request_limit"
            + " ON CONFLICT (key_prefix, epoch_minute) DO UPDATE SET requests = rate_minute.requests + 1"
            + " WHERE rate_minute.requests < ? RETURNING requests),"
            + " d AS ("
            + " INSERT INTO rate_day (account_id, day, requests) SELECT c.account_id, ?, 1 FROM c, m"
            + " ON CONFLICT (account_id, day) DO UPDATE SET requests = rate_day.requests + 1"
            + " WHERE rate_day.requests < (SELECT c.daily_request_limit FROM c) RETURNING requests)"
            + " SELECT " + Rows.KEY + ", " + Rows.ACCOUNT + ","
            + " EXISTS (SELECT 1 FROM c) AS counted, (SELECT requests FROM m) AS minute_count,"
            + " (SELECT requests FROM d) AS day_count,"
            + " (SELECT r.requests FROM rate_day r WHERE r.account_id = k.account_id AND r.day = ?) AS day_before,"
            + " (SELECT r.requests FROM rate_minute r WHERE r.key_prefix = k.prefix AND r.epoch_minute = ?)"
            + " AS minute_before"
            + " FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.prefix = ?";

    /** Expired windows are deleted by one counted request in this many. */
    private static final long PURGE_EVERY = 1024;

    private final DataSource dataSource;
    private final AtomicLong calls = new AtomicLong();
    private final AdmissionBatcher batcher;

    /** Each admission its own statement and commit. */
    public PgAdmissionStore(DataSource dataSource) {
        this(dataSource, 0);
    }

    /**
     * @param batchQueues queues admitting requests in shared commits, each with its own worker ({@link
     *     AdmissionBatcher}); 0 admits each request alone
     */
    public PgAdmissionStore(DataSource dataSource, int batchQueues) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.batcher = batchQueues == 0 ? null : new AdmissionBatcher(dataSource, batchQueues, this::alone);
    }

    @Override
    public Optional<Found> admit(String prefix, byte[] secretHash, Window window) {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(secretHash, "secretHash");
        Objects.requireNonNull(window, "window");
        Optional<Found> found = batcher == null
                ? alone(new AdmissionBatcher.Ask(prefix, secretHash, window))
                : batcher.admit(new AdmissionBatcher.Ask(prefix, secretHash, window));
        // Only requests that were counted advance the purge, so requests without a valid key cannot drive it.
        boolean counted = found.isPresent() && found.get().counted().isPresent();
        if (counted && calls.incrementAndGet() % PURGE_EVERY == 0) {
            purge(window);
        }
        return found;
    }

    /** One request in one auto-committed statement: the path of a store without group commit, and a batch's fallback. */
    private Optional<Found> alone(AdmissionBatcher.Ask ask) {
        Date day = Date.valueOf(ask.window().day());
        return Jdbc.autoCommit(dataSource, "admit a request of key " + ask.prefix(), c -> {
            try (PreparedStatement ps = c.prepareStatement(ADMIT)) {
                Jdbc.set(
                        ps,
                        ask.prefix(),
                        ask.secretHash(),
                        ask.window().epochMinute(),
                        day,
                        ask.window().perMinute(),
                        day,
                        day,
                        ask.window().epochMinute(),
                        ask.prefix());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(found(rs)) : Optional.empty();
                }
            }
        });
    }

    private void purge(Window window) {
        Jdbc.autoCommit(dataSource, "purge expired rate-limit windows", c -> {
            Jdbc.allowLongStatements(c); // housekeeping, though on a request's thread now and then
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM rate_minute WHERE epoch_minute < ?")) {
                ps.setLong(1, window.epochMinute() - 1);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM rate_day WHERE day < ?")) {
                ps.setDate(1, Date.valueOf(window.day().minusDays(1)));
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** The group-commit path, or null when each admission commits alone. */
    AdmissionBatcher batcher() {
        return batcher;
    }

    @Override
    public void close() {
        if (batcher != null) {
            batcher.close();
        }
    }

    static Found found(ResultSet rs) throws SQLException {
        Credential credential = new Credential(Rows.key(rs), rs.getBytes("secret_hash"), Rows.account(rs));
        if (!rs.getBoolean("counted")) {
            return new Found(credential, Optional.empty());
        }
        OptionalLong minute = optional(rs, "minute_count");
        OptionalLong day = optional(rs, "day_count");
        long before = rs.getLong("day_before");
        long minuteBefore = rs.getLong("minute_before");
        return new Found(credential, Optional.of(new Counts(minute, day, before, minuteBefore)));
    }

    private static OptionalLong optional(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
