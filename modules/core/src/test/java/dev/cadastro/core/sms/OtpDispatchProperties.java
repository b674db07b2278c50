package dev.cadastro.core.sms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * The dispatch state machine against a model written from the contract alone (5 attempts, the
 * 5th wrong one blocks, expiry at the term, single use, 1 SMS credit charged on acceptance, returned
 * once on a failed-delivery receipt, nothing on an outage or an abandoned send): random chains of
 * sends, provider answers, right, wrong and late checks, clock moves (some landing exactly on an
 * expiry) and receipts (some repeated), with every dispatch compared to its model after every step.
 */
class OtpDispatchProperties {
    private static final AccountId ACCOUNT = new AccountId(3);
    private static final Instant START = Instant.parse("2026-11-23T12:00:00Z");

    @Property(tries = 300)
    void dispatchesFollowTheModel(@ForAll("chains") ActionChain<World> chain) {
        chain.withInvariant("every dispatch matches its model", World::compare).run();
    }

    @net.jqwik.api.Provide
    Arbitrary<ActionChain<World>> chains() {
        return ActionChain.startWith(World::new)
                .withAction(3, send())
                .withAction(3, answer())
                .withAction(4, check(true))
                .withAction(6, check(false))
                .withAction(3, advance())
                .withAction(2, advanceToExpiry())
                .withAction(2, receipt())
                .withMaxTransformations(60);
    }

