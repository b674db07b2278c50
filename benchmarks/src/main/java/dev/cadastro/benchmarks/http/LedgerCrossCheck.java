package dev.cadastro.benchmarks.http;

import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.Ledger;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A load run's ledger cross-check: every account's posted balance must be what it was given minus what
 * the answers it received said was charged.
 *
 * @param charged the credits charged, over all accounts, as the answers said
 * @param mismatches how many accounts' balances differ
 */
record LedgerCrossCheck(long charged, long mismatches) {
    /**
     * Checks each client's account: its posted balance of {@code kind} must be {@code initial} minus its
     * count in {@code charged}; prints a MISMATCH line for each that differs.
     */
    static LedgerCrossCheck of(
            Ledger ledger,
            CreditKind kind,
            long initial,
            List<LoadClient> clients,
            Map<LoadClient, LongAdder> charged,
            PrintStream out) {
        long total = 0;
        long mismatches = 0;
        for (LoadClient c : clients) {
            long expected = initial - charged.get(c).sum();
            long actual = ledger.balance(c.account().id(), kind).posted();
            total += charged.get(c).sum();
            if (expected != actual) {
                mismatches++;
                out.printf(
                        "ledger MISMATCH account %s: expected %d, ledger %d%n",
                        c.account().id(), expected, actual);
            }
        }
        return new LedgerCrossCheck(total, mismatches);
    }

    /**
     * A cross-check that differs fails the run (exit status 1): "ledger cross-check: N accounts'
     * {@code whatDiffers} (the MISMATCH lines above)".
     */
    void failOnMismatch(String whatDiffers) {
        if (mismatches > 0) {
            throw new IllegalStateException(
                    "ledger cross-check: " + mismatches + " accounts' " + whatDiffers + " (the MISMATCH lines above)");
        }
    }
}
