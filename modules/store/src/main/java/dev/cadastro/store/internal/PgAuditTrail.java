package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.EntryType;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.person.AuditEntry;
import dev.cadastro.core.person.AuditRecord;
import dev.cadastro.core.person.AuditTrail;
import dev.cadastro.core.person.AuditUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The person-lookup audit trail on PostgreSQL (table {@code person_audit}, migration V8): each row is
 * inserted in the transaction of its ledger charge, so both commit or neither does. The table refuses
 * updates and deletes, and references the charge's ledger entry.
 */
public final class PgAuditTrail implements AuditTrail, AutoCloseable {
    private static final String INSERT = "INSERT INTO person_audit (account_id, key_prefix, purpose, justification,"
            + " justification_source, subject_kind, subject_key_id, subject_hash, fields, request_id, charge_key,"
            + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (account_id, charge_key) DO NOTHING";

    /**
     * The common case in one statement, hence one transaction and one round trip: the debit (only when
     * the balance covers it and the key is new), its ledger entry and the audit row. Any failure of any
     * part fails the whole statement; no row means insufficient or a replay, which the transactional
     * path then tells apart.
     */
    private static final String CHARGE_AND_RECORD = "WITH debit AS ("
            + " UPDATE balances SET posted = posted - ?"
            + " WHERE account_id = ? AND kind = ? AND posted - held >= ?"
            + " AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE account_id = ? AND idem_key = ?)"
            + " RETURNING posted),"
            + " entry AS (INSERT INTO ledger_entries (account_id, kind, type, amount, idem_key, description,"
            + " created_at, balance_after) SELECT ?, ?, 'CHARGE', ?, ?, ?, ?, posted FROM debit"
            + " RETURNING account_id, idem_key, balance_after),"
            + " audit AS (INSERT INTO person_audit (account_id, key_prefix, purpose, justification,"
            + " justification_source, subject_kind, subject_key_id, subject_hash, fields, request_id, charge_key,"
            + " created_at) SELECT account_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, idem_key, ? FROM entry RETURNING 1)"
            + " SELECT entry.balance_after FROM entry, audit";

    private final DataSource dataSource;
    private final PgLedger ledger;
    private final AuditBatcher batcher;

    /** A trail whose lookups each commit alone. */
    public PgAuditTrail(DataSource dataSource, PgLedger ledger) {
        this(dataSource, ledger, 0);
    }

