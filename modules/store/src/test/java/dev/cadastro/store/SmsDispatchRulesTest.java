package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.store.internal.Migrations;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The rules of {@code sms_dispatches}, enforced by the database whatever the code above it does: every
 * one refuses a row that breaks it, on a new database and on one upgraded from the schema before the
 * one-column rules became domains (V12), whose rows the upgrade keeps.
 */
class SmsDispatchRulesTest {
    private static final String GOOD = "INSERT INTO sms_dispatches (public_id, account_id, phone_key, phone_masked,"
            + " digits, key_id, code_mac, hold_key, client_ref, created_at, expires_at, attempts, state,"
            + " verified_at, delivery, settled_at)"
            + " VALUES (%s, %s, 'p', '(11) 9****-4321', %s, 'k1', %s, 'h', %s, now(), %s, %s, %s, %s, %s, %s)";

    /** A valid row's values, by column, as SQL literals. */
    private static final Map<String, String> VALID = Map.ofEntries(
            Map.entry("public_id", "'d'"),
            Map.entry("digits", "6"),
            Map.entry("code_mac", "decode(repeat('ab', 32), 'hex')"),
            Map.entry("client_ref", "'r.1'"),
            Map.entry("expires_at", "now() + interval '10 minutes'"),
            Map.entry("attempts", "0"),
            Map.entry("state", "'pendente'"),
            Map.entry("verified_at", "NULL"),
            Map.entry("delivery", "'enviando'"),
            Map.entry("settled_at", "NULL"));

    /** Each rule, broken alone: the columns to change from {@link #VALID}. */
    private static final List<Map<String, String>> BROKEN = List.of(
            Map.of("public_id", "''"),
            Map.of("public_id", "repeat('x', 65)"),
            Map.of("digits", "3"),
            Map.of("digits", "9"),
            Map.of("code_mac", "decode(repeat('ab', 31), 'hex')"),
            Map.of("client_ref", "''"),
            Map.of("client_ref", "repeat('r', 101)"),
            Map.of("expires_at", "now() - interval '1 second'"),
            Map.of("attempts", "-1"),
            Map.of("attempts", "6"),
            Map.of("state", "'bloqueado'"),
            Map.of("state", "'verificado'"),
            Map.of("verified_at", "now()"),
            Map.of("delivery", "'entregue'"),
            Map.of("delivery", "'aceito'"),
            Map.of("settled_at", "now()"));

    @Test
    void onANewDatabaseEveryRuleRefusesARowThatBreaksIt() throws Exception {
        PGSimpleDataSource db = dataSource(TestDatabase.freshDatabase());
        Migrations.apply(db, Clock.systemUTC());
        assertRulesHold(db);
    }

    @Test
    void upgradingToDomainsKeepsTheDispatchesTheirIndexesAndEveryRule() throws Exception {
        PGSimpleDataSource db = dataSource(TestDatabase.freshDatabase());
        Migrations.apply(db, Clock.systemUTC(), 11);
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            long account = account(s);
            for (int i = 0; i < 50; i++) {
                s.executeUpdate(row(account, Map.of("public_id", "'old-" + i + "'", "client_ref", "'r." + i + "'")));
            }
            s.executeUpdate("UPDATE sms_dispatches SET attempts = 5 WHERE public_id = 'old-7'");
        }
        assertEquals(List.of(12), Migrations.apply(db, Clock.systemUTC()));
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*), sum(attempts) FROM sms_dispatches")) {
                rs.next();
                assertEquals(50, rs.getInt(1));
                assertEquals(5, rs.getInt(2));
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid"
                    + " WHERE t.relname = 'sms_dispatches' AND i.indisvalid")) {
                rs.next();
                assertEquals(5, rs.getInt(1), "the primary key, public_id, client_ref, throttle and sending indexes");
            }
            SQLException duplicate = assertThrows(
                    SQLException.class,
                    () -> s.executeUpdate(row(account(s), Map.of("public_id", "'old-3'", "client_ref", "'r.x'"))));
            assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
        }
        assertRulesHold(db);
    }

    private static void assertRulesHold(PGSimpleDataSource db) throws SQLException {
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            long account = account(s);
            assertEquals(1, s.executeUpdate(row(account, Map.of("public_id", "'valid'"))));
            for (Map<String, String> broken : BROKEN) {
                SQLException e = assertThrows(
                        SQLException.class, () -> s.executeUpdate(row(account, broken)), broken.toString());
                assertEquals("23514", e.getSQLState(), broken + ": " + e.getMessage());
            }
            // An update is held to the same rules as an insert.
            for (String update :
                    List.of("attempts = 6", "state = 'bloqueado'", "delivery = 'entregue'", "state = 'verificado'")) {
                SQLException e = assertThrows(
                        SQLException.class,
                        () -> s.executeUpdate("UPDATE sms_dispatches SET " + update + " WHERE public_id = 'valid'"),
                        update);
                assertEquals("23514", e.getSQLState(), update + ": " + e.getMessage());
            }
        }
    }

    private static String row(long account, Map<String, String> changed) {
        Map<String, String> v = new java.util.HashMap<>(VALID);
        v.put("public_id", "'d-" + java.util.UUID.randomUUID() + "'");
        v.putAll(changed);
        return GOOD.formatted(
                v.get("public_id"),
                account,
                v.get("digits"),
                v.get("code_mac"),
                v.get("client_ref"),
                v.get("expires_at"),
                v.get("attempts"),
                v.get("state"),
                v.get("verified_at"),
                v.get("delivery"),
                v.get("settled_at"));
    }

    private static long account(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("INSERT INTO accounts (name, plan_name, daily_request_limit, created_at)"
                + " VALUES ('rules', 'p', 10, now()) RETURNING id")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static PGSimpleDataSource dataSource(String url) {
        PGSimpleDataSource db = new PGSimpleDataSource();
        db.setURL(url);
        return db;
    }
}
