package dev.cadastro.store.internal;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Accounts;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.NotFoundException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/** Accounts on PostgreSQL; an account is created with its two zero balances in one transaction. */
public final class PgAccounts implements Accounts {
    private final DataSource dataSource;
    private final Clock clock;

    public PgAccounts(DataSource dataSource, Clock clock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Account create(String name, Plan plan) {
        Account.requireValidName(name);
        Objects.requireNonNull(plan, "plan");
        return Jdbc.transaction(dataSource, "create account", c -> {
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts (name, plan_name, daily_request_limit,"
                    + " created_at) VALUES (?, ?, ?, ?) RETURNING id")) {
                Jdbc.set(ps, name, plan.name(), plan.dailyRequestLimit(), Jdbc.timestamp(clock.instant()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO balances (account_id, kind) VALUES (?, 'CREDITS'), (?, 'SMS_CREDITS')")) {
                Jdbc.set(ps, id, id);
                ps.executeUpdate();
            }
            return find(c, new AccountId(id)).orElseThrow();
        });
    }

    @Override
    public Optional<Account> find(AccountId id) {
        return Jdbc.autoCommit(dataSource, "find account " + id, c -> find(c, id));
    }

    @Override
    public List<Account> list() {
        return Jdbc.list(
                dataSource,
                "list accounts",
                "SELECT " + Rows.ACCOUNT + " FROM accounts a ORDER BY a.id",
                Rows::account);
    }

    @Override
    public Account setPlan(AccountId id, Plan plan) {
        Objects.requireNonNull(plan, "plan");
        return update(id, "plan_name = ?, daily_request_limit = ?", plan.name(), plan.dailyRequestLimit());
    }

    @Override
    public Account setApiEnabled(AccountId id, boolean enabled) {
        return update(id, "api_enabled = ?", enabled);
    }

    @Override
    public Account setAccreditation(AccountId id, AccreditationStatus status) {
        return update(id, "accreditation = ?", status.name());
    }

    @Override
    public Account contractPurpose(AccountId id, Purpose purpose, Set<String> fields) {
        Set<String> valid = new TreeSet<>(Account.requireValidFields(purpose, fields));
        return Jdbc.transaction(dataSource, "contract purpose " + purpose + " for account " + id, c -> {
            requireExists(c, id);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO account_purposes (account_id, purpose, fields)"
                    + " VALUES (?, ?, ?) ON CONFLICT (account_id, purpose) DO UPDATE SET fields = EXCLUDED.fields")) {
                ps.setLong(1, id.value());
                ps.setString(2, purpose.name());
                ps.setArray(3, c.createArrayOf("text", valid.toArray()));
                ps.executeUpdate();
            }
            return find(c, id).orElseThrow();
        });
    }

    @Override
    public Account removePurpose(AccountId id, Purpose purpose) {
        return Jdbc.transaction(dataSource, "remove purpose " + purpose + " of account " + id, c -> {
            requireExists(c, id);
            try (PreparedStatement ps =
                    c.prepareStatement("DELETE FROM account_purposes WHERE account_id = ? AND purpose = ?")) {
                Jdbc.set(ps, id.value(), purpose.name());
                ps.executeUpdate();
            }
            return find(c, id).orElseThrow();
        });
    }

    @Override
    public Account setDefaultJustification(AccountId id, Optional<String> justification) {
        justification.ifPresent(j -> {
            if (j.isBlank() || j.length() > 500) {
                throw new IllegalArgumentException(
                        "default justification of " + j.length() + " characters must have 1 to 500");
            }
        });
        return update(id, "default_justification = ?", justification.orElse(null));
    }

    @Override
    public Account setPersonBatchLimit(AccountId id, int limit) {
        if (limit < 1 || limit > 10_000) {
            throw new IllegalArgumentException("person batch limit " + limit + " must be between 1 and 10000");
        }
        return update(id, "person_batch_limit = ?", limit);
    }

    @Override
    public Account setCompanyBatchLimit(AccountId id, int limit) {
        if (limit < 1 || limit > Account.MAX_COMPANY_BATCH_LIMIT) {
            throw new IllegalArgumentException(
                    "company batch limit " + limit + " must be between 1 and " + Account.MAX_COMPANY_BATCH_LIMIT);
        }
        return update(id, "company_batch_limit = ?", limit);
    }

    private Account update(AccountId id, String assignments, Object... values) {
        return Jdbc.transaction(dataSource, "update account " + id, c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE accounts SET " + assignments + " WHERE id = ?")) {
                Jdbc.set(ps, values);
                ps.setLong(values.length + 1, id.value());
                if (ps.executeUpdate() == 0) {
                    throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(id));
                }
            }
            return find(c, id).orElseThrow();
        });
    }

    private static void requireExists(Connection c, AccountId id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM accounts WHERE id = ? FOR UPDATE")) {
            ps.setLong(1, id.value());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new NotFoundException(Message.ACCOUNT_NOT_FOUND.with(id));
                }
            }
        }
    }

    static Optional<Account> find(Connection c, AccountId id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + Rows.ACCOUNT + " FROM accounts a WHERE a.id = ?")) {
            ps.setLong(1, id.value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(Rows.account(rs)) : Optional.empty();
            }
        }
    }
}
