package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.credit.CachedReport;
import dev.cadastro.core.credit.CreditAnswers;
import dev.cadastro.core.credit.CreditReportCache;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.postgresql.util.PGobject;

/**
 * The credit-report cache on PostgreSQL (table {@code credit_report_cache}, migration V6). The report
 * is stored as the tree of {@link CreditAnswers#tree} in {@code jsonb} and read back through {@link
 * CreditAnswers#read}, so a cached answer passes the same allowlist and validation as a fresh one.
 */
public final class PgCreditReportCache implements CreditReportCache {
    private static final String UPSERT = "INSERT INTO credit_report_cache (account_id, doc_digest, report, fetched_at)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (account_id, doc_digest)"
            + " DO UPDATE SET report = excluded.report, fetched_at = excluded.fetched_at";

    private final DataSource dataSource;
    private final PgLedger ledger;

    public PgCreditReportCache(DataSource dataSource, PgLedger ledger) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    @Override
    public Optional<CachedReport> find(AccountId account, TaxId document, Instant notBefore) {
        return Jdbc.first(
                dataSource,
                "read cached credit report",
                "SELECT report::text, fetched_at FROM credit_report_cache"
                        + " WHERE account_id = ? AND doc_digest = ? AND fetched_at >= ?",
                rs -> new CachedReport(
                        account,
                        document,
                        CreditAnswers.read(JsonTrees.read(rs.getString(1)), document),
                        rs.getTimestamp(2).toInstant()),
                account.value(),
                digest(document),
                Jdbc.timestamp(roundedUpToMicros(notBefore)));
    }

    /**
     * PostgreSQL keeps microseconds and rounds a finer bound to the nearest one, so a bound of {@code
     * t + 1 ns} would match a row at {@code t}. Rounded up instead, "at or after" stays exact for the
     * microsecond times the table holds.
     */
    static Instant roundedUpToMicros(Instant instant) {
        Instant micros = instant.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        return micros.equals(instant) ? micros : micros.plus(1, java.time.temporal.ChronoUnit.MICROS);
    }

    @Override
    public ChargeResult chargeAndKeep(ChargeRequest charge, CachedReport report) {
        if (!charge.account().equals(report.account())) {
            throw new IllegalArgumentException(
                    "charge of account " + charge.account() + " for a report of account " + report.account());
        }
        PGobject json = new PGobject();
        String text = JsonTrees.write(CreditAnswers.tree(report.report()));
        return Jdbc.transaction(dataSource, "charge and cache credit report", c -> {
            ChargeResult paid = ledger.charge(c, charge);
            json.setType("jsonb");
            json.setValue(text);
            try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
                Jdbc.set(
                        ps,
                        report.account().value(),
                        digest(report.document()),
                        json,
                        Jdbc.timestamp(report.fetchedAt()));
                ps.executeUpdate();
            }
            return paid;
        });
    }

    @Override
    public int purgeFetchedBefore(Instant cutoff) {
        return Jdbc.housekeeping(
                dataSource,
                "purge cached credit reports",
                "DELETE FROM credit_report_cache WHERE fetched_at < ?",
                Jdbc.timestamp(cutoff));
    }

    /** The document's key: a digest of its kind and digits, never the document itself. */
    static byte[] digest(TaxId document) {
        String kind = switch (document) {
            case Cpf cpf -> "cpf:";
            case Cnpj cnpj -> "cnpj:";
        };
        return Texts.sha256((kind + document.canonical()).getBytes(StandardCharsets.US_ASCII));
    }
}
