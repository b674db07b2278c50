package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.ledger.StatementLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@code Ledger.chargeInOrder} on PostgreSQL (the batch lookup's charges): replays free whatever the
 * balance, the new charges a prefix the available balance covers, the entries in order with their
 * running balances, and concurrent calls with the same keys charging each once.
 */
class ChargeInOrderTest {
    private final Ledger ledger = TestDatabase.store().ledger();

    private static ChargeRequest charge(AccountId account, long amount, String key) {
        return new ChargeRequest(account, CreditKind.CREDITS, amount, IdempotencyKey.of(key), "teste " + key);
    }

    private static List<ChargeRequest> charges(AccountId a, String... keys) {
        List<ChargeRequest> out = new ArrayList<>();
        for (String k : keys) {
            out.add(charge(a, 1, k));
        }
        return out;
    }

    @Test
    void chargesThePrefixTheAvailableBalanceCoversAndEveryReplay() {
        AccountId a = TestDatabase.fundedAccount(3, 0).id();
        ledger.charge(charge(a, 1, "k2"));
        // Available 2 of the 2 posted, minus a hold of 1: one new charge fits.
        ledger.hold(new HoldRequest(a, CreditKind.CREDITS, 1, IdempotencyKey.of("h"), "hold"));
        List<Optional<ChargeResult>> r = ledger.chargeInOrder(charges(a, "k1", "k2", "k3", "k4"));
        assertEquals(Optional.of(new ChargeResult(1, 1, false)), r.get(0));
        assertEquals(Optional.of(new ChargeResult(0, 1, true)), r.get(1), "paid before: free");
        assertEquals(Optional.empty(), r.get(2), "the first the balance cannot cover");
        assertEquals(Optional.empty(), r.get(3));
        assertEquals(1, ledger.balance(a, CreditKind.CREDITS).posted());

        // Nothing left: a replay still answers, new keys do not.
        List<Optional<ChargeResult>> later = ledger.chargeInOrder(charges(a, "k5", "k1"));
        assertEquals(Optional.empty(), later.get(0));
        assertEquals(Optional.of(new ChargeResult(0, 1, true)), later.get(1));
    }

    @Test
    void writesOneEntryPerChargeInOrderWithItsRunningBalance() {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        List<ChargeRequest> batch = new ArrayList<>(charges(a, "a", "b"));
        batch.add(charge(a, 0, "free"));
        batch.add(charge(a, 3, "c"));
        List<Optional<ChargeResult>> r = ledger.chargeInOrder(batch);
        assertEquals(Optional.of(new ChargeResult(1, 9, false)), r.get(0));
        assertEquals(Optional.of(new ChargeResult(1, 8, false)), r.get(1));
        assertEquals(Optional.of(new ChargeResult(0, 5, false)), r.get(2), "a zero amount writes nothing");
        assertEquals(Optional.of(new ChargeResult(3, 5, false)), r.get(3));
        List<StatementLine> lines = ledger.statement(a, CreditKind.CREDITS, 10);
        assertEquals(4, lines.size(), "the top-up and three charges");
        assertEquals(
                List.of("a", "b", "c"),
                lines.subList(1, 4).stream().map(l -> l.key().value()).toList());
        assertEquals(
                List.of(9L, 8L, 5L),
                lines.subList(1, 4).stream().map(StatementLine::runningBalance).toList());
        assertEquals(5, ledger.balance(a, CreditKind.CREDITS).posted());
    }

    @Test
    void concurrentCallsWithTheSameKeysChargeEachOnce() throws Exception {
        AccountId a = TestDatabase.fundedAccount(1_000, 0).id();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            keys.add("same-" + i);
        }
        int parallel = 6;
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Long>> calls = new ArrayList<>();
            for (int t = 0; t < parallel; t++) {
                calls.add(pool.submit((Callable<Long>) () -> {
                    go.await();
                    return ledger.chargeInOrder(charges(a, keys.toArray(String[]::new))).stream()
                            .mapToLong(o -> o.orElseThrow().charged())
                            .sum();
                }));
            }
            go.countDown();
            long charged = 0;
            for (Future<Long> c : calls) {
                charged += c.get();
            }
            assertEquals(200, charged);
            assertEquals(800, ledger.balance(a, CreditKind.CREDITS).posted());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void refusesMixedAccountsOrRepeatedKeysAndAnUnknownAccount() {
        AccountId a = TestDatabase.fundedAccount(10, 0).id();
        AccountId b = TestDatabase.fundedAccount(10, 0).id();
        assertThrows(
                IllegalArgumentException.class,
                () -> ledger.chargeInOrder(List.of(charge(a, 1, "x"), charge(b, 1, "y"))));
        assertThrows(IllegalArgumentException.class, () -> ledger.chargeInOrder(charges(a, "x", "x")));
        assertEquals(10, ledger.balance(a, CreditKind.CREDITS).posted());
        assertThrows(NotFoundException.class, () -> ledger.chargeInOrder(charges(new AccountId(987_654_321), "z")));
        assertTrue(ledger.chargeInOrder(List.of()).isEmpty());
    }
}
