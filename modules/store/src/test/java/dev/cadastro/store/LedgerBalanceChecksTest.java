package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.CreditKind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The database's own guarantee that every ledger entry names an existing balance, checked once per
 * statement (V17) instead of by a foreign key row by row: an entry without its balance is refused with
 * the foreign key's SQLSTATE, a whole statement with it; a balance with entries cannot be deleted or
 * re-keyed; and an entry being written locks its balance against deletion until it commits.
 */
class LedgerBalanceChecksTest {
    private static final String ENTRY = "INSERT INTO ledger_entries (account_id, kind, type, amount, idem_key,"
            + " description, created_at, balance_after) VALUES ";

    private static String row(long account, String kind, String key) {
        return "(" + account + ", '" + kind + "', 'ADJUSTMENT', 1, '" + key + "', 'teste', now(), 1)";
    }

    private static long entries(Statement s, long account) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM ledger_entries WHERE account_id = " + account)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void refusesAnEntryWhoseBalanceDoesNotExistAndTheWholeStatementWithIt() throws SQLException {
        long a = TestDatabase.fundedAccount(10, 0).id().value();
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                Statement s = c.createStatement()) {
            long before = entries(s, a);
            SQLException alone =
                    assertThrows(SQLException.class, () -> s.executeUpdate(ENTRY + row(987_654_321L, "CREDITS", "x")));
            assertEquals("23503", alone.getSQLState(), alone.getMessage());
            SQLException mixed = assertThrows(
                    SQLException.class,
                    () -> s.executeUpdate(ENTRY + row(a, "CREDITS", "ok-1") + ", " + row(a, "NO_SUCH_KIND", "bad")
                            + ", " + row(a, "CREDITS", "ok-2")));
            assertEquals("23503", mixed.getSQLState(), mixed.getMessage());
            assertEquals(before, entries(s, a), "nothing of the refused statement was written");
            assertEquals(1, s.executeUpdate(ENTRY + row(a, "SMS_CREDITS", "fine")));
        }
    }

    @Test
    void aBalanceWithEntriesCannotBeDeletedOrReKeyedOneWithoutCan() throws SQLException {
        AccountId funded = TestDatabase.fundedAccount(10, 0).id();
        long a = funded.value();
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                Statement s = c.createStatement()) {
            SQLException delete = assertThrows(
                    SQLException.class,
                    () -> s.executeUpdate("DELETE FROM balances WHERE account_id = " + a + " AND kind = 'CREDITS'"));
            assertEquals("23503", delete.getSQLState(), delete.getMessage());
            long other = TestDatabase.accountRow(s, "sem saldo");
            SQLException rekey = assertThrows(
                    SQLException.class,
                    () -> s.executeUpdate("UPDATE balances SET account_id = " + other + " WHERE account_id = " + a
                            + " AND kind = 'CREDITS'"));
            assertEquals("23503", rekey.getSQLState(), rekey.getMessage());
            assertEquals(
                    10,
                    TestDatabase.store()
                            .ledger()
                            .balance(funded, CreditKind.CREDITS)
                            .posted());
            // The SMS balance has no entry: it may go, as under a foreign key.
            assertEquals(
                    1, s.executeUpdate("DELETE FROM balances WHERE account_id = " + a + " AND kind = 'SMS_CREDITS'"));
        }
    }

    /**
     * At REPEATABLE READ the delete's check would read the transaction's first snapshot and miss an entry
     * committed since (a foreign key would not): such a session is refused outright (V18).
     */
    @Test
    void aBalanceIsDeletedOnlyAtReadCommittedSoAnEntryCommittedAfterTheSnapshotIsNeverMissed() throws SQLException {
        long a = TestDatabase.fundedAccount(0, 0).id().value();
        try (Connection operator = TestDatabase.store().dataSource().getConnection();
                Connection writer = TestDatabase.store().dataSource().getConnection();
                Statement o = operator.createStatement();
                Statement w = writer.createStatement()) {
            operator.setAutoCommit(false);
            try {
                o.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                o.executeQuery("SELECT 1").close(); // the snapshot is taken here
                w.executeUpdate(ENTRY + row(a, "SMS_CREDITS", "after-the-snapshot"));
                SQLException refused = assertThrows(
                        SQLException.class,
                        () -> o.executeUpdate(
                                "DELETE FROM balances WHERE account_id = " + a + " AND kind = 'SMS_CREDITS'"));
                assertEquals("23503", refused.getSQLState(), refused.getMessage());
            } finally {
                operator.rollback();
                operator.setAutoCommit(true);
            }
            assertEquals(1, entries(w, a), "the entry and its balance are both there");
        }
    }

    @Test
    void anEntryBeingWrittenLocksItsBalanceAgainstDeletion() throws SQLException {
        long a = TestDatabase.fundedAccount(0, 0).id().value();
        try (Connection writer = TestDatabase.store().dataSource().getConnection();
                Connection deleter = TestDatabase.store().dataSource().getConnection();
                Statement w = writer.createStatement();
                Statement d = deleter.createStatement()) {
            writer.setAutoCommit(false);
            try {
                w.executeUpdate(ENTRY + row(a, "SMS_CREDITS", "in-flight"));
                d.execute("SET lock_timeout = '300ms'");
                SQLException blocked = assertThrows(
                        SQLException.class,
                        () -> d.executeUpdate(
                                "DELETE FROM balances WHERE account_id = " + a + " AND kind = 'SMS_CREDITS'"));
                assertEquals(
                        "55P03", blocked.getSQLState(), "the delete waits for the writer: " + blocked.getMessage());
                writer.commit();
                SQLException afterCommit = assertThrows(
                        SQLException.class,
                        () -> d.executeUpdate(
                                "DELETE FROM balances WHERE account_id = " + a + " AND kind = 'SMS_CREDITS'"));
                assertEquals("23503", afterCommit.getSQLState(), afterCommit.getMessage());
            } finally {
                writer.rollback();
                writer.setAutoCommit(true);
                d.execute("RESET lock_timeout");
            }
        }
    }
}
