package dev.cadastro.store.internal;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.IngestCheckpoints;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Ingest checkpoints on PostgreSQL ({@code call_ingest_sources}): one row per source with the point it
 * was ingested until and the lease of the server ingesting it. Each method is one auto-committed
 * statement (the claim, two: the row is created first when the source is new); the lease, not a row
 * lock, keeps two servers apart, because the source is read between the claim and the advance. Rejected
 * records go to {@code call_ingest_rejects}.
 */
public final class PgIngestCheckpoints implements IngestCheckpoints {
    private final DataSource dataSource;

    public PgIngestCheckpoints(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    @Override
    public Optional<Instant> claim(String source, String owner, Instant now, Duration lease, Instant startIfNew) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(owner, "owner");
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease " + lease + " must be positive");
        }
        return Jdbc.autoCommit(dataSource, "claim ingest source " + source, c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_ingest_sources (source, ingested_until)"
                    + " VALUES (?, ?) ON CONFLICT (source) DO NOTHING")) {
                Jdbc.set(ps, source, PgCallStore.time(startIfNew));
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE call_ingest_sources SET lease_owner = ?,"
                    + " lease_until = ? WHERE source = ? AND (lease_owner IS NULL OR lease_owner = ?"
                    + " OR lease_until <= ?) RETURNING ingested_until")) {
                Jdbc.set(ps, owner, PgCallStore.time(now.plus(lease)), source, owner, PgCallStore.time(now));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next()
                            ? Optional.of(rs.getObject(1, OffsetDateTime.class).toInstant())
                            : Optional.empty();
                }
            }
        });
    }

    @Override
    public boolean advance(String source, String owner, Instant until) {
        Objects.requireNonNull(until, "until");
        return Jdbc.updateOne(
                dataSource,
                "advance ingest source " + source,
                "UPDATE call_ingest_sources"
                        + " SET ingested_until = greatest(ingested_until, ?) WHERE source = ? AND lease_owner = ?",
                PgCallStore.time(until),
                source,
                owner);
    }

    @Override
    public void release(String source, String owner) {
        Jdbc.update(
                dataSource,
                "release ingest source " + source,
                "UPDATE call_ingest_sources SET lease_owner = NULL, lease_until = NULL WHERE source = ? AND lease_owner = ?",
                source,
                owner);
    }

    @Override
    public void reject(String source, CallRecord call, String reason, Instant at) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(reason, "reason");
        Jdbc.update(
                dataSource,
                "keep rejected call " + call.id() + " of source " + source,
                "INSERT INTO call_ingest_rejects (source, call_id, reason, record, rejected_at) VALUES (?, ?, ?, ?, ?)",
                source,
                call.id(),
                printable(reason),
                printable(call.toString()),
                PgCallStore.time(at));
    }

    /** {@code text} with its control characters as {@code \\uXXXX}: PostgreSQL refuses a NUL in text. */
    static String printable(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (Character.isISOControl(ch) || ch == '\\') {
                b.append(String.format(Locale.ROOT, "\\u%04X", (int) ch));
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }
}
