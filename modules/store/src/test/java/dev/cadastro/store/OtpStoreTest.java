package dev.cadastro.store;

import static dev.cadastro.store.SmsFlows.wrong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.InsufficientCreditsException;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.sms.Delivery;
import dev.cadastro.core.sms.DeliveryReceipt;
import dev.cadastro.core.sms.OtpCheck;
import dev.cadastro.core.sms.OtpCode;
import dev.cadastro.core.sms.OtpDispatch;
import dev.cadastro.core.sms.OtpLimitException;
import dev.cadastro.core.sms.OtpRequest;
import dev.cadastro.core.sms.OtpSent;
import dev.cadastro.core.sms.OtpService;
import dev.cadastro.core.sms.OtpStatus;
import dev.cadastro.core.sms.OtpStore;
import dev.cadastro.core.sms.SmsGateway;
import dev.cadastro.core.sms.SmsMessage;
import dev.cadastro.core.sms.SmsUnavailableException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The SMS code use case on the real store and ledger: throttles, holds, charges, refunds, the attempt
 * count under parallel checks, expiry, single use and key rotation. The provider is a scripted stand-in
 * for the outside service (accepts and keeps the texts, or is down).
 */
class OtpStoreTest {
    private static final Instant T0 = Instant.parse("2026-11-23T15:00:00Z");
    private static final String PHONE = "11987654321";
    private static final Pattern CODE = Pattern.compile("e (\\d{4,8})\\.");

    private final Store store = TestDatabase.store();
    private final ManualClock clock = new ManualClock(T0);
    private final Provider provider = new Provider();
    private final Keyring keys = keyring("k1");

    /** A stand-in for the outside SMS provider: accepts (keeping each text by reference) or is down. */
    static final class Provider implements SmsGateway {
        volatile boolean down;
        final Map<String, String> texts = new ConcurrentHashMap<>();

        @Override
        public String send(SmsMessage message) {
            if (down) {
                throw new ProviderUnavailableException("sms", ProviderUnavailableException.Failure.ERROR, null, null);
            }
            texts.put(message.reference(), message.text());
            return "prov-" + message.reference();
        }

        String code(String reference) {
            Matcher m = CODE.matcher(texts.get(reference));
            assertTrue(m.find());
            return m.group(1);
        }
    }

    private static Keyring keyring(String current, String... others) {
        List<Keyring.Key> list = new ArrayList<>();
        for (String id : concat(current, others)) {
            byte[] secret = new byte[32];
            Arrays.fill(secret, (byte) id.hashCode());
            list.add(new Keyring.Key(id, secret));
        }
        return new Keyring(list, current);
    }

