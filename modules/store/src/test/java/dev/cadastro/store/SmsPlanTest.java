package dev.cadastro.store;

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
 * life as the tables grow (benchmarks/RESULTS.md, "sms: plans on a new database"). (Speed itself is
 * measured in benchmarks.)
 */
class SmsPlanTest {
    private static final Pattern SCAN = Pattern.compile(
            "(Index Scan|Index Only Scan|Index Scan Backward|Index Only Scan Backward) using (\\S+) on (\\S+)");

    private static final Pattern DOMAIN_CAST = Pattern.compile("\\((public_id|client_ref)\\)::text");

    /** Each index these statements may use, with what its condition must name. */
    private static final Map<String, List<String>> ALLOWED = Map.of(
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
