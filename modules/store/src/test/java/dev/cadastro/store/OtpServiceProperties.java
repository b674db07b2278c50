package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.sms.DeliveryReceipt;
import dev.cadastro.core.sms.OtpCheck;
import dev.cadastro.core.sms.OtpLimitException;
import dev.cadastro.core.sms.OtpRequest;
import dev.cadastro.core.sms.OtpSent;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.sms.SmsGateway;
import dev.cadastro.core.sms.SmsMessage;
import dev.cadastro.core.sms.SmsUnavailableException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * The SMS code use case on the real store and ledger against a model written from the contract:
 * random chains of sends (three phones, some while the provider is down, some with the SMS balance
 * empty), right and wrong checks, clock moves (some to the exact second of an expiry) and failed-
 * delivery receipts (some repeated). After every step the SMS balance equals the model's and nothing
 * stays held; every answer (status, attempts left, 429 with its wait, 402, 502, 404) is the model's.
 * The model's limits read the rule literally (no counted send in the last 30 s, fewer than 5 in the
 * last hour) and find the wait by trying each later second.
 */
class OtpServiceProperties {
    private static final Pattern CODE = Pattern.compile("e ([0-9]{4,8})\\.");
    private static final String[] PHONES = {"11987650001", "21987650002", "31987650003"};

    @Property(tries = 40)
    void theUseCaseOnPostgreSqlFollowsTheModel(@ForAll("chains") ActionChain<World> chain) {
        chain.withInvariant("balances match the model", World::compare).run();
    }

    @Provide
    Arbitrary<ActionChain<World>> chains() {
        return ActionChain.startWith(World::new)
                .withAction(
                        4,
                        independent(Arbitraries.integers()
                                .between(0, PHONES.length - 1)
                                .flatMap(phone -> Arbitraries.integers()
                                        .between(60, 900)
                                        .flatMap(validity -> Arbitraries.integers()
                                                .between(0, 4)
                                                .map(d -> Transformer.<World>mutate(
                                                        "send to phone " + phone + " for " + validity + " s"
                                                                + (d == 0 ? " (provider down)" : ""),
                                                        w -> w.send(phone, validity, d == 0)))))))
                .withAction(4, checks(true))
                .withAction(5, checks(false))
                .withAction(
                        3,
                        independent(Arbitraries.of(1, 5, 29, 30, 31, 120, 700, 3600)
                                .map(s -> Transformer.<World>mutate("advance " + s + " s", w -> w.advance(s)))))
                .withAction(2, new Action.Independent<World>() {
                    @Override
                    public boolean precondition(World w) {
                        return !w.sent.isEmpty();
                    }

                    @Override
                    public Arbitrary<Transformer<World>> transformer() {
                        return Arbitraries.integers()
                                .between(0, 1000)
                                .map(i -> Transformer.mutate("to the expiry of #" + i, w -> w.toExpiry(i)));
                    }
                })
                .withAction(2, new Action.Independent<World>() {
                    @Override
                    public boolean precondition(World w) {
                        return !w.sent.isEmpty();
                    }

                    @Override
                    public Arbitrary<Transformer<World>> transformer() {
                        return Arbitraries.integers()
                                .between(0, 1000)
                                .map(i -> Transformer.mutate("failed-delivery receipt of #" + i, w -> w.receipt(i)));
                    }
                })
                .withMaxTransformations(30);
    }

