package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.store.internal.PgOtpStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The plans PostgreSQL caches for the SMS statements, made where a new server's connections make them:
 * on a new database whose tables are empty and were never analyzed. Each must reach a dispatch by its
 * unique {@code public_id}, or by the few rows of one phone or one request reference, and the hold and
 * the balance by their whole primary keys; a plan that scans an index on the account alone reads every
 * dispatch or hold of the account on each check or acceptance, and keeps doing so for the connection's
 * life as the tables grow (benchmarks/history/2026-11-24-sms.md, "sms: plans on a new database"). (Speed itself is
 * measured in benchmarks.)
 */
class SmsPlanTest {
    private static final Pattern SCAN = Pattern.compile(
            "(Index Scan|Index Only Scan|Index Scan Backward|Index Only Scan Backward) using (\\S+) on (\\S+)");

    private static final Pattern DOMAIN_CAST = Pattern.compile("\\((public_id|client_ref)\\)::text");

    /** Each index these statements may use, with what its condition must name. */
    private static final Map<String, List<String>> ALLOWED = Map.of(
            "sms_dispatches_pkey", List.of("id = $"),
            "sms_dispatches_public_id_key", List.of("public_id = $"),
            "sms_dispatches_client_ref", List.of("client_ref = $"),
            "sms_dispatches_throttle", List.of("phone_key = $"),
            "sms_sending_pkey", List.of("dispatch_id = "),
            "holds_pkey", List.of("account_id = $", "idem_key = "),
            "balances_pkey", List.of("account_id = $", "kind = $"));

    @Test
    void onANewUnanalyzedDatabaseEachSmsStatementUsesKeysOnly() throws Exception {
        String url = TestDatabase.freshDatabase();
        try (Store store = Store.open(Database.builder().url(url).poolSize(1).build(), Clock.systemUTC());
                // The simple protocol: EXPLAIN (GENERIC_PLAN) takes the $n placeholders as text.
                Connection c = DriverManager.getConnection(url + "&preferQueryMode=simple");
                Statement s = c.createStatement()) {
            for (Map.Entry<String, String> statement : PgOtpStore.planned().entrySet()) {
                List<String> plan = genericPlan(s, statement.getValue());
                String text = statement.getKey() + ":\n" + String.join("\n", plan);
                assertFalse(text.contains("Seq Scan"), text);
                assertFalse(text.contains("Bitmap"), text);
                int scans = 0;
                for (int i = 0; i < plan.size(); i++) {
                    Matcher m = SCAN.matcher(plan.get(i));
                    if (!m.find()) {
                        continue;
                    }
                    scans++;
                    List<String> required = ALLOWED.get(m.group(2));
                    assertTrue(required != null, "a scan of " + m.group(2) + " in " + text);
                    // The columns of a domain type (V12) are compared as their base type: "(public_id)::text = $1".
                    String cond = i + 1 < plan.size()
                            ? DOMAIN_CAST.matcher(plan.get(i + 1)).replaceAll("$1")
                            : "";
                    assertTrue(cond.startsWith("Index Cond:"), text);
                    for (String r : required) {
                        assertTrue(cond.contains(r), r + " in " + text);
                    }
                }
                assertTrue(scans > 0, text);
            }
        }
    }

