package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.Hold;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.ledger.StatementLine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Model-based property: random sequences of top-ups, charges (with reused keys), holds, posts,
 * releases and refunds run against the PostgreSQL ledger and against a few lines of in-memory model;
 * after every step the balance equals the model's, equals the sum of the entries, and never goes
 * below zero; a replayed key never charges twice.
 */
class LedgerProperties {
    private final Ledger ledger = TestDatabase.store().ledger();

    sealed interface Op {}

    record TopUp(int key, long amount) implements Op {}

    record Charge(int key, long amount) implements Op {}

    record PlaceHold(int key, long amount) implements Op {}

    record Post(int key, long amount) implements Op {}

    record Release(int key) implements Op {}

    record Refund(int key) implements Op {}

    /** What the ledger should hold: debits and credits by key, holds by key. */
    static final class Model {
        long posted;
        long held;
        final Map<Integer, Long> debits = new HashMap<>();
        final Map<Integer, Long> credits = new HashMap<>();
        final Map<Integer, long[]> holds = new HashMap<>(); // {amount, state 0 held 1 posted 2 released}
        final Map<Integer, Boolean> refunded = new HashMap<>();
    }

    @Property(tries = 100)
    void balanceEqualsTheSumOfEntriesAfterEveryStep(@ForAll("opLists") List<Op> ops) {
        AccountId a = TestDatabase.fundedAccount(0, 0).id();
        Model m = new Model();
        for (Op op : ops) {
            apply(a, m, op);
            Balance b = ledger.balance(a, CreditKind.CREDITS);
            assertEquals(m.posted, b.posted(), () -> "after " + op);
            assertEquals(m.held, b.held(), () -> "after " + op);
            assertTrue(b.available() >= 0);
            List<StatementLine> lines = ledger.statement(a, CreditKind.CREDITS, 10_000);
            long sum = lines.stream().mapToLong(StatementLine::amount).sum();
            assertEquals(b.posted(), sum, () -> "sum of entries after " + op);
            long prefix = 0;
            for (StatementLine line : lines) {
                prefix += line.amount();
                assertEquals(prefix, line.runningBalance(), () -> "running balance is the prefix sum, after " + op);
                assertTrue(line.runningBalance() >= 0);
            }
        }
    }

    private void apply(AccountId a, Model m, Op op) {
        switch (op) {
            case TopUp t -> {
                IdempotencyKey key = IdempotencyKey.of("topup:" + t.key());
                Long used = m.credits.get(t.key());
                if (used != null && used != t.amount()) {
                    assertThrows(
                            IllegalStateException.class,
                            () -> ledger.topUp(a, CreditKind.CREDITS, t.amount(), key, "t"));
                    return;
                }
                boolean replay = ledger.topUp(a, CreditKind.CREDITS, t.amount(), key, "t")
                        .replay();
                assertEquals(used != null, replay);
                if (!replay) {
                    m.credits.put(t.key(), t.amount());
                    m.posted += t.amount();
                }
            }
            case Charge c -> {
                ChargeRequest req = new ChargeRequest(
                        a, CreditKind.CREDITS, c.amount(), IdempotencyKey.of("charge:" + c.key()), "c");
                Long used = m.debits.get(c.key());
                if (used != null && used != c.amount()) {
                    assertThrows(IllegalStateException.class, () -> ledger.charge(req));
                } else if (used != null) {
                    assertEquals(new ChargeResult(0, m.posted, true), ledger.charge(req));
                } else if (m.posted - m.held < c.amount()) {
                    assertThrows(InsufficientCreditsException.class, () -> ledger.charge(req));
                } else {
                    m.posted -= c.amount();
                    m.debits.put(c.key(), c.amount());
                    assertEquals(new ChargeResult(c.amount(), m.posted, false), ledger.charge(req));
                }
            }
            case PlaceHold h -> {
                HoldRequest req =
                        new HoldRequest(a, CreditKind.CREDITS, h.amount(), IdempotencyKey.of("hold:" + h.key()), "h");
                long[] existing = m.holds.get(h.key());
                if (existing != null && existing[0] != h.amount()) {
                    assertThrows(IllegalStateException.class, () -> ledger.hold(req));
                } else if (existing != null) {
                    assertEquals(existing[0], ledger.hold(req).amount());
                } else if (m.posted - m.held < h.amount()) {
                    assertThrows(InsufficientCreditsException.class, () -> ledger.hold(req));
                } else {
                    assertEquals(Hold.State.HELD, ledger.hold(req).state());
                    m.holds.put(h.key(), new long[] {h.amount(), 0});
                    m.held += h.amount();
                }
            }
            case Post p -> {
                IdempotencyKey key = IdempotencyKey.of("hold:" + p.key());
                long[] hold = m.holds.get(p.key());
                if (hold == null) {
                    assertThrows(
                            dev.cadastro.core.error.NotFoundException.class, () -> ledger.post(a, key, p.amount()));
                } else if (hold[1] == 1) {
                    assertTrue(ledger.post(a, key, p.amount()).replay());
                } else if (hold[1] == 2 || p.amount() > hold[0]) {
                    assertThrows(IllegalStateException.class, () -> ledger.post(a, key, p.amount()));
                } else {
                    assertEquals(p.amount(), ledger.post(a, key, p.amount()).charged());
                    m.held -= hold[0];
                    m.posted -= p.amount();
                    hold[1] = 1;
                    if (p.amount() > 0) {
                        m.debits.put(1_000_000 + p.key(), p.amount());
                    }
                }
            }
            case Release r -> {
                IdempotencyKey key = IdempotencyKey.of("hold:" + r.key());
                long[] hold = m.holds.get(r.key());
                if (hold == null) {
                    assertThrows(dev.cadastro.core.error.NotFoundException.class, () -> ledger.release(a, key));
                } else if (hold[1] == 1) {
                    assertThrows(IllegalStateException.class, () -> ledger.release(a, key));
                } else {
                    assertEquals(Hold.State.RELEASED, ledger.release(a, key).state());
                    if (hold[1] == 0) {
                        m.held -= hold[0];
                        hold[1] = 2;
                    }
                }
            }
            case Refund r -> {
                IdempotencyKey key = IdempotencyKey.of("charge:" + r.key());
                Long debit = m.debits.get(r.key());
                if (debit == null) {
                    assertThrows(dev.cadastro.core.error.NotFoundException.class, () -> ledger.refund(a, key, "r"));
                } else if (m.refunded.containsKey(r.key())) {
                    assertTrue(ledger.refund(a, key, "r").replay());
                } else {
                    assertEquals(debit, ledger.refund(a, key, "r").credited());
                    m.refunded.put(r.key(), true);
                    m.posted += debit;
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Op>> opLists() {
        return op().list().ofMinSize(1).ofMaxSize(40);
    }

    private static Arbitrary<Op> op() {
        Arbitrary<Integer> keys = Arbitraries.integers().between(0, 5);
        Arbitrary<Long> amounts = Arbitraries.longs().between(1, 60);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Combinators.combine(keys, amounts).as(TopUp::new)),
                net.jqwik.api.Tuple.of(6, Combinators.combine(keys, amounts).as(Charge::new)),
                net.jqwik.api.Tuple.of(3, Combinators.combine(keys, amounts).as(PlaceHold::new)),
                net.jqwik.api.Tuple.of(
                        3,
                        Combinators.combine(keys, Arbitraries.longs().between(0, 60))
                                .as(Post::new)),
                net.jqwik.api.Tuple.of(2, keys.map(Release::new)),
                net.jqwik.api.Tuple.of(2, keys.map(Refund::new)));
    }
}
