package dev.cadastro.store.internal;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads accounts and keys from result sets that select {@link #ACCOUNT} and {@link #KEY}. */
final class Rows {
    /** The columns of an account, purposes included, from {@code accounts a}. */
    static final String ACCOUNT = "a.id, a.name, a.plan_name, a.daily_request_limit, a.api_enabled,"
            + " a.accreditation, a.default_justification, a.person_batch_limit, a.company_batch_limit, a.created_at,"
            + " ARRAY(SELECT p.purpose FROM account_purposes p WHERE p.account_id = a.id ORDER BY p.purpose) AS purposes,"
            + " ARRAY(SELECT array_to_string(p.fields, ',') FROM account_purposes p WHERE p.account_id = a.id"
            + " ORDER BY p.purpose) AS purpose_fields";

    /** The columns of a key, from {@code api_keys k}. */
    static final String KEY = "k.prefix, k.account_id AS key_account, k.label, k.scopes, k.person_lookup_released,"
            + " k.created_at AS key_created_at, k.revoked_at, k.secret_hash";

    private Rows() {}

    static Account account(ResultSet rs) throws SQLException {
        String[] purposes = (String[]) rs.getArray("purposes").getArray();
        String[] fields = (String[]) rs.getArray("purpose_fields").getArray();
        Map<Purpose, Set<String>> contracted = new EnumMap<>(Purpose.class);
        for (int i = 0; i < purposes.length; i++) {
            contracted.put(Purpose.valueOf(purposes[i]), Set.of(fields[i].split(",")));
        }
        return new Account(
                new AccountId(rs.getLong("id")),
                rs.getString("name"),
                new Plan(rs.getString("plan_name"), rs.getLong("daily_request_limit")),
                rs.getBoolean("api_enabled"),
                AccreditationStatus.valueOf(rs.getString("accreditation")),
                contracted,
                Optional.ofNullable(rs.getString("default_justification")),
                rs.getInt("person_batch_limit"),
                rs.getInt("company_batch_limit"),
                rs.getTimestamp("created_at").toInstant());
    }

    static ApiKey key(ResultSet rs) throws SQLException {
        String[] scopes = (String[]) rs.getArray("scopes").getArray();
        Set<Scope> set = EnumSet.noneOf(Scope.class);
        Arrays.stream(scopes).map(Scope::parse).forEach(set::add);
        Timestamp revoked = rs.getTimestamp("revoked_at");
        return new ApiKey(
                rs.getString("prefix"),
                new AccountId(rs.getLong("key_account")),
                rs.getString("label"),
                set,
                rs.getBoolean("person_lookup_released"),
                rs.getTimestamp("key_created_at").toInstant(),
                Optional.ofNullable(revoked).map(Timestamp::toInstant));
    }
}
