package dev.cadastro.store.internal;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.overview.AccountFunds;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * {@link AccountFunds} on PostgreSQL: both balances, the running exports and what their holds reserve,
 * in one statement, so one snapshot answers them all.
 */
public final class PgAccountFunds implements AccountFunds {
    // An export's hold is the row of holds under the job's hold_key; only one still HELD reserves.
    static final String FUNDS = "SELECT c.posted, c.held, s.posted, s.held,"
            + " (SELECT count(*) FROM mailing_jobs j WHERE j.account_id = c.account_id AND j.state = 'processando'),"
            + " (SELECT coalesce(sum(h.amount), 0) FROM mailing_jobs j JOIN holds h"
            + " ON h.account_id = j.account_id AND h.idem_key = j.hold_key"
            + " WHERE j.account_id = c.account_id AND j.state = 'processando' AND h.state = 'HELD')"
            + " FROM balances c JOIN balances s ON s.account_id = c.account_id AND s.kind = 'SMS_CREDITS'"
            + " WHERE c.account_id = ? AND c.kind = 'CREDITS'";

    private final DataSource dataSource;

    public PgAccountFunds(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    @Override
    public Funds funds(AccountId account) {
        return Jdbc.autoCommit(dataSource, "funds of " + account, c -> {
            try (PreparedStatement ps = c.prepareStatement(FUNDS)) {
                Jdbc.set(ps, account.value());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(account));
                    }
                    return new Funds(
                            new Balance(CreditKind.CREDITS, rs.getLong(1), rs.getLong(2)),
                            new Balance(CreditKind.SMS_CREDITS, rs.getLong(3), rs.getLong(4)),
                            Math.toIntExact(rs.getLong(5)),
                            rs.getLong(6));
                }
            }
        });
    }
}
