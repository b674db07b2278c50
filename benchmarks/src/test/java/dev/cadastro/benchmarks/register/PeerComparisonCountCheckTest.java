package dev.cadastro.benchmarks.register;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.SearchResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cross-check of {@link PeerComparison}, without a peer database: a count that differs stops the
 * run with an exception naming the query (thrown out of {@code main}, so the exit status is 1); counts
 * that agree, or an estimate whose interval holds the exact count, pass.
 */
class PeerComparisonCountCheckTest {
    private static PeerComparison.Row row(String name, CountResult ours, long pageTotal, long... peerCounts) {
        Map<String, PeerComparison.PeerRun> peers = new LinkedHashMap<>();
        String[] names = {"duckdb", "postgres"};
        for (int i = 0; i < peerCounts.length; i++) {
            peers.put(names[i], new PeerComparison.PeerRun(peerCounts[i], new long[] {1}, new long[] {1}, List.of()));
        }
        SearchResult page = new SearchResult(List.of(), 1, 50, 0, pageTotal, ours.aproximado());
        return new PeerComparison.Row(name, ours, page, new long[] {1}, new long[] {1}, List.of(), peers);
    }

    @Test
    void anExactCountThatDiffersFromThePeersStopsTheRunNamingTheQuery() {
        // What a register loaded without the debt files answered while the peers had them.
        PeerComparison.CountMismatch e = assertThrows(
                PeerComparison.CountMismatch.class,
                () -> PeerComparison.checkCounts(row("Q9 SP+02+debt", CountResult.exact(0), 0, 39_185, 39_185)));
        assertTrue(e.getMessage().startsWith("Q9 SP+02+debt: "), e.getMessage());
        assertTrue(e.getMessage().contains("39,185"), e.getMessage());
    }

    @Test
    void peersThatDisagreeStopTheRun() {
        assertThrows(
                PeerComparison.CountMismatch.class,
                () -> PeerComparison.checkCounts(row("Q1", CountResult.exact(10), 10, 10, 11)));
    }

    @Test
    void aPageTotalThatDiffersStopsTheRun() {
        assertThrows(
                PeerComparison.CountMismatch.class,
                () -> PeerComparison.checkCounts(row("Q2", CountResult.exact(10), 9, 10, 10)));
    }

    @Test
    void anEstimateMustHoldTheExactCountInItsInterval() {
        assertThrows(
                PeerComparison.CountMismatch.class,
                () -> PeerComparison.checkCounts(
                        row("Q3", CountResult.estimate(100_000, 99_000, 101_000), 100_000, 98_000, 98_000)));
        assertDoesNotThrow(() -> PeerComparison.checkCounts(
                row("Q3", CountResult.estimate(100_000, 99_000, 101_000), 100_000, 100_500, 100_500)));
    }

    @Test
    void agreeingCountsPass() {
        assertDoesNotThrow(() -> PeerComparison.checkCounts(row("Q4", CountResult.exact(42), 42, 42, 42)));
    }
}
