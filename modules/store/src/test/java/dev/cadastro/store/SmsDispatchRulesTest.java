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
import org.postgresql.util.PSQLException;

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

    /**
     * Each rule broken alone (the columns changed from {@link #VALID}), with the constraint PostgreSQL
     * must name: a domain's rule, or one of the table's CHECKs that relate two columns (named by
     * PostgreSQL in the order V7 declares them).
     */
    private static final List<Map.Entry<Map<String, String>, String>> BROKEN = List.of(
            Map.entry(Map.of("public_id", "''"), "sms_public_id_length"),
            Map.entry(Map.of("public_id", "repeat('x', 65)"), "sms_public_id_length"),
            Map.entry(Map.of("digits", "3"), "sms_digits_range"),
            Map.entry(Map.of("digits", "9"), "sms_digits_range"),
            Map.entry(Map.of("code_mac", "decode(repeat('ab', 31), 'hex')"), "sms_code_mac_length"),
            Map.entry(Map.of("client_ref", "''"), "sms_client_ref_length"),
            Map.entry(Map.of("client_ref", "repeat('r', 101)"), "sms_client_ref_length"),
            Map.entry(Map.of("expires_at", "now() - interval '1 second'"), "sms_dispatches_check"),
            Map.entry(Map.of("attempts", "-1"), "sms_attempts_range"),
            Map.entry(Map.of("attempts", "6"), "sms_attempts_range"),
            Map.entry(Map.of("state", "'bloqueado'"), "sms_state_known"),
            Map.entry(Map.of("state", "'verificado'"), "sms_dispatches_check1"),
            Map.entry(Map.of("verified_at", "now()"), "sms_dispatches_check1"),
            Map.entry(Map.of("delivery", "'entregue'", "settled_at", "now()"), "sms_delivery_known"),
            Map.entry(Map.of("delivery", "'aceito'"), "sms_dispatches_check2"),
            Map.entry(Map.of("settled_at", "now()"), "sms_dispatches_check2"));

    /** Updates of a valid row that break one rule each, with the constraint that must refuse them. */
    private static final Map<String, String> BROKEN_UPDATES = Map.of(
            "attempts = 6", "sms_attempts_range",
            "state = 'bloqueado'", "sms_state_known",
            "delivery = 'entregue', settled_at = now()", "sms_delivery_known",
            "state = 'verificado'", "sms_dispatches_check1");

    @Test
    void onANewDatabaseEveryRuleRefusesARowThatBreaksIt() throws Exception {
        PGSimpleDataSource db = TestDatabase.dataSource(TestDatabase.freshDatabase());
        Migrations.apply(db, Clock.systemUTC());
        assertRulesHold(db);
    }

    @Test
    void upgradingToDomainsKeepsTheDispatchesTheirIndexesAndEveryRule() throws Exception {
        PGSimpleDataSource db = TestDatabase.dataSource(TestDatabase.freshDatabase());
        Migrations.apply(db, Clock.systemUTC(), 11);
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            long account = TestDatabase.accountRow(s, "rules");
            for (int i = 0; i < 50; i++) {
                s.executeUpdate(row(account, Map.of("public_id", "'old-" + i + "'", "client_ref", "'r." + i + "'")));
            }
            s.executeUpdate("UPDATE sms_dispatches SET attempts = 5 WHERE public_id = 'old-7'");
        }
        assertEquals(List.of(12), Migrations.apply(db, Clock.systemUTC(), 12));
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
                    () -> s.executeUpdate(row(
                            TestDatabase.accountRow(s, "rules"),
                            Map.of("public_id", "'old-3'", "client_ref", "'r.x'"))));
            assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
        }
        assertRulesHold(db);
    }

    private static void assertRulesHold(PGSimpleDataSource db) throws SQLException {
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            long account = TestDatabase.accountRow(s, "rules");
            assertEquals(1, s.executeUpdate(row(account, Map.of("public_id", "'valid'"))));
            for (Map.Entry<Map<String, String>, String> broken : BROKEN) {
                SQLException e = assertThrows(
                        SQLException.class, () -> s.executeUpdate(row(account, broken.getKey())), broken.toString());
                assertRefusedBy(broken.getValue(), e, broken.getKey().toString());
            }
            // An update is held to the same rules as an insert.
            for (Map.Entry<String, String> update : BROKEN_UPDATES.entrySet()) {
                SQLException e = assertThrows(
                        SQLException.class,
                        () -> s.executeUpdate(
                                "UPDATE sms_dispatches SET " + update.getKey() + " WHERE public_id = 'valid'"),
                        update.getKey());
                assertRefusedBy(update.getValue(), e, update.getKey());
            }
            // The defaults a new dispatch takes: no attempt, pending, sending.
            s.executeUpdate("INSERT INTO sms_dispatches (public_id, account_id, phone_key, phone_masked, digits,"
                    + " key_id, code_mac, hold_key, client_ref, created_at, expires_at) VALUES ('defaults', "
                    + account + ", 'p', 'm', 6, 'k1', decode(repeat('ab', 32), 'hex'), 'h', 'r.d', now(),"
                    + " now() + interval '1 minute')");
            try (ResultSet rs = s.executeQuery(
                    "SELECT attempts, state, delivery FROM sms_dispatches WHERE public_id = 'defaults'")) {
                rs.next();
                assertEquals(0, rs.getInt(1));
                assertEquals("pendente", rs.getString(2));
                assertEquals("enviando", rs.getString(3));
            }
        }
    }

    private static void assertRefusedBy(String constraint, SQLException e, String what) {
        assertEquals("23514", e.getSQLState(), what + ": " + e.getMessage());
        assertEquals(
                constraint, ((PSQLException) e).getServerErrorMessage().getConstraint(), what + ": " + e.getMessage());
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
}
