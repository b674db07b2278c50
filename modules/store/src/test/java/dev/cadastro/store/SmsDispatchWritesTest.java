package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.sms.DeliveryReceipt;
import dev.cadastro.core.sms.OtpRequest;
import dev.cadastro.core.sms.OtpSent;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.sms.SmsUnavailableException;
import dev.cadastro.store.internal.Migrations;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * How the SMS flow writes {@code sms_dispatches} (V13): a send inserts the dispatch and its row in
 * {@code sms_sending}; the acceptance, the checks and a failed-delivery receipt update the dispatch in
 * place, as heap-only (HOT) updates that write no index entry (when its page has room, as it has in a
 * sequential flow with autovacuum off; at 1,000 pairs/s 99% did); every settlement removes the sending
 * row; and a database upgraded with sends in flight still releases them when they are stuck.
 */
class SmsDispatchWritesTest {
    private static final Instant T0 = Instant.parse("2026-11-24T15:00:00Z");

    /** The columns the moves of a dispatch after its insert set. No index may name one of them. */
    private static final List<String> UPDATED = List.of(
            "delivery", "provider_message_id", "settled_at", "attempts", "state", "verified_at", "failure_reported_at");

    @Test
    void noIndexOfTheDispatchesNamesAColumnTheirUpdatesSet() throws Exception {
        String url = TestDatabase.freshDatabase();
        Migrations.apply(TestDatabase.dataSource(url), Clock.systemUTC());
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid)"
                        + " FROM pg_index WHERE indrelid = 'sms_dispatches'::regclass")) {
            int indexes = 0;
            while (rs.next()) {
                indexes++;
                String definition = rs.getString(2);
                for (String column : UPDATED) {
                    assertFalse(
                            Pattern.compile("\\b" + column + "\\b")
                                    .matcher(definition)
                                    .find(),
                            rs.getString(1) + " names " + column + ": " + definition);
                }
            }
            assertEquals(4, indexes, "the primary key, public_id, client_ref and the throttle");
        }
    }

    @Test
    void acceptancesChecksAndReceiptsAreHeapOnlyUpdatesAndSettledSendsLeaveTheSendingTable() throws Exception {
        String url = TestDatabase.freshDatabase();
        int dispatches = 40;
        try (Store store = Store.open(Database.builder().url(url).poolSize(2).build(), Clock.systemUTC())) {
            // An autovacuum of the table while the flow runs could hold a page a moment and leave one
            // update without room there; the rule under test is the indexes, not that race.
            execute(store, "ALTER TABLE sms_dispatches SET (autovacuum_enabled = false)");
            ManualClock clock = new ManualClock(T0);
            OtpStoreTest.Provider provider = new OtpStoreTest.Provider();
            OtpService otp = SmsFlows.service(store, provider, clock);
            Principal p = SmsFlows.principal(store, clock, dispatches);
            for (int i = 0; i < dispatches; i++) {
                OtpSent sent = otp.send(p, OtpRequest.parse("119%08d".formatted(i), 300L, null));
                String code = provider.code(sent.id());
                assertFalse(otp.verify(p, sent.id(), SmsFlows.wrong(code)).valid());
                assertTrue(otp.verify(p, sent.id(), code).valid());
                if (i % 4 == 0) {
                    otp.receipt(new DeliveryReceipt(sent.id(), "prov-" + sent.id(), false));
                }
            }
            // One send the provider refused: released, and out of the sending table too.
            provider.down = true;
            assertThrows(SmsUnavailableException.class, () -> otp.send(p, OtpRequest.parse("11999999999", 300L, null)));
            assertEquals(new Balance(CreditKind.SMS_CREDITS, dispatches / 4, 0), sms(store, p));
            assertEquals(0, count(store, "SELECT count(*) FROM sms_sending"));
            assertEquals(dispatches + 1, count(store, "SELECT count(*) FROM sms_dispatches"));
        }
        // The counts are the server's statistics, which each connection reports when it ends: the store is
        // closed, so they arrive within moments. An acceptance, two checks, and a receipt for every fourth.
        long expected = dispatches * 3L + dispatches / 4 + 1;
        long[] updates = {0, 0};
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (updates[0] < expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
            try (Connection c = DriverManager.getConnection(url);
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
                            + " WHERE relname = 'sms_dispatches'")) {
                rs.next();
                updates = new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
        assertEquals(expected, updates[0], "the updates of sms_dispatches");
        assertEquals(updates[0], updates[1], "every update of sms_dispatches was heap-only");
    }

    @Test
    void anUpgradeWithSendsInFlightStillReleasesTheStuckOnes() throws Exception {
        String url = TestDatabase.freshDatabase();
        PGSimpleDataSource db = TestDatabase.dataSource(url);
        Migrations.apply(db, Clock.systemUTC(), 12);
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            long account = TestDatabase.accountRow(s, "upgrade");
            s.executeUpdate("INSERT INTO balances (account_id, kind, posted, held) VALUES (" + account
                    + ", 'SMS_CREDITS', 3, 2)");
            for (String id : List.of("stuck", "settled", "fresh")) {
                boolean settled = id.equals("settled");
                s.executeUpdate("INSERT INTO holds (account_id, idem_key, kind, amount, state, posted_amount,"
                        + " description, created_at) VALUES (" + account + ", 'h-" + id + "', 'SMS_CREDITS', 1, "
                        + (settled ? "'POSTED', 1" : "'HELD', NULL") + ", 'sms', now())");
                String created = id.equals("fresh") ? "now()" : "now() - interval '10 minutes'";
                s.executeUpdate("INSERT INTO sms_dispatches (public_id, account_id, phone_key, phone_masked, digits,"
                        + " key_id, code_mac, hold_key, client_ref, created_at, expires_at, delivery, settled_at)"
                        + " VALUES ('" + id + "', " + account + ", 'p', 'm', 6, 'k1', decode(repeat('ab', 32), 'hex'),"
                        + " 'h-" + id + "', 'r." + id + "', " + created + ", now() + interval '1 hour', "
                        + (settled ? "'aceito', now()" : "'enviando', NULL") + ")");
            }
        }
        try (Store store = Store.open(Database.builder().url(url).poolSize(2).build(), Clock.systemUTC())) {
            assertEquals(List.of(13, 14, 15, 16, 17, 18, 19), store.migrationsApplied());
            assertEquals(2, count(store, "SELECT count(*) FROM sms_sending"));
            Instant now = Instant.now();
            assertEquals(1, store.otpStore().abandonSending(now.minus(OtpService.SENDING_LEASE), now));
            assertEquals(0, store.otpStore().abandonSending(now.minus(OtpService.SENDING_LEASE), now));
            assertEquals(
                    List.of("incerto", "aceito", "enviando"),
                    List.of(delivery(store, "stuck"), delivery(store, "settled"), delivery(store, "fresh")));
            assertEquals(1, count(store, "SELECT count(*) FROM sms_sending"));
            assertEquals(3, count(store, "SELECT posted FROM balances"));
            assertEquals(1, count(store, "SELECT held FROM balances"));
        }
    }

    private static String delivery(Store store, String id) throws SQLException {
        try (Connection c = store.dataSource().getConnection();
                var ps = c.prepareStatement("SELECT delivery FROM sms_dispatches WHERE public_id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getString(1);
            }
        }
    }

    private static void execute(Store store, String sql) throws SQLException {
        try (Connection c = store.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long count(Store store, String sql) throws SQLException {
        try (Connection c = store.dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    private static Balance sms(Store store, Principal p) {
        return store.ledger().balance(p.accountId(), CreditKind.SMS_CREDITS);
    }
}