    /**
     * @param batchWorkers threads that group concurrent lookups' statements into one transaction each
     *     ({@link AuditBatcher}); 0 to commit every lookup alone
     */
    public PgAuditTrail(DataSource dataSource, PgLedger ledger, int batchWorkers) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        if (batchWorkers < 0) {
            throw new IllegalArgumentException("batch workers " + batchWorkers + " must not be negative");
        }
        this.batcher = batchWorkers == 0
                ? null
                : new AuditBatcher(
                        dataSource,
                        batchWorkers,
                        PgAuditTrail::oneStatement,
                        this::chargeAndRecordAlone,
                        this::chargedInOneStatement);
    }

    /** Stops the batching threads. */
    @Override
    public void close() {
        if (batcher != null) {
            batcher.close();
        }
    }

    @Override
    public ChargeResult chargeAndRecord(ChargeRequest charge, AuditEntry entry) {
        requireSameAccount(charge, entry);
        if (charge.amount() > 0) {
            if (batcher != null) {
                return batcher.chargeAndRecord(charge, entry);
            }
            Optional<ChargeResult> fast = chargeAndRecordInOneStatement(charge, entry);
            if (fast.isPresent()) {
                chargedInOneStatement(charge);
                return fast.get();
            }
        }
        return chargeAndRecordAlone(charge, entry);
    }

    /**
     * The statement writes its ledger entry itself, so the ledger is told of it here (the transactional
     * path's {@link PgLedger#charge(Connection, ChargeRequest)} reports its own).
     */
    private void chargedInOneStatement(ChargeRequest charge) {
        ledger.debitWritten(EntryType.CHARGE, charge.key(), charge.kind(), charge.amount());
    }

    /** The transactional path: locks the balance, tells a replay and a short balance apart, audits. */
    private ChargeResult chargeAndRecordAlone(ChargeRequest charge, AuditEntry entry) {
        return Jdbc.transaction(dataSource, "charge and audit person lookup", c -> {
            ChargeResult paid = ledger.charge(c, charge);
            record(c, entry);
            return paid;
        });
    }

    @Override
    public List<ChargeResult> chargeAndRecordAll(List<Paid> items) {
        if (items.isEmpty()) {
            return List.of();
        }
        items.forEach(p -> requireSameAccount(p.charge(), p.entry()));
        return Jdbc.transaction(dataSource, "charge and audit person batch", c -> {
            List<ChargeResult> results = new ArrayList<>(items.size());
            for (Paid p : items) {
                ChargeResult paid;
                try {
                    paid = ledger.charge(c, p.charge());
                } catch (InsufficientCreditsException e) {
                    // Thrown before any write of this item: what is charged so far commits, the rest not.
                    break;
                }
                record(c, p.entry());
                results.add(paid);
            }
            return results;
        });
    }

    /** Empty when the statement charged nothing or failed: the transactional path decides then. */
    private Optional<ChargeResult> chargeAndRecordInOneStatement(ChargeRequest r, AuditEntry e) {
        try (Connection c = dataSource.getConnection()) {
            return oneStatement(c, r, e);
        } catch (SQLException ex) {
            // A concurrent first use of the key, or the audit insert failing: the statement changed
            // nothing, and the transactional path gives the precise answer.
            return Optional.empty();
        }
    }

    /** The statement on a connection: the charge, or empty when it charged nothing. */
    private static Optional<ChargeResult> oneStatement(Connection c, ChargeRequest r, AuditEntry e)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CHARGE_AND_RECORD)) {
            long account = r.account().value();
            String kind = r.kind().name();
            Jdbc.set(ps, r.amount(), account, kind, r.amount(), account, r.key().value());
            Jdbc.setFrom(ps, 7, account, kind, -r.amount(), r.key().value(), r.description(), Jdbc.timestamp(e.at()));
            Jdbc.setFrom(ps, 13, lookup(c, e));
            Jdbc.setFrom(ps, 13 + LOOKUP_COLUMNS, Jdbc.timestamp(e.at()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new ChargeResult(r.amount(), rs.getLong(1), false)) : Optional.empty();
            }
        }
    }

    /** How many values {@link #lookup} gives. */
    private static final int LOOKUP_COLUMNS = 9;

    /**
     * What the row says of the lookup, in the order both statements take it: key prefix, purpose,
     * justification and its source, the subject's kind, key id and hash, the fields, the request id.
     */
    private static Object[] lookup(Connection c, AuditEntry e) throws SQLException {
        return new Object[] {
            e.keyPrefix(),
            e.purpose().name(),
            e.justification().text(),
            e.justification().source().name(),
            e.subjectKind(),
            e.subjectHash().keyId(),
            e.subjectHash().value(),
            c.createArrayOf("text", e.fields().toArray()),
            e.requestId()
        };
    }

    /** Inserts the row in the caller's transaction (a job's delivery uses it too). */
    static void record(Connection c, AuditEntry e) {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            Jdbc.set(ps, e.account().value());
            Jdbc.setFrom(ps, 2, lookup(c, e));
            Jdbc.setFrom(ps, 2 + LOOKUP_COLUMNS, e.chargeKey(), Jdbc.timestamp(e.at()));
            ps.executeUpdate();
        } catch (SQLException ex) {
            // The SQLSTATE says why without any value of the row.
            throw new AuditUnavailableException("SQLSTATE " + ex.getSQLState(), ex);
        }
    }

    @Override
    public List<AuditRecord> list(AccountId account, Instant from, Instant to, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit " + limit + " must be at least 1");
        }
        return Jdbc.list(
                dataSource,
                "list person audit",
                "SELECT id, key_prefix, purpose, justification,"
                        + " justification_source, subject_kind, subject_key_id, subject_hash, fields, request_id,"
                        + " charge_key, created_at FROM person_audit"
                        + " WHERE account_id = ? AND created_at >= ? AND created_at < ? ORDER BY id LIMIT ?",
                rs -> new AuditRecord(
                        rs.getLong(1),
                        account,
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        HexFormat.of().formatHex(rs.getBytes(8)),
                        List.of((String[]) rs.getArray(9).getArray()),
                        rs.getString(10),
                        rs.getString(11),
                        rs.getTimestamp(12).toInstant()),
                account.value(),
                Jdbc.timestamp(from),
                Jdbc.timestamp(to),
                limit);
    }

    private static void requireSameAccount(ChargeRequest charge, AuditEntry entry) {
        if (!charge.account().equals(entry.account())) {
            throw new IllegalArgumentException(
                    "charge of account " + charge.account() + " with an audit row of account " + entry.account());
        }
        if (!charge.key().value().equals(entry.chargeKey())) {
            throw new IllegalArgumentException("audit row of charge " + entry.chargeKey() + " given with charge "
                    + charge.key().value());
        }
    }
}
