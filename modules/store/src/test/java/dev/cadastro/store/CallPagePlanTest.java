package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.FeedEntry;
import dev.cadastro.core.calls.FeedPosition;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.store.internal.PgCallStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The plan PostgreSQL runs for a deep page: one range scan of the index {@code calls_list} that starts
 * at the cursor, with no sort and no rows read and thrown away, so the ten-thousandth page costs what the
 * first does; the same for the call feed on {@code calls_feed}. (Speed itself is measured in benchmarks, never asserted here.)
 */
class CallPagePlanTest {
    @Test
    void aDeepPageIsOneIndexRangeScanFromTheCursorWithoutASort() throws Exception {
        Integration i = CallFixtures.integration();
        Instant t = Instant.parse("2026-11-20T12:00:00Z");
        List<CallRecord> batch = new ArrayList<>();
        for (int k = 0; k < 20_000; k++) {
            Instant at = t.plusMillis(k / 3);
            batch.add(CallFixtures.call(
                    i,
                    String.format("P%06d", k),
                    at,
                    at.plusSeconds(60),
                    "Venda realizada",
                    "agente." + (k % 100),
                    "vendas"));
        }
        TestDatabase.store().calls().ingest(batch);
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                Statement s = c.createStatement()) {
            c.setNetworkTimeout(Runnable::run, 0); // set-up, not a request
            s.execute("ANALYZE calls");
        }
        CallPosition deep = batch.get(5_000).position();
        PgCallStore.PageQuery q =
                PgCallStore.pageQuery(i.id(), CallFilter.NONE, Optional.of(deep), t.minus(Duration.ofDays(7)), 50);
        String plan = explain(q);
        assertTrue(
                plan.contains("Index Scan using calls_list") || plan.contains("Index Only Scan using calls_list"),
                plan);
        assertFalse(plan.contains("Sort"), plan);
        assertFalse(plan.contains("Rows Removed by Filter"), plan);
        assertTrue(plan.contains("actual rows=50") || plan.contains("actual rows=50.00"), plan);
        assertEquals(
                50,
                TestDatabase.store()
                        .calls()
                        .page(i.id(), CallFilter.NONE, Optional.of(deep), t.minus(Duration.ofDays(7)), 50)
                        .size());
    }

    @Test
    void aFilteredPageReadsTheFiltersIndexNotTheWholeList() throws Exception {
        Integration i = CallFixtures.integration();
        Instant t = Instant.parse("2026-11-21T12:00:00Z");
        List<CallRecord> batch = new ArrayList<>();
        for (int k = 0; k < 20_000; k++) {
            Instant at = t.plusMillis(k);
            batch.add(CallFixtures.call(
                    i,
                    String.format("F%06d", k),
                    at,
                    at.plusSeconds(60),
                    "Venda realizada",
                    "agente." + (k % 200),
                    "vendas"));
        }
        TestDatabase.store().calls().ingest(batch);
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                Statement s = c.createStatement()) {
            c.setNetworkTimeout(Runnable::run, 0); // set-up, not a request
            s.execute("ANALYZE calls");
        }
        CallFilter agent = new CallFilter(
                Optional.empty(), Optional.empty(), Optional.of("agente.7"), Optional.empty(), Optional.empty());
        CallPosition deep = batch.get(10_007).position();
        String plan = explain(PgCallStore.pageQuery(i.id(), agent, Optional.of(deep), t.minus(Duration.ofDays(7)), 20));
        assertTrue(plan.contains("using calls_list_agent"), plan);
        assertFalse(plan.contains("Sort"), plan);
        assertFalse(plan.contains("Rows Removed by Filter"), plan);
    }

    @Test
    void aDeepFeedPageIsOneRangeScanOfTheFeedIndexWithoutASort() throws Exception {
        Integration i = CallFixtures.integration();
        Instant t = Instant.parse("2026-11-22T12:00:00Z");
        List<FeedEntry> all = new ArrayList<>();
        for (int tx = 0; tx < 20; tx++) {
            List<CallRecord> batch = new ArrayList<>();
            for (int k = 0; k < 1_000; k++) {
                Instant at = t.plusMillis(tx * 1_000L + k);
                batch.add(CallFixtures.call(
                        i,
                        String.format("Q%02d%04d", 19 - tx, k),
                        at,
                        at.plusSeconds(60),
                        "Venda realizada",
                        "agente." + (k % 100),
                        "vendas"));
            }
            TestDatabase.store().calls().ingest(batch);
        }
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                Statement s = c.createStatement()) {
            c.setNetworkTimeout(Runnable::run, 0); // set-up, not a request
            s.execute("ANALYZE calls");
        }
        Instant window = t.minus(Duration.ofDays(7));
        all.addAll(TestDatabase.store()
                .calls()
                .feed(i.id(), CallFilter.NONE, Optional.empty(), Optional.empty(), window, 200));
        // One position per transaction, in commit order, whatever the ids say.
        assertEquals("Q190000", all.get(0).call().id());
        assertEquals(all.get(0).availableAt(), all.get(199).availableAt());
        FeedPosition deep = TestDatabase.store()
                .calls()
                .feed(
                        i.id(),
                        CallFilter.NONE,
                        Optional.empty(),
                        Optional.of(all.get(199).position()),
                        window,
                        200)
                .get(199)
                .position();
        PgCallStore.PageQuery q =
                PgCallStore.feedQuery(i.id(), CallFilter.NONE, Optional.empty(), Optional.of(deep), window, 50);
        String plan = explain(q);
        assertTrue(plan.contains("Index Scan using calls_feed"), plan);
        assertFalse(plan.contains("Sort"), plan);
        assertFalse(plan.contains("Rows Removed by Filter"), plan);
        List<FeedEntry> page = TestDatabase.store()
                .calls()
                .feed(i.id(), CallFilter.NONE, Optional.empty(), Optional.of(deep), window, 50);
        assertEquals(50, page.size());
        assertEquals("Q190400", page.get(0).call().id());
    }

    private static String explain(PgCallStore.PageQuery q) throws Exception {
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + q.sql())) {
            for (int k = 0; k < q.params().size(); k++) {
                ps.setObject(k + 1, q.params().get(k));
            }
            StringBuilder b = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    b.append(rs.getString(1)).append('\n');
                }
            }
            return b.toString();
        }
    }
}
