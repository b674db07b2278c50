package dev.cadastro.benchmarks.http;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.Ledger;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A load run's ledger cross-check: every account's posted balance must be what it was given minus what
 * the answers it received said was charged.
 *
 * @param charged the credits charged, over all accounts, as the answers said
 * @param mismatches how many accounts' balances differ
 */
record LedgerCrossCheck(long charged, long mismatches) {
    /**
     * Checks each client's account: its posted balance of {@code kind} must be {@code initial} minus
     * {@code charged}; prints a MISMATCH line for each that differs.
     */
    static <C> LedgerCrossCheck of(
            Ledger ledger,
            CreditKind kind,
            long initial,
            List<C> clients,
            Function<C, AccountId> account,
            ToLongFunction<C> charged,
            PrintStream out) {
        long total = 0;
        long mismatches = 0;
        for (C c : clients) {
            long expected = initial - charged.applyAsLong(c);
            long actual = ledger.balance(account.apply(c), kind).posted();
            total += charged.applyAsLong(c);
            if (expected != actual) {
                mismatches++;
                out.printf("ledger MISMATCH account %s: expected %d, ledger %d%n", account.apply(c), expected, actual);
            }
        }
        return new LedgerCrossCheck(total, mismatches);
    }
}