    private static Action.Independent<World> send() {
        return new Action.Independent<>() {
            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return Arbitraries.integers()
                        .between(60, 3600)
                        .map(s -> Transformer.mutate("send valid for " + s + " s", w -> w.send(s)));
            }
        };
    }

    private static Action.Independent<World> answer() {
        return new Action.Independent<>() {
            @Override
            public boolean precondition(World w) {
                return !w.models.isEmpty();
            }

            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return Arbitraries.integers()
                        .between(0, 1000)
                        .flatMap(i -> Arbitraries.of("accepted", "unavailable", "abandoned")
                                .map(a -> Transformer.mutate(a + " #" + i, w -> w.answer(i, a))));
            }
        };
    }

    private static Action.Independent<World> check(boolean right) {
        return new Action.Independent<>() {
            @Override
            public boolean precondition(World w) {
                return !w.models.isEmpty();
            }

            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return Arbitraries.integers()
                        .between(0, 1000)
                        .map(i -> Transformer.mutate(
                                (right ? "right" : "wrong") + " check #" + i, w -> w.check(i, right)));
            }
        };
    }

    private static Action.Independent<World> advance() {
        return new Action.Independent<>() {
            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return Arbitraries.integers()
                        .between(1, 4000)
                        .map(s -> Transformer.mutate("advance " + s + " s", w -> w.now = w.now.plusSeconds(s)));
            }
        };
    }

    private static Action.Independent<World> advanceToExpiry() {
        return new Action.Independent<>() {
            @Override
            public boolean precondition(World w) {
                return !w.models.isEmpty();
            }

            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return Arbitraries.integers()
                        .between(0, 1000)
                        .flatMap(i -> Arbitraries.of(-1, 0)
                                .map(ns -> Transformer.mutate(
                                        "to expiry of #" + i + (ns < 0 ? " minus 1 ns" : ""), w -> w.toExpiry(i, ns))));
            }
        };
    }

    private static Action.Independent<World> receipt() {
        return new Action.Independent<>() {
            @Override
            public boolean precondition(World w) {
                return !w.models.isEmpty();
            }

            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return Arbitraries.integers()
                        .between(0, 1000)
                        .map(i -> Transformer.mutate("failed-delivery receipt #" + i, w -> w.receipt(i)));
            }
        };
    }

    /** The model of one dispatch, in the contract's words. */
    static final class Model {
        Instant expiresAt;
        String provider = "sending"; // sending, accepted, unavailable, abandoned
        boolean failureReported;
        int checks;
        boolean used;
        long charged;
        long refunded;

        String status(Instant now) {
            if (used) {
                return "verificado";
            }
            if (checks >= 5) {
                return "bloqueado";
            }
            return now.compareTo(expiresAt) < 0 ? "pendente" : "expirado";
        }

        boolean checkable() {
            return provider.equals("accepted") || provider.equals("abandoned");
        }
    }

    static final class World {
        Instant now = START;
        final List<Model> models = new ArrayList<>();
        final List<OtpDispatch> dispatches = new ArrayList<>();

        void send(int seconds) {
            Model m = new Model();
            m.expiresAt = now.plusSeconds(seconds);
            models.add(m);
            dispatches.add(OtpDispatch.sending(
                    "d" + dispatches.size(), ACCOUNT, "(11) 9****-0000", 6, "k1", now, Duration.ofSeconds(seconds)));
        }

        void answer(int pick, String answer) {
            int i = pick % models.size();
            Model m = models.get(i);
            OtpDispatch d = dispatches.get(i);
            if (!m.provider.equals("sending")) {
                assertThrows(
                        IllegalStateException.class, () -> move(d, answer), "a settled dispatch cannot be " + answer);
                return;
            }
            dispatches.set(i, move(d, answer));
            m.provider = answer;
            if (answer.equals("accepted")) {
                m.charged = 1;
                m.refunded = m.failureReported ? 1 : 0;
            }
        }

        private static OtpDispatch move(OtpDispatch d, String answer) {
            return switch (answer) {
                case "accepted" -> d.accepted();
                case "unavailable" -> d.unavailable();
                default -> d.abandoned();
            };
        }

        void check(int pick, boolean right) {
            int i = pick % models.size();
            Model m = models.get(i);
            OtpDispatch d = dispatches.get(i);
            if (!m.checkable()) {
                assertThrows(IllegalStateException.class, () -> d.check(right, now));
                return;
            }
            boolean pending = m.status(now).equals("pendente");
            OtpDispatch.Checked c = d.check(right, now);
            assertEquals(pending && right, c.valid(), "valid");
            if (pending) {
                m.checks++;
                m.used = right;
            }
            dispatches.set(i, c.after());
        }

        void toExpiry(int pick, int nanos) {
            Instant target = models.get(pick % models.size()).expiresAt.plusNanos(nanos);
            if (target.isAfter(now)) {
                now = target;
            }
        }

        void receipt(int pick) {
            int i = pick % models.size();
            Model m = models.get(i);
            OtpDispatch.Receipt r = dispatches.get(i).deliveryFailed();
            boolean refundNow = m.provider.equals("accepted") && m.refunded == 0;
            assertEquals(refundNow, r.refund(), "refund now");
            if (refundNow) {
                m.refunded = 1;
            }
            if (m.provider.equals("sending")) {
                m.failureReported = true;
            }
            dispatches.set(i, r.after());
        }

        void compare() {
            for (int i = 0; i < models.size(); i++) {
                Model m = models.get(i);
                OtpDispatch d = dispatches.get(i);
                String status = m.checkable() ? m.status(now) : (m.used ? "verificado" : "pendente");
                if (m.checkable()) {
                    assertEquals(status, d.status(now).wire(), "status of #" + i);
                    int left = status.equals("pendente") ? 5 - m.checks : 0;
                    assertEquals(left, d.remainingAttempts(now), "attempts left of #" + i);
                }
                assertEquals(m.charged - m.refunded, d.delivery().netCharge(), "net SMS credits of #" + i);
                assertEquals(m.checks, d.attempts(), "attempts of #" + i);
                assertTrue(d.attempts() <= OtpDispatch.MAX_ATTEMPTS);
                assertEquals(
                        m.provider.equals("unavailable") ? false : true,
                        d.delivery().countsAgainstThrottle(),
                        "throttle counts #" + i);
            }
        }

        @Override
        public String toString() {
            return "World[now=" + now + ", " + dispatches.size() + " dispatches]";
        }
    }
}
