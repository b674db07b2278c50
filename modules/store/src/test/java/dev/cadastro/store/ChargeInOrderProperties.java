package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.ledger.Ledger;
import dev.cadastro.core.ledger.StatementLine;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Model-based property of {@code Ledger.chargeInOrder} on PostgreSQL (the batch lookup's charges, one
 * statement): random rounds of single charges and batches over a small pool of keys, on a balance with a
 * random hold, each answered as a few lines of model say: a key charged before (by a single charge or an
 * earlier batch) is a free replay whatever the balance; the new items are charged in order while the
 * available balance covers them, and from the first it does not cover none is; a zero amount charges
 * nothing. After every round the balance, and each new entry with its running balance in the batch's
 * order, are the model's.
 */
class ChargeInOrderProperties {
    private static final int POOL = 25;

    private final Ledger ledger = TestDatabase.store().ledger();

    /** An item of a batch or a single charge: a key of the pool and its amount (one amount per key). */
    record Item(int key, long amount) {}

    /** One round: single charges first, then one batch of distinct keys. */
    record Round(List<Item> singles, List<Item> batch) {}

    /** What the model says of an item of a batch. */
    enum Outcome {
        FREE,
        REPLAY,
        CHARGED,
        NOT_CHARGED
    }

    @Property(tries = 60)
    void everyBatchChargesAsTheModelSays(
            @ForAll("funds") long funds,
            @ForAll("funds") long held,
            @ForAll("amounts") List<Long> amounts,
            @ForAll("rounds") List<Round> keys) {
        List<Round> rounds = keys.stream()
                .map(r -> new Round(priced(r.singles(), amounts), priced(r.batch(), amounts)))
                .toList();
        AccountId a = TestDatabase.fundedAccount(funds, 0).id();
        String prefix = "p" + a.value() + ":";
        long posted = funds;
        long hold = Math.min(held, funds);
        if (hold > 0) {
            ledger.hold(new HoldRequest(a, CreditKind.CREDITS, hold, IdempotencyKey.of(prefix + "hold"), "hold"));
        }
        Set<Integer> used = new HashSet<>();
        for (Round round : rounds) {
            for (Item s : round.singles()) {
                try {
                    ChargeResult r = ledger.charge(charge(a, prefix, s));
                    assertEquals(used.contains(s.key()) || s.amount() == 0 ? 0 : s.amount(), r.charged());
                } catch (InsufficientCreditsException e) {
                    assertEquals(false, used.contains(s.key()), "a replay is never refused");
                    continue;
                }
                if (!used.contains(s.key()) && s.amount() > 0) {
                    posted -= s.amount();
                    used.add(s.key());
                }
            }
            List<ChargeRequest> requests = new ArrayList<>();
            for (Item i : round.batch()) {
                requests.add(charge(a, prefix, i));
            }
            List<Optional<ChargeResult>> got = ledger.chargeInOrder(requests);

            // The model: walk the items in order.
            long available = posted - hold;
            boolean stopped = false;
            List<String> newKeys = new ArrayList<>();
            List<Long> running = new ArrayList<>();
            Outcome[] outcome = new Outcome[requests.size()];
            long[] after = new long[requests.size()];
            for (int k = 0; k < requests.size(); k++) {
                Item i = round.batch().get(k);
                if (i.amount() == 0) {
                    outcome[k] = Outcome.FREE;
                } else if (used.contains(i.key())) {
                    outcome[k] = Outcome.REPLAY;
                } else if (!stopped && available >= i.amount()) {
                    available -= i.amount();
                    posted -= i.amount();
                    used.add(i.key());
                    after[k] = posted;
                    outcome[k] = Outcome.CHARGED;
                    newKeys.add(prefix + i.key());
                    running.add(posted);
                } else {
                    stopped = true;
                    outcome[k] = Outcome.NOT_CHARGED;
                }
            }
            for (int k = 0; k < requests.size(); k++) {
                Item i = round.batch().get(k);
                Optional<ChargeResult> want = switch (outcome[k]) {
                    case FREE -> Optional.of(new ChargeResult(0, posted, false));
                    case REPLAY -> Optional.of(new ChargeResult(0, posted, true));
                    case CHARGED -> Optional.of(new ChargeResult(i.amount(), after[k], false));
                    case NOT_CHARGED -> Optional.empty();
                };
                int at = k;
                assertEquals(want, got.get(k), () -> "item " + at + " of " + round.batch() + ", used " + used);
            }
            assertEquals(posted, ledger.balance(a, CreditKind.CREDITS).posted());
            assertEquals(hold, ledger.balance(a, CreditKind.CREDITS).held());
            if (!newKeys.isEmpty()) {
                // The statement's latest lines, oldest first.
                List<StatementLine> inOrder = ledger.statement(a, CreditKind.CREDITS, newKeys.size());
                assertEquals(
                        newKeys,
                        inOrder.stream().map(l -> l.key().value()).toList(),
                        "the batch's entries are its newest, in its order");
                assertEquals(
                        running,
                        inOrder.stream().map(StatementLine::runningBalance).toList());
            }
        }
    }

    private static ChargeRequest charge(AccountId a, String prefix, Item i) {
        return new ChargeRequest(
                a, CreditKind.CREDITS, i.amount(), IdempotencyKey.of(prefix + i.key()), "teste " + i.key());
    }

    @Provide
    Arbitrary<Long> funds() {
        return Arbitraries.longs().between(0, 30);
    }

    /** The items with each key's amount. */
    private static List<Item> priced(List<Item> items, List<Long> amounts) {
        return items.stream().map(i -> new Item(i.key(), amounts.get(i.key()))).toList();
    }

    /** The amount of each key of the pool, mostly 1 as a lookup's, some 0. */
    @Provide
    Arbitrary<List<Long>> amounts() {
        return Arbitraries.frequency(Tuple.of(1, 0L), Tuple.of(6, 1L), Tuple.of(2, 2L), Tuple.of(1, 5L))
                .list()
                .ofSize(POOL);
    }

    /** Rounds of keys of the pool (amounts set by {@link #amounts}). */
    @Provide
    Arbitrary<List<Round>> rounds() {
        Arbitrary<Item> item = Arbitraries.integers().between(0, POOL - 1).map(k -> new Item(k, 0));
        Arbitrary<List<Item>> batch = item.list().ofMinSize(1).ofMaxSize(20).uniqueElements(Item::key);
        Arbitrary<List<Item>> singles = item.list().ofMaxSize(4);
        return Combinators.combine(singles, batch)
                .as(Round::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }
}