    private static List<String> concat(String first, String... rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(rest));
        return all;
    }

    private OtpService service(Keyring keyring) {
        return new OtpService(store.otpStore(), provider, keyring, new CostRules(clock), clock, new SecureRandom());
    }

    private OtpService service() {
        return service(keys);
    }

    private Principal principal(long sms) {
        return SmsFlows.principal(store, clock, sms);
    }

    private Balance sms(Principal p) {
        return store.ledger().balance(p.accountId(), CreditKind.SMS_CREDITS);
    }

    private static OtpRequest request(long validity) {
        return OtpRequest.parse(PHONE, validity, null);
    }

    @Test
    void aRetryUnderTheSameReferenceWithinThirtySecondsAnswersTheFirstDispatchNotTheLimit() {
        Principal p = principal(5);
        String reference = "idem.quick-retry-" + p.accountId().value();
        OtpSent first = service().send(p, request(300), reference);
        clock.advance(Duration.ofSeconds(1)); // the phone's 30 s rule would refuse a new request now
        OtpSent again = service().send(p, request(300), reference);
        assertEquals(first, again);
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 4, 0), sms(p), "one credit, once");
        // A new request to the phone within the 30 s is refused.
        assertThrows(OtpLimitException.class, () -> service().send(p, request(300)));
    }

    @Test
    void aRetryUnderTheSameReferenceAnswersTheFirstDispatchWithoutASecondSmsOrCharge() {
        Principal p = principal(5);
        OtpSent first =
                service().send(p, request(300), "idem.retry-" + p.accountId().value());
        clock.advance(Duration.ofSeconds(31)); // past the 30 s rule: only the reference can tell it is a retry
        OtpSent again =
                service().send(p, request(300), "idem.retry-" + p.accountId().value());
        assertEquals(first, again);
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 4, 0), sms(p), "one credit, once");
        assertEquals(
                1, provider.texts.keySet().stream().filter(first.id()::equals).count());
        assertFalse(provider.texts.containsKey(again.id()) && !again.id().equals(first.id()));
        // Another reference is another request: it sends (and is charged) on its own.
        OtpSent other =
                service().send(p, request(300), "idem.other-" + p.accountId().value());
        assertFalse(other.id().equals(first.id()));
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 3, 0), sms(p));
    }

    @Test
    void aRetryAfterAnOutageSendsForReal() {
        Principal p = principal(5);
        provider.down = true;
        assertThrows(SmsUnavailableException.class, () -> service().send(p, request(300), "idem.outage"));
        provider.down = false;
        OtpSent sent = service().send(p, request(300), "idem.outage");
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 4, 0), sms(p));
        assertTrue(provider.texts.containsKey(sent.id()));
    }

    @Test
    void aSendHoldsThenChargesOneSmsCreditWhenTheProviderAccepts() {
        Principal p = principal(3);
        OtpSent sent = service().send(p, request(300));
        assertEquals(1, sent.creditsConsumed());
        assertEquals(T0.plusSeconds(300), sent.expiresAt());
        assertEquals(2, sms(p).posted());
        assertEquals(0, sms(p).held());
        assertEquals(
                Delivery.ACEITO,
                store.otpStore().find(p.accountId(), sent.id()).orElseThrow().delivery());
    }

    @Test
    void anEmptySmsBalanceRefusesWithoutWritingADispatch() {
        Principal p = principal(0);
        assertThrows(InsufficientCreditsException.class, () -> service().send(p, request(300)));
        assertTrue(provider.texts.isEmpty(), "the provider was not called");
        clock.advance(Duration.ofSeconds(1));
        store.ledger()
                .topUp(p.accountId(), CreditKind.SMS_CREDITS, 1, dev.cadastro.core.ledger.IdempotencyKey.of("t1"), "t");
        service().send(p, request(300)); // nothing was counted against the phone
    }

    @Test
    void anOutageChargesNothingAndDoesNotCountAgainstThePhone() {
        Principal p = principal(2);
        provider.down = true;
        assertThrows(SmsUnavailableException.class, () -> service().send(p, request(300)));
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 2, 0), sms(p));
        provider.down = false;
        OtpSent sent = service().send(p, request(300)); // same second: the outage did not use the 30 s
        assertEquals(1, sms(p).posted());
        assertEquals(
                OtpStatus.PENDENTE,
                store.otpStore().find(p.accountId(), sent.id()).orElseThrow().status(T0));
    }

    @Test
    void thirtySecondsBetweenCodesToOnePhoneWithTheRightRetryAfter() {
        Principal p = principal(10);
        service().send(p, request(300));
        clock.advance(Duration.ofSeconds(10));
        assertEquals(
                20,
                assertThrows(OtpLimitException.class, () -> service().send(p, request(300)))
                        .retryAfterSeconds());
        clock.advance(Duration.ofMillis(19_999));
        assertEquals(
                1,
                assertThrows(OtpLimitException.class, () -> service().send(p, request(300)))
                        .retryAfterSeconds());
        clock.advance(Duration.ofMillis(1));
        service().send(p, request(300));
        assertEquals(8, sms(p).posted(), "the refused sends charged nothing");
        Principal other = principal(1);
        service().send(other, request(300)); // per account: another account's limit is its own
    }

    @Test
    void fivePerHourToOnePhoneWithTheRightRetryAfter() {
        Principal p = principal(10);
        for (int i = 0; i < 5; i++) {
            service().send(p, request(300));
            clock.advance(Duration.ofSeconds(30));
        }
        // Now T0 + 150 s: the oldest of the five leaves the hour at T0 + 3600 s.
        OtpLimitException e =
                assertThrows(OtpLimitException.class, () -> service().send(p, request(300)));
        assertEquals(3450, e.retryAfterSeconds());
        clock.set(T0.plusSeconds(3600).minusMillis(1));
        assertThrows(OtpLimitException.class, () -> service().send(p, request(300)));
        clock.set(T0.plusSeconds(3600));
        service().send(p, request(300));
        service().send(p, OtpRequest.parse("21987654321", 300L, null)); // another phone is not limited
    }

    @Test
    void aHundredParallelWrongChecksCountExactlyFiveAndBlockTheCode() throws Exception {
        Principal p = principal(1);
        OtpSent sent = service().send(p, request(300));
        String code = provider.code(sent.id());
        OtpService s = service();
        int counted = 0;
        for (OtpCheck c : atOnce(s, p, sent.id(), Collections.nCopies(100, wrong(code)))) {
            assertFalse(c.valid());
            if (c.status() == OtpStatus.PENDENTE) {
                counted++;
            }
        }
        assertEquals(4, counted, "four wrong checks left it pending; the fifth blocked it");
        OtpDispatch after = store.otpStore().find(p.accountId(), sent.id()).orElseThrow();
        assertEquals(5, after.attempts());
        assertEquals(OtpStatus.BLOQUEADO, after.status(clock.instant()));
        assertEquals(new OtpCheck(false, OtpStatus.BLOQUEADO, 0), s.verify(p, sent.id(), code));
    }

    /** Runs the checks at once (32 threads released together) and returns their answers in order. */
    private static List<OtpCheck> atOnce(OtpService s, Principal p, String id, List<String> typed) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<OtpCheck>> checks = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
            for (String t : typed) {
                checks.add(pool.submit(() -> {
                    go.await();
                    return s.verify(p, id, t);
                }));
            }
            go.countDown();
            List<OtpCheck> answers = new ArrayList<>();
            for (Future<OtpCheck> f : checks) {
                answers.add(f.get());
            }
            return answers;
        }
    }

    @Test
    void parallelRightAndWrongChecksVerifyOnceAndCountAtMostFive() throws Exception {
        Principal p = principal(1);
        OtpSent sent = service().send(p, request(300));
        String code = provider.code(sent.id());
        OtpService s = service();
        List<String> typed = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            typed.add(i % 3 == 0 ? code : wrong(code));
        }
        int valid = 0;
        int pending = 0;
        Set<Integer> remaining = new HashSet<>();
        for (OtpCheck c : atOnce(s, p, sent.id(), typed)) {
            if (c.valid()) {
                valid++;
                assertEquals(new OtpCheck(true, OtpStatus.VERIFICADO, 0), c);
            } else if (c.status() == OtpStatus.PENDENTE) {
                pending++;
                assertTrue(remaining.add(c.remainingAttempts()), "each counted wrong check has its own count: " + c);
            } else {
                assertTrue(c.status() == OtpStatus.VERIFICADO || c.status() == OtpStatus.BLOQUEADO, c.toString());
                assertEquals(0, c.remainingAttempts(), c.toString());
            }
        }
        assertTrue(pending <= 4, "wrong checks answered pending: " + pending);
        OtpDispatch after = store.otpStore().find(p.accountId(), sent.id()).orElseThrow();
        assertTrue(after.attempts() <= 5, "attempts counted: " + after.attempts());
        // Only a counted check answers pending (its own attempt under five) or valid; the one other
        // counted answer is the fifth wrong one, which blocked the code.
        assertEquals(
                after.attempts(),
                pending + valid + (after.attempts() == 5 && valid == 0 ? 1 : 0),
                "every counted attempt was answered as counted");
        if (after.status(clock.instant()) == OtpStatus.VERIFICADO) {
            assertEquals(1, valid, "the code was spent by exactly one check");
        } else {
            // Five wrong checks were counted before any right one: blocked, and nothing verified.
            assertEquals(OtpStatus.BLOQUEADO, after.status(clock.instant()));
            assertEquals(0, valid);
        }
        assertFalse(s.verify(p, sent.id(), code).valid(), "spent or blocked: a later right code is refused");
    }

    @Test
    void parallelSendsToOnePhoneSendOneCodeAndChargeOneCredit() throws Exception {
        Principal p = principal(50);
        OtpService s = service();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<OtpSent>> sends = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
            for (int i = 0; i < 40; i++) {
                sends.add(pool.submit(() -> {
                    go.await();
                    return s.send(p, request(300));
                }));
            }
            go.countDown();
            int sent = 0;
            int throttled = 0;
            for (Future<OtpSent> f : sends) {
                try {
                    f.get();
                    sent++;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertTrue(
                            e.getCause() instanceof OtpLimitException,
                            e.getCause().toString());
                    throttled++;
                }
            }
            assertEquals(1, sent, "the 30-second rule lets one of the parallel sends through");
            assertEquals(39, throttled);
        }
        assertEquals(1, provider.texts.size());
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 49, 0), sms(p));
    }

    @Test
    void parallelAcceptancesOfOneDispatchPostItsHoldOnce() throws Exception {
        Principal p = principal(3);
        OtpStore otp = store.otpStore();
        String id = "sms_parallel_accept_" + p.accountId().value();
        OtpDispatch dispatch =
                OtpDispatch.sending(id, p.accountId(), "(11) 9****-4321", 6, "k1", T0, Duration.ofSeconds(300));
        OtpStore.Begun begun = otp.begin(
                dispatch,
                "phone-" + p.accountId().value(),
                new byte[32],
                new CostRules(clock).smsCode(p.accountId(), id),
                "ref-" + id);
        assertTrue(begun instanceof OtpStore.Begun.Started, begun.toString());
        // Another dispatch's open hold on the same balance, so a second post of the first hold would not
        // be stopped by the balance's own CHECK (held >= 0): only the acceptance's guards can stop it.
        String other = id + "_other";
        otp.begin(
                OtpDispatch.sending(other, p.accountId(), "(11) 9****-1234", 6, "k1", T0, Duration.ofSeconds(300)),
                "phone-other-" + p.accountId().value(),
                new byte[32],
                new CostRules(clock).smsCode(p.accountId(), other),
                "ref-" + other);
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 3, 2), sms(p));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<OtpDispatch>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            for (int i = 0; i < 16; i++) {
                int n = i;
                answers.add(pool.submit(() -> {
                    go.await();
                    return n % 4 == 3
                            ? otp.unavailable(p.accountId(), id, T0)
                            : otp.accepted(p.accountId(), id, "prov-" + n, T0);
                }));
            }
            go.countDown();
            for (Future<OtpDispatch> f : answers) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    // A late acceptance of a settled dispatch is refused; it must not have charged.
                    assertTrue(
                            e.getCause() instanceof RuntimeException,
                            e.getCause().toString());
                }
            }
        }
        Delivery delivery = otp.find(p.accountId(), id).orElseThrow().delivery();
        long charged = store.ledger().statement(p.accountId(), CreditKind.SMS_CREDITS, 100).stream()
                .filter(line -> line.type() == dev.cadastro.core.ledger.EntryType.HOLD_POST)
                .count();
        if (delivery == Delivery.ACEITO) {
            assertEquals(new Balance(CreditKind.SMS_CREDITS, 2, 1), sms(p), "posted once");
            assertEquals(1, charged);
        } else {
            assertEquals(Delivery.INDISPONIVEL, delivery);
            assertEquals(new Balance(CreditKind.SMS_CREDITS, 3, 1), sms(p), "released, not charged");
            assertEquals(0, charged);
        }
    }

    @Test
    void anAcceptanceWhoseHoldWasNotHeldChangesNothing() {
        Principal p = principal(2);
        OtpStore otp = store.otpStore();
        String id = "sms_hold_gone_" + p.accountId().value();
        var hold = new CostRules(clock).smsCode(p.accountId(), id);
        otp.begin(
                OtpDispatch.sending(id, p.accountId(), "(11) 9****-4321", 6, "k1", T0, Duration.ofSeconds(300)),
                "phone-gone-" + p.accountId().value(),
                new byte[32],
                hold,
                "ref-" + id);
        // A hold released behind the dispatch's back (no path of the service does this).
        store.ledger().release(p.accountId(), hold.key());
        Balance before = sms(p);
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> otp.accepted(p.accountId(), id, "prov-x", T0));
        assertTrue(e.getMessage().contains("could not be posted"), e.getMessage());
        assertEquals(
                Delivery.ENVIANDO, otp.find(p.accountId(), id).orElseThrow().delivery(), "still sending");
        assertEquals(before, sms(p), "nothing charged");
    }

    @Test
    void aSendWhoseHoldKeyWasAlreadyPlacedStartsOnTheGeneralPathWithThatHold() {
        // The one-statement send writes nothing when the hold's key is taken; the general path then finds
        // the ledger's hold under that key and writes the dispatch in its own transaction.
        Principal p = principal(3);
        OtpStore otp = store.otpStore();
        String id = "sms_hold_placed_" + p.accountId().value();
        var hold = new CostRules(clock).smsCode(p.accountId(), id);
        store.ledger().hold(hold);
        Balance before = sms(p);
        OtpStore.Begun begun = otp.begin(
                OtpDispatch.sending(id, p.accountId(), "(11) 9****-4321", 6, "k1", T0, Duration.ofSeconds(300)),
                "phone-placed-" + p.accountId().value(),
                new byte[32],
                hold,
                "ref-" + id);
        assertTrue(begun instanceof OtpStore.Begun.Started, begun.toString());
        assertEquals(
                Delivery.ENVIANDO, otp.find(p.accountId(), id).orElseThrow().delivery());
        assertEquals(before, sms(p), "held once, by the hold placed before");
        otp.accepted(p.accountId(), id, "prov-placed", T0);
        assertEquals(new Balance(CreditKind.SMS_CREDITS, before.posted() - 1, before.held() - 1), sms(p));
    }

    @Test
    void theCodeExpiresAtTheExactTermRequested() {
        Principal p = principal(3);
        OtpSent sent = service().send(p, request(60));
        String code = provider.code(sent.id());
        clock.set(T0.plusSeconds(60));
        assertEquals(new OtpCheck(false, OtpStatus.EXPIRADO, 0), service().verify(p, sent.id(), code));
        clock.set(T0.plusSeconds(120));
        OtpSent second = service().send(p, request(60));
        clock.set(T0.plusSeconds(180).minusNanos(1000));
        assertEquals(
                new OtpCheck(true, OtpStatus.VERIFICADO, 0),
                service().verify(p, second.id(), provider.code(second.id())),
                "one microsecond before the term it is still valid");
        clock.set(T0.plusSeconds(240));
        OtpSent third = service().send(p, request(60));
        clock.set(T0.plusSeconds(300).minusNanos(1));
        assertEquals(
                new OtpCheck(false, OtpStatus.PENDENTE, 4),
                service().verify(p, third.id(), wrong(provider.code(third.id()))),
                "one nanosecond before the term a wrong code is counted (the database keeps microseconds)");
        assertEquals(
                new OtpCheck(true, OtpStatus.VERIFICADO, 0),
                service().verify(p, third.id(), provider.code(third.id())),
                "and a right one verifies");
    }

    @Test
    void aCodeIsValidOnceAndWrongChecksCountDown() {
        Principal p = principal(1);
        OtpSent sent = service().send(p, request(300));
        String code = provider.code(sent.id());
        assertEquals(new OtpCheck(false, OtpStatus.PENDENTE, 4), service().verify(p, sent.id(), wrong(code)));
        assertEquals(new OtpCheck(false, OtpStatus.PENDENTE, 3), service().verify(p, sent.id(), "123"));
        assertEquals(new OtpCheck(true, OtpStatus.VERIFICADO, 0), service().verify(p, sent.id(), code));
        assertEquals(new OtpCheck(false, OtpStatus.VERIFICADO, 0), service().verify(p, sent.id(), code));
    }

    @Test
    void anotherAccountsDispatchIsNotFound() {
        Principal owner = principal(1);
        Principal stranger = principal(1);
        OtpSent sent = service().send(owner, request(300));
        String code = provider.code(sent.id());
        assertThrows(NotFoundException.class, () -> service().verify(stranger, sent.id(), code));
        assertThrows(NotFoundException.class, () -> service().verify(stranger, "sms_nope", code));
        // Bytes PostgreSQL refuses in text, and ids far too long, are unknown without a store error.
        assertThrows(NotFoundException.class, () -> service().verify(stranger, "sms_\u0000" + "0".repeat(31), code));
        assertThrows(NotFoundException.class, () -> service().verify(stranger, "s".repeat(100_000), code));
        assertEquals(
                0,
                store.otpStore()
                        .find(owner.accountId(), sent.id())
                        .orElseThrow()
                        .attempts());
    }

    @Test
    void aFailedDeliveryReturnsTheCreditOnceEvenWhenTheReceiptArrivesTwice() {
        Principal p = principal(2);
        OtpSent sent = service().send(p, request(300));
        assertEquals(1, sms(p).posted());
        DeliveryReceipt failed = new DeliveryReceipt(sent.id(), "prov-" + sent.id(), false);
        service().receipt(failed);
        assertEquals(2, sms(p).posted());
        service().receipt(failed);
        assertFalse(store.otpStore().deliveryFailed(sent.id(), clock.instant()));
        assertEquals(2, sms(p).posted());
        service().receipt(new DeliveryReceipt("sms_unknown", "x", false));
        OtpDispatch d = store.otpStore().find(p.accountId(), sent.id()).orElseThrow();
        assertEquals(Delivery.FALHOU, d.delivery());
        assertEquals(
                List.of("HOLD_POST", "REFUND"),
                store.ledger().statement(p.accountId(), CreditKind.SMS_CREDITS, 2).stream()
                        .map(l -> l.type().name())
                        .toList());
    }

    @Test
    void aFailureReportedBeforeTheAcceptanceIsRecordedIsRefundedAtTheAcceptance() {
        Principal p = principal(1);
        OtpDispatch d = OtpDispatch.sending(
                "sms_early", p.accountId(), "(11) 9****-4321", 6, "k1", T0, Duration.ofSeconds(300));
        OtpStore otp = store.otpStore();
        assertTrue(
                otp.begin(d, "phone-early", new byte[32], new CostRules(clock).smsCode(p.accountId(), d.id()), d.id())
                        instanceof OtpStore.Begun.Started);
        assertFalse(otp.deliveryFailed(d.id(), T0), "nothing charged yet, so nothing returned yet");
        assertEquals(
                Delivery.FALHOU, otp.accepted(p.accountId(), d.id(), "prov", T0).delivery());
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 1, 0), sms(p));
    }

    @Test
    void aDispatchStuckInSendingIsReleasedAfterTheLeaseAndStillCountsAgainstThePhone() {
        Principal p = principal(2);
        OtpDispatch d = OtpDispatch.sending(
                "sms_stuck_" + p.accountId().value(),
                p.accountId(),
                "(11) 9****-4321",
                6,
                "k1",
                T0,
                Duration.ofSeconds(300));
        OtpStore otp = store.otpStore();
        String phoneKey = "stuck-" + p.accountId().value();
        otp.begin(d, phoneKey, new byte[32], new CostRules(clock).smsCode(p.accountId(), d.id()), d.id());
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 2, 1), sms(p));
        clock.advance(OtpService.SENDING_LEASE.minusSeconds(1));
        service().releaseStuck();
        assertEquals(
                new Balance(CreditKind.SMS_CREDITS, 2, 1), sms(p), "within the lease the provider may still answer");
        clock.advance(Duration.ofSeconds(1));
        assertTrue(service().releaseStuck() >= 1);
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 2, 0), sms(p));
        assertEquals(
                Delivery.INCERTO, otp.find(p.accountId(), d.id()).orElseThrow().delivery());
        // The provider answers after the lease: the message went out uncharged, the dispatch stays uncertain.
        assertEquals(
                Delivery.INCERTO,
                otp.accepted(p.accountId(), d.id(), "late", clock.instant()).delivery());
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 2, 0), sms(p));
        OtpDispatch next = OtpDispatch.sending(
                "sms_next_" + p.accountId().value(),
                p.accountId(),
                "(11) 9****-4321",
                6,
                "k1",
                T0.plusSeconds(10),
                Duration.ofSeconds(300));
        // The message may have gone out: the stuck dispatch still counts, so 10 s after it the rule waits 20 s.
        assertEquals(
                new OtpStore.Begun.Throttled(Duration.ofSeconds(20)),
                otp.begin(
                        next,
                        phoneKey,
                        new byte[32],
                        new CostRules(clock).smsCode(p.accountId(), next.id()),
                        next.id()));
    }

    @Test
    void codesSentBeforeARotationStayCheckableAfterIt() {
        Principal p = principal(2);
        OtpSent before = service(keyring("k1")).send(p, request(300));
        OtpService rotated = service(keyring("k2", "k1"));
        clock.advance(Duration.ofSeconds(30));
        OtpSent after = rotated.send(p, request(300));
        assertEquals(
                "k2",
                store.otpStore().find(p.accountId(), after.id()).orElseThrow().keyId());
        assertTrue(rotated.verify(p, before.id(), provider.code(before.id())).valid());
        assertTrue(rotated.verify(p, after.id(), provider.code(after.id())).valid());
    }

    @Test
    void theCheckMatchesOnlyTheWholeMacUnderTheDispatchsOwnKey() {
        Principal p = principal(1);
        OtpSent sent = service().send(p, request(300));
        OtpCode code = OtpCode.typed(provider.code(sent.id())).orElseThrow();
        byte[] right = keys.mac("k1", sent.id(), code);
        byte[] lastByte = right.clone();
        lastByte[31] ^= 1;
        byte[] firstByte = right.clone();
        firstByte[0] ^= (byte) 0x80;
        OtpStore otp = store.otpStore();
        // Each a counted miss: one bit off at either end, the right bytes under another key's id, and no
        // MAC under the dispatch's key (its key was dropped).
        List<Map<String, byte[]>> misses =
                List.of(Map.of("k1", lastByte), Map.of("k1", firstByte), Map.of("k2", right), Map.of());
        int attempts = 0;
        for (Map<String, byte[]> miss : misses) {
            OtpStore.Checked checked =
                    otp.check(p.accountId(), sent.id(), clock.instant(), miss).orElseThrow();
            attempts++;
            assertFalse(checked.valid(), () -> "MACs under " + miss.keySet());
            assertEquals(attempts, checked.dispatch().attempts(), () -> "MACs under " + miss.keySet());
            assertEquals(OtpStatus.PENDENTE, checked.dispatch().status(clock.instant()));
        }
        // The right MAC between two others, in a set order: the one under the dispatch's key decides.
        Map<String, byte[]> macs = new LinkedHashMap<>();
        macs.put("k2", lastByte);
        macs.put("k1", right.clone());
        macs.put("k0", firstByte);
        OtpStore.Checked hit =
                otp.check(p.accountId(), sent.id(), clock.instant(), macs).orElseThrow();
        assertTrue(hit.valid());
        assertEquals(OtpStatus.VERIFICADO, hit.dispatch().status(clock.instant()));
        // Spent: the same MAC again is not counted and not valid.
        OtpStore.Checked again = otp.check(p.accountId(), sent.id(), clock.instant(), Map.of("k1", right))
                .orElseThrow();
        assertFalse(again.valid());
        assertEquals(5, again.dispatch().attempts());
        // Another account's check of it finds nothing, even with the right MAC.
        Principal other = principal(0);
        assertEquals(Optional.empty(), otp.check(other.accountId(), sent.id(), clock.instant(), Map.of("k1", right)));
    }

    @Test
    void theStoreNeverHoldsTheCodeInClear() throws Exception {
        Principal p = principal(1);
        OtpSent sent = service().send(p, OtpRequest.parse(PHONE, 300L, 8L));
        String code = provider.code(sent.id());
        try (var c = store.dataSource().getConnection();
                var ps = c.prepareStatement("SELECT row_to_json(d)::text FROM sms_dispatches d WHERE public_id = ?")) {
            ps.setString(1, sent.id());
            try (var rs = ps.executeQuery()) {
                assertTrue(rs.next());
                String row = rs.getString(1);
                assertFalse(row.contains(code), row);
                assertFalse(row.contains("987654321"), "no phone in clear: " + row);
            }
        }
    }
}
