package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingJobs;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.work.Claimed;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Mailing jobs on PostgreSQL ({@code mailing_jobs}). Creation, completion and failure are each one
 * transaction with the ledger's hold, post or release ({@link PgLedger}'s connection-level
 * operations); claims take the oldest free job with {@code FOR UPDATE SKIP LOCKED}, so any number of
 * servers share the queue without waiting on each other's rows.
 */
public final class PgMailingJobs implements MailingJobs {
    private static final String COLUMNS = "public_id, account_id, state, filters, quantidade, leads_limit,"
            + " formato, created_at, delivered, charged, file_key, file_bytes, expires_at, error_code,"
            + " error_message, finished_at, reference_month, reference_published_at";

    private final DataSource dataSource;
    private final PgLedger ledger;

    public PgMailingJobs(DataSource dataSource, PgLedger ledger) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    @Override
    public MailingJob create(MailingJob job, HoldRequest hold) {
        if (job.state() != MailingJob.State.PROCESSANDO) {
            throw new IllegalArgumentException("a new job is processando, not " + job.state());
        }
        return Jdbc.transaction(dataSource, "create mailing job " + job.id(), c -> {
            // A retried creation (same hold key) answers the job the first attempt committed.
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM mailing_jobs WHERE account_id = ? AND hold_key = ?")) {
                Jdbc.set(ps, job.account().value(), hold.key().value());
                Optional<MailingJob> earlier = one(ps);
                if (earlier.isPresent()) {
                    return earlier.get();
                }
            }
            ledger.hold(c, hold);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO mailing_jobs (public_id, account_id, state,"
                    + " filters, quantidade, leads_limit, formato, hold_key, created_at)"
                    + " VALUES (?, ?, 'processando', ?, ?, ?, ?, ?, ?)")) {
                Jdbc.set(
                        ps,
                        job.id(),
                        job.account().value(),
                        job.filtros(),
                        job.quantidade(),
                        job.leadsLimit(),
                        job.formato().wire(),
                        hold.key().value(),
                        Jdbc.timestamp(job.createdAt()));
                ps.executeUpdate();
            }
            return job;
        });
    }

    @Override
    public Optional<MailingJob> find(AccountId account, String id) {
        return Jdbc.first(
                dataSource,
                "find mailing job",
                "SELECT " + COLUMNS + " FROM mailing_jobs WHERE public_id = ? AND account_id = ?",
                PgMailingJobs::job,
                id,
                account.value());
    }

    @Override
    public Optional<MailingJob> find(String id) {
        return Jdbc.first(
                dataSource,
                "find mailing job",
                "SELECT " + COLUMNS + " FROM mailing_jobs WHERE public_id = ?",
                PgMailingJobs::job,
                id);
    }

    @Override
    public boolean complete(MailingJob done, String owner) {
        if (!(done.outcome().orElse(null) instanceof MailingJob.Delivered d)) {
            throw new IllegalArgumentException("job " + done.id() + " is not done: " + done.state());
        }
        return finish(
                "complete mailing job " + done.id(),
                done.id(),
                owner,
                (c, holdKey) -> ledger.post(c, done.account(), holdKey, d.charged()),
                "UPDATE mailing_jobs SET state = 'concluido',"
                        + " delivered = ?, charged = ?, file_key = ?, file_bytes = ?, expires_at = ?, finished_at = ?,"
                        + " reference_month = ?, reference_published_at = ?,"
                        + " lease_owner = NULL, lease_until = NULL WHERE public_id = ?",
                d.delivered(),
                d.charged(),
                d.fileKey(),
                d.fileBytes(),
                Jdbc.timestamp(d.expiresAt()),
                Jdbc.timestamp(d.finishedAt()),
                d.reference().map(r -> r.month().toString()).orElse(null),
                d.reference().map(r -> Jdbc.timestamp(r.publishedAt())).orElse(null),
                done.id());
    }

    @Override
    public boolean fail(MailingJob failed, String owner) {
        if (!(failed.outcome().orElse(null) instanceof MailingJob.Failed f)) {
            throw new IllegalArgumentException("job " + failed.id() + " did not fail: " + failed.state());
        }
        return finish(
                "fail mailing job " + failed.id(),
                failed.id(),
                owner,
                (c, holdKey) -> ledger.release(c, failed.account(), holdKey),
                "UPDATE mailing_jobs SET state = 'falhou',"
                        + " error_code = ?, error_message = ?, finished_at = ?, lease_owner = NULL, lease_until = NULL"
                        + " WHERE public_id = ?",
                f.code().name(),
                f.message().encode(),
                Jdbc.timestamp(f.finishedAt()),
                failed.id());
    }

    /** What ends a job's hold, in the transaction that ends the job: posted (charged) or released. */
    @FunctionalInterface
    private interface Settle {
        void hold(Connection c, IdempotencyKey holdKey) throws SQLException;
    }

    /**
     * Ends a processing job (of {@code owner}, unless null) in one transaction: locks it, settles its hold,
     * then writes its outcome with {@code update} and {@code values}; false when the job is not processing
     * (any more) under that owner, and then nothing is written.
     */
    private boolean finish(String what, String id, String owner, Settle settle, String update, Object... values) {
        return Jdbc.transaction(dataSource, what, c -> {
            Optional<String> holdKey = lockProcessing(c, id, owner);
            if (holdKey.isEmpty()) {
                return false;
            }
            settle.hold(c, IdempotencyKey.of(holdKey.get()));
            try (PreparedStatement ps = c.prepareStatement(update)) {
                Jdbc.set(ps, values);
                ps.executeUpdate();
            }
            return true;
        });
    }

    /** Locks a processing job (of {@code owner}, unless null); its hold key, or empty when it is not so. */
    private static Optional<String> lockProcessing(Connection c, String id, String owner) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT hold_key FROM mailing_jobs WHERE public_id = ?"
                + " AND state = 'processando' AND (?::text IS NULL OR lease_owner = ?) FOR UPDATE")) {
            Jdbc.set(ps, id, owner, owner);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    @Override
    public Optional<Claimed<MailingJob>> claim(String owner, Instant now, Duration lease) {
        return Jdbc.autoCommit(dataSource, "claim a mailing job", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE mailing_jobs SET lease_owner = ?,"
                    + " lease_until = ?, attempts = attempts + 1 WHERE id = (SELECT id FROM mailing_jobs"
                    + " WHERE state = 'processando' AND (lease_until IS NULL OR lease_until <= ?)"
                    + " ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)"
                    + " RETURNING id, attempts, lease_until, " + COLUMNS)) {
                Jdbc.set(ps, owner, Jdbc.timestamp(now.plus(lease)), Jdbc.timestamp(now));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Claimed<>(
                            rs.getLong("id"),
                            job(rs),
                            owner,
                            rs.getTimestamp("lease_until").toInstant(),
                            rs.getInt("attempts")));
                }
            }
        });
    }

    @Override
    public boolean renew(long id, String owner, Instant now, Duration lease) {
        return Jdbc.updateOne(
                dataSource,
                "renew a mailing job's lease",
                "UPDATE mailing_jobs SET lease_until = ?"
                        + " WHERE id = ? AND lease_owner = ? AND state = 'processando'",
                Jdbc.timestamp(now.plus(lease)),
                id,
                owner);
    }

    @Override
    public void handBack(long id, String owner) {
        // Not a failed attempt: the next claim counts it again.
        Jdbc.update(
                dataSource,
                "hand a mailing job back",
                "UPDATE mailing_jobs SET lease_owner = NULL,"
                        + " lease_until = NULL, attempts = attempts - 1"
                        + " WHERE id = ? AND lease_owner = ? AND state = 'processando'",
                id,
                owner);
    }

    @Override
    public List<MailingJob> list(Optional<AccountId> account, int limit) {
        Long a = account.map(AccountId::value).orElse(null);
        return Jdbc.list(
                dataSource,
                "list mailing jobs",
                "SELECT " + COLUMNS + " FROM mailing_jobs"
                        + " WHERE (?::bigint IS NULL OR account_id = ?) ORDER BY id DESC LIMIT ?",
                PgMailingJobs::job,
                a,
                a,
                limit);
    }

    @Override
    public List<MailingJob> expiredFiles(Instant now, int limit) {
        return Jdbc.list(
                dataSource,
                "expired mailing files",
                "SELECT " + COLUMNS + " FROM mailing_jobs"
                        + " WHERE state = 'concluido' AND file_removed_at IS NULL AND expires_at <= ?"
                        + " ORDER BY expires_at LIMIT ?",
                PgMailingJobs::job,
                Jdbc.timestamp(now),
                limit);
    }

    @Override
    public void fileRemoved(String id, Instant now) {
        Jdbc.update(
                dataSource,
                "mark a mailing file removed",
                "UPDATE mailing_jobs SET file_removed_at = ? WHERE public_id = ?",
                Jdbc.timestamp(now),
                id);
    }

    @Override
    public java.util.Set<String> filesInUse(java.util.Collection<String> keys) {
        if (keys.isEmpty()) {
            return java.util.Set.of();
        }
        // The job a key names: mailing/<public id>-<attempt>.zip.
        List<String> jobs = new ArrayList<>();
        for (String key : keys) {
            int dash = key.lastIndexOf('-');
            if (key.startsWith("mailing/") && dash > "mailing/".length()) {
                jobs.add(key.substring("mailing/".length(), dash));
            }
        }
        return Jdbc.autoCommit(dataSource, "export files in use", c -> {
            Jdbc.allowLongStatements(c); // housekeeping, off the request path
            // One statement, so one snapshot: read apart, a job completing between the two reads would be
            // in neither (not yet naming its file, no longer processing) and its paid file swept.
            java.util.Set<String> inUse = new java.util.HashSet<>();
            java.util.Set<String> processing = new java.util.HashSet<>();
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT 'file', file_key FROM mailing_jobs WHERE file_key = ANY (?)"
                            + " UNION ALL SELECT 'job', public_id FROM mailing_jobs"
                            + " WHERE public_id = ANY (?) AND state = 'processando'")) {
                ps.setArray(1, c.createArrayOf("text", keys.toArray()));
                ps.setArray(2, c.createArrayOf("text", jobs.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        (rs.getString(1).equals("file") ? inUse : processing).add(rs.getString(2));
                    }
                }
            }
            for (String key : keys) {
                int dash = key.lastIndexOf('-');
                if (dash > "mailing/".length()
                        && key.startsWith("mailing/")
                        && processing.contains(key.substring("mailing/".length(), dash))) {
                    inUse.add(key);
                }
            }
            return inUse;
        });
    }

    @Override
    public boolean runAlone(String task, Runnable work) {
        Objects.requireNonNull(work, "work");
        // A transaction-level lock: it ends with the transaction, whatever happens to the work or the connection.
        return Jdbc.transaction(dataSource, "run " + task + " alone", c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0))")) {
                Jdbc.set(ps, "cadastro:" + task);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        return false;
                    }
                }
            }
            work.run();
            return true;
        });
    }

    private static Optional<MailingJob> one(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(job(rs)) : Optional.empty();
        }
    }

    private static Optional<DataReference> reference(ResultSet rs) throws SQLException {
        String month = rs.getString("reference_month");
        return month == null
                ? Optional.empty()
                : Optional.of(
                        new DataReference(YearMonth.parse(month), instant(rs.getTimestamp("reference_published_at"))));
    }

    private static MailingJob job(ResultSet rs) throws SQLException {
        MailingJob.State state = MailingJob.State.ofWire(rs.getString("state"));
        Optional<MailingJob.Outcome> outcome = switch (state) {
            case PROCESSANDO -> Optional.empty();
            case CONCLUIDO ->
                Optional.of(new MailingJob.Delivered(
                        rs.getInt("delivered"),
                        rs.getLong("charged"),
                        rs.getString("file_key"),
                        rs.getLong("file_bytes"),
                        instant(rs.getTimestamp("finished_at")),
                        instant(rs.getTimestamp("expires_at")),
                        reference(rs)));
            case FALHOU ->
                Optional.of(new MailingJob.Failed(
                        ErrorCode.valueOf(rs.getString("error_code")),
                        failure(rs.getString("error_message")),
                        instant(rs.getTimestamp("finished_at"))));
        };
        return new MailingJob(
                rs.getString("public_id"),
                new AccountId(rs.getLong("account_id")),
                rs.getString("filters"),
                rs.getInt("quantidade"),
                rs.getInt("leads_limit"),
                ExportFormat.parse("formato", rs.getString("formato")),
                instant(rs.getTimestamp("created_at")),
                state,
                outcome);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    /** The stored message as a key and arguments; a row written before messages had keys reads as a generic failure. */
    private static LocalizedText failure(String stored) {
        return LocalizedText.decode(stored).orElseGet(Message.MAILING_FAILED::with);
    }
}
