package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.idempotency.ClientKey;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.idempotency.RequestFingerprint;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.ChargeRequest;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.Ledger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterTry;

/**
 * Model-based property of client idempotency keys on PostgreSQL with the real ledger: random sequences
 * of calls (a few keys, a few different requests, operations that succeed, fail before charging, or
 * fail after their charge committed) and clock moves across the 24-hour retention, against a map
 * from key to (request, first use, answer, charged). After every step the outcome is the model's
 * (ran now, replayed the exact first answer, or refused as another request) and the balance is the
 * model's: a request is charged at most once per key, however its attempts ended.
 */
class IdempotencyProperties {
    private final OpenedCalls opened = new OpenedCalls();

    @AfterTry
    void closeCalls() {
        opened.close();
    }

    private static final Instant START = Instant.parse("2026-06-01T12:00:00Z");
    private static final Duration RETENTION = Duration.ofHours(24);
    private static final long FUNDS = 1_000_000;

    private final Ledger ledger = TestDatabase.store().ledger();

    enum Ending {
        SUCCEEDS,
        FAILS_BEFORE_CHARGING,
        FAILS_AFTER_CHARGING
    }

    sealed interface Op {}

    record Call(int key, int request, Ending ending) implements Op {}

    record Advance(int hours) implements Op {}

    /** What the store should remember of one key. */
    static final class Entry {
        final int request;
        final Instant firstUsed;
        byte[] answer;
        boolean charged;

        Entry(int request, Instant firstUsed) {
            this.request = request;
            this.firstUsed = firstUsed;
        }
    }

    private static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Boom(String message) {
            super(message);
        }
    }

    @Property(tries = 60)
    void aRequestRunsAndIsChargedAtMostOncePerKey(@ForAll("opLists") List<Op> ops) {
        AccountId account = TestDatabase.fundedAccount(FUNDS, 0).id();
        ManualClock clock = new ManualClock(START);
        IdempotentCalls calls = opened.track(
                new IdempotentCalls(TestDatabase.store().idempotency(), clock, RETENTION, Duration.ofSeconds(60)));
        Map<Integer, Entry> model = new HashMap<>();
        long charged = 0;
        int sequence = 0;
        for (Op op : ops) {
            if (op instanceof Advance a) {
                clock.advance(Duration.ofHours(a.hours()));
                continue;
            }
            Call call = (Call) op;
            int n = ++sequence;
            Instant now = clock.instant();
            Entry entry = model.get(call.key());
            if (entry != null && !entry.firstUsed.isAfter(now.minus(RETENTION))) {
                entry = null; // forgotten: the key is new again
            }
            ClientKey key = new ClientKey("k-" + call.key());
            RequestFingerprint fingerprint = fingerprint(call.request());
            if (entry != null && entry.request != call.request()) {
                InvalidParameterException e = assertThrows(
                        InvalidParameterException.class,
                        () -> calls.run(
                                account,
                                key,
                                fingerprint,
                                "Idempotency-Key",
                                IdempotencyProperties::mustNotRun,
                                b -> b),
                        () -> "another request with " + op);
                assertEquals("Idempotency-Key", e.violation().field());
                assertEquals("reused", e.violation().rule());
            } else if (entry != null && entry.answer != null) {
                IdempotentCalls.Outcome<byte[]> outcome = calls.run(
                        account, key, fingerprint, "Idempotency-Key", IdempotencyProperties::mustNotRun, b -> b);
                IdempotentCalls.Outcome.Replayed<byte[]> replayed =
                        assertInstanceOf(IdempotentCalls.Outcome.Replayed.class, outcome, () -> "replay " + op);
                assertArrayEquals(entry.answer, replayed.answer(), () -> "the first answer, " + op);
            } else {
                if (entry == null) {
                    entry = new Entry(call.request(), now);
                    model.put(call.key(), entry);
                }
                Entry e = entry;
                long amount = call.request() + 1L;
                byte[] answer = ("answer " + n).getBytes(StandardCharsets.UTF_8);
                try {
                    IdempotentCalls.Outcome<byte[]> outcome = calls.run(
                            account,
                            key,
                            fingerprint,
                            "Idempotency-Key",
                            reference -> {
                                if (call.ending() == Ending.FAILS_BEFORE_CHARGING) {
                                    throw new Boom("before");
                                }
                                ledger.charge(new ChargeRequest(
                                        account,
                                        CreditKind.CREDITS,
                                        amount,
                                        IdempotencyKey.of("prop:" + account + ":" + reference),
                                        "property"));
                                if (call.ending() == Ending.FAILS_AFTER_CHARGING) {
                                    throw new Boom("after");
                                }
                                return answer;
                            },
                            b -> b);
                    assertEquals(Ending.SUCCEEDS, call.ending(), () -> "succeeded: " + op);
                    IdempotentCalls.Outcome.Fresh<byte[]> fresh =
                            assertInstanceOf(IdempotentCalls.Outcome.Fresh.class, outcome, () -> "ran " + op);
                    assertArrayEquals(answer, fresh.value());
                    e.answer = answer;
                } catch (Boom boom) {
                    assertEquals(
                            call.ending(),
                            boom.getMessage().equals("before")
                                    ? Ending.FAILS_BEFORE_CHARGING
                                    : Ending.FAILS_AFTER_CHARGING);
                }
                if (call.ending() != Ending.FAILS_BEFORE_CHARGING && !e.charged) {
                    e.charged = true;
                    charged += amount;
                }
            }
            assertEquals(
                    FUNDS - charged,
                    ledger.balance(account, CreditKind.CREDITS).posted(),
                    () -> "balance after " + op + " in " + ops);
        }
    }

    private static byte[] mustNotRun(String reference) {
        return fail("the operation ran under " + reference + " where the model replays or refuses");
    }

    private static RequestFingerprint fingerprint(int request) {
        return RequestFingerprint.of("GET /test", Map.of("request", List.of(Integer.toString(request))));
    }

    @Provide
    Arbitrary<List<Op>> opLists() {
        Arbitrary<Op> call = Combinators.combine(
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(6, Arbitraries.just(Ending.SUCCEEDS)),
                                net.jqwik.api.Tuple.of(2, Arbitraries.just(Ending.FAILS_BEFORE_CHARGING)),
                                net.jqwik.api.Tuple.of(2, Arbitraries.just(Ending.FAILS_AFTER_CHARGING))))
                .as(Call::new);
        Arbitrary<Op> advance = Arbitraries.of(1, 12, 23, 24, 25).map(Advance::new);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(9, call), net.jqwik.api.Tuple.of(1, advance))
                .list()
                .ofMinSize(1)
                .ofMaxSize(30);
    }
}