    /**
     * The plans a connection keeps using once the tables were analyzed: autovacuum's first ANALYZE of a
     * new home replaces the cached plans, and each statement must go on running a plan made once, not
     * be planned again at every execution (about 0.1 ms of PostgreSQL's CPU each time). Under load the
     * send's read was planned at every execution after that ANALYZE (benchmarks/history/2026-11-24-sms.md, "sms: a
     * send's read planned at every execution"); this sequential test does not reproduce that turn, so
     * it checks the means: the read runs its generic plan from its first prepared execution (without
     * the send's {@code SET LOCAL}, its first five are custom plans), and no SMS statement makes a
     * custom plan after the ANALYZE.
     */
    @Test
    void afterTheFirstAnalyzeTheSmsStatementsKeepTheirCachedPlans() throws Exception {
        String url = TestDatabase.freshDatabase();
        try (Store store = Store.open(Database.builder().url(url).poolSize(1).build(), Clock.systemUTC())) {
            dev.cadastro.core.internal.ManualClock clock =
                    new dev.cadastro.core.internal.ManualClock(java.time.Instant.parse("2026-11-24T15:00:00Z"));
            OtpStoreTest.Provider provider = new OtpStoreTest.Provider();
            dev.cadastro.core.sms.OtpService otp = SmsFlows.service(store, provider, clock);
            dev.cadastro.core.account.Principal p = SmsFlows.principal(store, clock, 1000);
            int[] phone = {0};
            Runnable pairs = () -> {
                for (int i = 0; i < 30; i++) {
                    var sent = otp.send(
                            p, dev.cadastro.core.sms.OtpRequest.parse("119%08d".formatted(phone[0]++), 300L, null));
                    otp.verify(p, sent.id(), provider.code(sent.id()));
                }
            };
            pairs.run();
            Map<String, long[]> before = preparedPlans(store);
            try (Connection c = store.dataSource().getConnection();
                    Statement s = c.createStatement()) {
                // Bulk set-up, not a request: it may take longer than a request's network timeout.
                c.setNetworkTimeout(Runnable::run, 0);
                // What a home holds when autovacuum first analyzes it under load: a hundred seconds of sends.
                s.execute("INSERT INTO sms_dispatches (public_id, account_id, phone_key, phone_masked, digits, key_id,"
                        + " code_mac, hold_key, client_ref, created_at, expires_at, delivery, settled_at, state,"
                        + " verified_at, attempts) SELECT 'bulk' || g, "
                        + p.accountId().value()
                        + ", md5(g::text), 'm', 6, 'k1', decode(repeat('ab', 32), 'hex'), 'h' || g, 'r.' || g,"
                        + " timestamptz '2026-11-24T14:58:00Z' + g * interval '1 ms', timestamptz '2026-11-24T15:05:00Z',"
                        + " 'aceito', timestamptz '2026-11-24T15:00:00Z', 'verificado', timestamptz '2026-11-24T15:00:00Z', 1"
                        + " FROM generate_series(1, 100000) g");
                s.execute("VACUUM");
                s.execute("ANALYZE");
            }
            pairs.run();
            Map<String, long[]> after = preparedPlans(store);
            String read = after.keySet().stream()
                    .filter(q -> q.strip().startsWith("WITH earlier AS"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("the send's read is not prepared: " + after.keySet()));
            // The send's read runs its cached plan from its first prepared execution: no custom plan ever.
            assertEquals(0, after.get(read)[1], "custom plans of " + read);
            assertTrue(after.get(read)[0] >= 50, "generic plans of " + read);
            // Every other statement made its custom plans before the ANALYZE and none after.
            for (Map.Entry<String, long[]> e : after.entrySet()) {
                long[] earlier = before.get(e.getKey());
                if (earlier != null) {
                    assertEquals(earlier[1], e.getValue()[1], "custom plans after the ANALYZE of " + e.getKey());
                }
            }
        }
    }

    /** The pool's only connection's prepared statements: generic and custom plans so far, by statement. */
    private static Map<String, long[]> preparedPlans(Store store) throws Exception {
        Map<String, long[]> plans = new java.util.TreeMap<>();
        try (Connection c = store.dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")) {
            while (rs.next()) {
                plans.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
            }
        }
        return plans;
    }

    /** {@code EXPLAIN (GENERIC_PLAN)}: the plan made without the parameters' values, as a cached plan is. */
    private static List<String> genericPlan(Statement s, String sql) throws Exception {
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            if (ch == '?') {
                numbered.append('$').append(++n);
            } else {
                numbered.append(ch);
            }
        }
        List<String> lines = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("EXPLAIN (GENERIC_PLAN, COSTS OFF) " + numbered)) {
            while (rs.next()) {
                lines.add(rs.getString(1).strip());
            }
        }
        return lines;
    }
}