    private static Action.Independent<World> independent(Arbitrary<Transformer<World>> transformers) {
        return new Action.Independent<>() {
            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return transformers;
            }
        };
    }

    private static Action.Independent<World> checks(boolean right) {
        return new Action.Independent<>() {
            @Override
            public boolean precondition(World w) {
                return !w.sent.isEmpty();
            }

            @Override
            public Arbitrary<Transformer<World>> transformer() {
                return Arbitraries.integers()
                        .between(0, 1000)
                        .map(i -> Transformer.mutate(
                                (right ? "right" : "wrong") + " check of #" + i, w -> w.check(i, right)));
            }
        };
    }

    /** A sent code as the model sees it. */
    static final class Sent {
        String id;
        String code;
        Instant expiresAt;
        int checks;
        boolean used;
        boolean refunded;
    }

    static final class World {
        final Store store = TestDatabase.store();
        final ManualClock clock = new ManualClock(Instant.parse("2026-11-23T15:00:00Z"));
        final Map<String, String> texts = new HashMap<>();
        boolean down;
        final OtpService service;
        final Principal principal;
        long balance = 4;
        final List<Sent> sent = new ArrayList<>();
        final Map<Integer, List<Instant>> counted = new HashMap<>();

        World() {
            byte[] secret = new byte[32];
            Arrays.fill(secret, (byte) 3);
            SmsGateway provider = (SmsMessage m) -> {
                if (down) {
                    throw new ProviderUnavailableException(
                            "sms", ProviderUnavailableException.Failure.TIMEOUT, null, null);
                }
                texts.put(m.reference(), m.text());
                return "p-" + m.reference();
            };
            service = new OtpService(
                    store.otpStore(),
                    provider,
                    new Keyring(List.of(new Keyring.Key("p", secret)), "p"),
                    new CostRules(clock),
                    clock,
                    new SecureRandom());
            Account account = TestDatabase.fundedAccount(0, balance);
            ApiKey key = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom())
                    .issue(account.id(), "p", EnumSet.of(Scope.SMS_OTP))
                    .key();
            principal = new Principal(key, account);
        }

        private boolean allowed(int phone, Instant at) {
            long last30 = 0;
            long lastHour = 0;
            for (Instant t : counted.getOrDefault(phone, List.of())) {
                if (!t.isAfter(at) && Duration.between(t, at).compareTo(Duration.ofSeconds(30)) < 0) {
                    last30++;
                }
                if (!t.isAfter(at) && Duration.between(t, at).compareTo(Duration.ofHours(1)) < 0) {
                    lastHour++;
                }
            }
            return last30 == 0 && lastHour < 5;
        }

        void send(int phone, int validity, boolean providerDown) {
            Instant now = clock.instant();
            OtpRequest request = OtpRequest.parse(PHONES[phone], (long) validity, 6L);
            if (!allowed(phone, now)) {
                long wait = 1;
                while (!allowed(phone, now.plusSeconds(wait))) {
                    wait++;
                }
                assertEquals(
                        wait,
                        assertThrows(OtpLimitException.class, () -> service.send(principal, request))
                                .retryAfterSeconds());
                return;
            }
            if (balance == 0) {
                assertThrows(InsufficientCreditsException.class, () -> service.send(principal, request));
                return;
            }
            down = providerDown;
            try {
                if (providerDown) {
                    assertThrows(SmsUnavailableException.class, () -> service.send(principal, request));
                    return;
                }
                OtpSent s = service.send(principal, request);
                assertEquals(now.plusSeconds(validity), s.expiresAt());
                Sent m = new Sent();
                m.id = s.id();
                Matcher code = CODE.matcher(texts.get(s.id()));
                code.find();
                m.code = code.group(1);
                m.expiresAt = s.expiresAt();
                sent.add(m);
                counted.computeIfAbsent(phone, k -> new ArrayList<>()).add(now);
                balance--;
            } finally {
                down = false;
            }
        }

        void check(int pick, boolean right) {
            Sent m = sent.get(pick % sent.size());
            Instant now = clock.instant();
            String status = m.used
                    ? "verificado"
                    : m.checks >= 5 ? "bloqueado" : now.isBefore(m.expiresAt) ? "pendente" : "expirado";
            boolean counts = status.equals("pendente");
            String typed = right ? m.code : m.code.equals("000000") ? "000001" : "000000";
            OtpCheck c = service.verify(principal, m.id, typed);
            if (counts) {
                m.checks++;
                m.used = right;
                status = right ? "verificado" : m.checks >= 5 ? "bloqueado" : "pendente";
            }
            assertEquals(counts && right, c.valid(), "valid");
            assertEquals(status, c.status().wire(), "status");
            assertEquals(status.equals("pendente") ? 5 - m.checks : 0, c.remainingAttempts(), "attempts left");
        }

        void advance(int seconds) {
            clock.advance(Duration.ofSeconds(seconds));
        }

        void toExpiry(int pick) {
            Instant expiry = sent.get(pick % sent.size()).expiresAt;
            if (expiry.isAfter(clock.instant())) {
                clock.set(expiry);
            }
        }

        void receipt(int pick) {
            Sent m = sent.get(pick % sent.size());
            service.receipt(new DeliveryReceipt(m.id, "p-" + m.id, false));
            if (!m.refunded) {
                m.refunded = true;
                balance++;
            }
            assertThrows(
                    NotFoundException.class, () -> service.verify(principal, m.id + "x", "1234"), "unknown id is 404");
        }

        void compare() {
            assertEquals(
                    new Balance(CreditKind.SMS_CREDITS, balance, 0),
                    store.ledger().balance(principal.accountId(), CreditKind.SMS_CREDITS));
        }

        @Override
        public String toString() {
            return "World[" + sent.size() + " sent, balance " + balance + "]";
        }
    }
}
