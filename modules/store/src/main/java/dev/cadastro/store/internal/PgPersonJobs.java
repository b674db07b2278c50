package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.person.AuditEntry;
import dev.cadastro.core.person.Justification;
import dev.cadastro.core.person.PersonJob;
import dev.cadastro.core.person.PersonJobs;
import dev.cadastro.core.person.Subject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The async person jobs on PostgreSQL (table {@code person_jobs}, migration V8). Each transition is a
 * conditional {@code UPDATE} that names the state it expects (and the claim, once claimed), so two reads
 * racing for a new job make one claim; the delivery commits the charge, the audit row and the job's
 * new state, with the subject erased, in one transaction. No lock is held between calls.
 */
public final class PgPersonJobs implements PersonJobs {
    private static final String COLUMNS = "id, account_id, subject_kind, subject, purpose, justification,"
            + " justification_source, justification_discarded, state, claim, lease_until, finished_at, created_at,"
            + " expires_at";

    private final DataSource dataSource;
    private final PgLedger ledger;

    public PgPersonJobs(DataSource dataSource, PgLedger ledger) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    @Override
    public void create(PersonJob job) {
        Subject subject = job.subject().orElseThrow();
        Jdbc.update(
                dataSource,
                "create person job",
                "INSERT INTO person_jobs (" + COLUMNS + ")"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'PENDENTE', NULL, NULL, NULL, ?, ?)",
                job.id(),
                job.account().value(),
                subject.kind(),
                subject.canonical(),
                job.purpose().name(),
                job.justification().text(),
                job.justification().source().name(),
                job.justification().discarded().map(Enum::name).orElse(null),
                Jdbc.timestamp(job.createdAt()),
                Jdbc.timestamp(job.expiresAt()));
    }

    @Override
    public Optional<PersonJob> find(AccountId account, String id) {
        return Jdbc.first(
                dataSource,
                "read person job",
                "SELECT " + COLUMNS + " FROM person_jobs WHERE id = ? AND account_id = ?",
                PgPersonJobs::read,
                id,
                account.value());
    }

    @Override
    public Optional<PersonJob> claim(PersonJob seen, PersonJob claimed, Instant now) {
        if (!(claimed.state() instanceof PersonJob.State.Processing p)) {
            throw new IllegalArgumentException("a claim moves a job to processing, not " + claimed.state());
        }
        String expected = switch (seen.state()) {
            case PersonJob.State.Pending x -> "state = 'PENDENTE'";
            case PersonJob.State.Processing x -> "state = 'PROCESSANDO' AND claim = ? AND lease_until <= ?";
            default -> throw new IllegalArgumentException("a " + seen.state() + " job cannot be claimed");
        };
        return Jdbc.autoCommit(dataSource, "claim person job", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE person_jobs SET state = 'PROCESSANDO', claim = ?,"
                    + " lease_until = ? WHERE id = ? AND account_id = ? AND expires_at > ? AND " + expected)) {
                Jdbc.set(
                        ps,
                        p.claim(),
                        Jdbc.timestamp(p.leaseUntil()),
                        seen.id(),
                        seen.account().value(),
                        Jdbc.timestamp(now));
                if (seen.state() instanceof PersonJob.State.Processing old) {
                    Jdbc.setFrom(ps, 6, old.claim(), Jdbc.timestamp(now));
                }
                return ps.executeUpdate() == 1 ? Optional.of(claimed) : Optional.empty();
            }
        });
    }

    @Override
    public boolean release(PersonJob released, String claim) {
        return Jdbc.updateOne(
                dataSource,
                "release person job",
                "UPDATE person_jobs SET state = 'PENDENTE', claim = NULL,"
                        + " lease_until = NULL WHERE id = ? AND state = 'PROCESSANDO' AND claim = ?",
                released.id(),
                claim);
    }

    @Override
    public boolean finishWithoutData(PersonJob finished, String claim) {
        Instant at = ((PersonJob.State.NoData) finished.state()).at();
        return Jdbc.autoCommit(
                dataSource, "finish person job without data", c -> finish(c, finished.id(), claim, "SEM_DADOS", at));
    }

    @Override
    public ChargeResult deliver(PersonJob delivered, String claim, ChargeRequest charge, AuditEntry entry) {
        Instant at = ((PersonJob.State.Delivered) delivered.state()).at();
        return Jdbc.transaction(dataSource, "deliver person job", c -> {
            if (!finish(c, delivered.id(), claim, "CONCLUIDO", at)) {
                throw new IllegalStateException("person job " + delivered.id() + " lost its claim before delivery");
            }
            ChargeResult paid = ledger.charge(c, charge);
            PgAuditTrail.record(c, entry);
            return paid;
        });
    }

    private static boolean finish(java.sql.Connection c, String id, String claim, String state, Instant at)
            throws java.sql.SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE person_jobs SET state = ?, subject = NULL,"
                + " subject_kind = NULL, claim = NULL, lease_until = NULL, finished_at = ?"
                + " WHERE id = ? AND state = 'PROCESSANDO' AND claim = ?")) {
            Jdbc.set(ps, state, Jdbc.timestamp(at), id, claim);
            return ps.executeUpdate() == 1;
        }
    }

    @Override
    public int purge(Instant cutoff) {
        return Jdbc.housekeeping(
                dataSource,
                "purge person jobs",
                "DELETE FROM person_jobs WHERE expires_at < ?",
                Jdbc.timestamp(cutoff));
    }

    private static PersonJob read(ResultSet rs) throws java.sql.SQLException {
        String kind = rs.getString(3);
        String digits = rs.getString(4);
        Optional<Subject> subject = kind == null
                ? Optional.empty()
                : Optional.of(
                        kind.equals("CPF") ? new Subject.ByCpf(Cpf.of(digits)) : new Subject.ByPhone(Phone.of(digits)));
        String discarded = rs.getString(8);
        Justification justification = new Justification(
                rs.getString(6),
                Justification.Source.valueOf(rs.getString(7)),
                Optional.ofNullable(discarded).map(Justification.Rule::valueOf));
        PersonJob.State state = switch (rs.getString(9)) {
            case "PENDENTE" -> new PersonJob.State.Pending();
            case "PROCESSANDO" -> new PersonJob.State.Processing(rs.getString(10), instant(rs.getTimestamp(11)));
            case "CONCLUIDO" -> new PersonJob.State.Delivered(instant(rs.getTimestamp(12)));
            case "SEM_DADOS" -> new PersonJob.State.NoData(instant(rs.getTimestamp(12)));
            default -> throw new IllegalStateException("person job in unknown state " + rs.getString(9));
        };
        return new PersonJob(
                rs.getString(1),
                new AccountId(rs.getLong(2)),
                subject,
                Purpose.valueOf(rs.getString(5)),
                justification,
                state,
                instant(rs.getTimestamp(13)),
                instant(rs.getTimestamp(14)));
    }

    private static Instant instant(Timestamp t) {
        return t.toInstant();
    }
}
