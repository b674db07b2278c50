package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.Delivery;
import dev.cadastro.core.calls.push.DeliveryState;
import dev.cadastro.core.calls.push.DestinationPolicy;
import dev.cadastro.core.calls.push.PushDelivery;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.calls.push.RetrySchedule;
import dev.cadastro.core.calls.push.WebhookSignature;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.work.Claimed;
import dev.cadastro.http.callrecords.CallJson;
import dev.cadastro.providers.JdkWebhookSender;
import dev.cadastro.store.Store;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One delivery at a time, driven by hand on an injected clock, against a real receiver on a loopback
 * socket and the embedded PostgreSQL: headers, signature and body; the seven attempts on the schedule;
 * Retry-After; the destination checks at each attempt; replay of a failed delivery.
 */
class PushDeliveryTest {
    private static final Instant T0 = Instant.parse("2026-03-10T15:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final String OWNER = "test-server";

    private final ManualClock clock = new ManualClock(T0);
    private PushFixture db;
    private Store store;
    private LoopbackReceiver receiver;
    private Integration crm;

    @BeforeEach
    void open() throws Exception {
        db = PushFixture.fresh();
        store = db.open(clock);
        receiver = LoopbackReceiver.ok();
        crm = db.integration("crm");
    }

    @AfterEach
    void close() throws Exception {
        receiver.close();
        store.close();
    }

    private static byte[] body(CallRecord call) {
        return CallJson.wrapped(call, "https://gravacoes.example/calls/" + call.id());
    }

    private PushDelivery push(DestinationPolicy policy, Duration timeout) {
        return new PushDelivery(
                store.deliveryQueue(),
                new JdkWebhookSender(Duration.ofSeconds(2), clock),
                policy,
                RetrySchedule.standard(new SplittableRandom(7)),
                PushDeliveryTest::body,
                clock,
                timeout);
    }

    private static DestinationPolicy loopbackAllowed() {
        return DestinationPolicy.builder()
                .allowHttp(true)
                .allowLoopback(true)
                .resolver(JdkWebhookSender.RESOLVER)
                .build();
    }

    private PushDestination destination(URI url, String secret) {
        PushDestination d = new PushDestination(crm, url, "Authorization", "Bearer cliente-123", true, secret, true);
        store.pushDestinations().set(d, clock.instant());
        return d;
    }

    private Optional<Claimed<Delivery>> claim() {
        List<Claimed<Delivery>> c = store.deliveryQueue().claimMany(OWNER, clock.instant(), LEASE, 10, 16);
        assertTrue(c.size() <= 1, "one delivery in these tests");
        return c.stream().findFirst();
    }

    @Test
    void deliversWithTheClientsHeaderAndAValidStandardWebhooksSignature() {
        String secret = PushDestination.newSecret(new SplittableRandom(11));
        destination(receiver.url("/ligacoes"), secret);
        CallRecord call = PushFixture.call(crm, "C-1", T0.minusSeconds(90));
        long id = db.readyCall(call, T0);

        push(loopbackAllowed(), PushDelivery.DEFAULT_TIMEOUT).process(claim().orElseThrow());

        assertEquals(1, receiver.received().size());
        LoopbackReceiver.Received r = receiver.received().getFirst();
        assertEquals("POST", r.method());
        assertEquals("/ligacoes", r.path());
        assertEquals("application/json", r.header("content-type"));
        assertEquals("Bearer cliente-123", r.header("authorization"));
        assertEquals(db.delivery(id, "webhook_id"), r.header("webhook-id"));
        assertEquals(Long.toString(T0.getEpochSecond()), r.header("webhook-timestamp"));
        assertTrue(WebhookSignature.verify(
                secret,
                r.header("webhook-id"),
                r.header("webhook-timestamp"),
                r.header("webhook-signature"),
                r.body(),
                T0,
                Duration.ofMinutes(5)));
        assertArrayEquals(body(call), r.body());
        assertTrue(r.text().startsWith("{\"metadata\":{\"id\":\"C-1\""), r.text());
        assertEquals("entregue", db.delivery(id, "state"));
        assertEquals(1, db.delivery(id, "attempts"));
        assertEquals(204, db.delivery(id, "last_status"));
        assertEquals(
                DeliveryState.ENTREGUE,
                store.deliveryQueue().find(id).orElseThrow().state());
    }

    @Test
    void withoutASecretNoSignatureHeaderIsSent() {
        destination(receiver.url("/h"), null);
        db.readyCall(PushFixture.call(crm, "C-2", T0), T0);
        push(loopbackAllowed(), PushDelivery.DEFAULT_TIMEOUT).process(claim().orElseThrow());
        assertEquals(null, receiver.received().getFirst().header("webhook-signature"));
        assertTrue(receiver.received().getFirst().header("webhook-id").startsWith("msg_"));
    }

    @Test
    void failureStatusesRedirectsAndTimeoutsAreRetriedOnTheScheduleSevenAttemptsAtMostThenFalhou() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-3", T0), T0);
        // Attempts 1 to 7: a 500, a redirect (never followed), a 404, a timeout, a 503, a 429, a 500.
        List<LoopbackReceiver.Reply> replies = List.of(
                LoopbackReceiver.Reply.status(500),
                new LoopbackReceiver.Reply(
                        302, Map.of("Location", receiver.url("/elsewhere").toString()), 0),
                LoopbackReceiver.Reply.status(404),
                new LoopbackReceiver.Reply(200, Map.of(), 1_500),
                LoopbackReceiver.Reply.status(503),
                LoopbackReceiver.Reply.status(429),
                LoopbackReceiver.Reply.status(500));
        receiver.behave(r -> replies.get(Math.min(receiver.received().size(), replies.size()) - 1));
        PushDelivery push = push(loopbackAllowed(), Duration.ofMillis(400));
        for (int attempt = 1; attempt <= RetrySchedule.MAX_ATTEMPTS; attempt++) {
            Claimed<Delivery> item = claim().orElseThrow(() -> new AssertionError("not due"));
            assertEquals(attempt, item.attempt());
            Instant sentAt = clock.instant();
            push.process(item);
            assertEquals(attempt, receiver.received().size(), "one request per attempt");
            assertEquals(attempt, db.delivery(id, "attempts"));
            if (attempt == RetrySchedule.MAX_ATTEMPTS) {
                break;
            }
            assertEquals("pendente", db.delivery(id, "state"));
            Instant next = (Instant) db.delivery(id, "next_attempt_at");
            Duration nominal = RetrySchedule.DEFAULT_DELAYS.get(attempt - 1);
            Duration waited = Duration.between(sentAt, next);
            assertTrue(
                    waited.compareTo(nominal) >= 0 && waited.compareTo(nominal.plus(nominal.dividedBy(10))) <= 0,
                    "attempt " + attempt + " waited " + waited);
            clock.set(next.minusMillis(1));
            assertTrue(claim().isEmpty(), "not due before its time");
            clock.set(next);
        }
        assertEquals("falhou", db.delivery(id, "state"));
        assertEquals(500, db.delivery(id, "last_status"));
        clock.advance(Duration.ofDays(2));
        assertTrue(claim().isEmpty(), "a falhou delivery is not tried again");
        assertEquals(RetrySchedule.MAX_ATTEMPTS, receiver.received().size());
        assertEquals(
                1,
                receiver.received().stream()
                        .map(r -> r.header("webhook-id"))
                        .distinct()
                        .count());
        assertTrue(receiver.received().stream().noneMatch(r -> r.path().equals("/elsewhere")), "redirect followed");
        var status = store.deliveryQueue().list(crm.id(), Optional.of(DeliveryState.FALHOU), 10);
        assertEquals(1, status.size());
        assertEquals(7, status.getFirst().attempts());
    }

    @Test
    void aFalhouDeliveryIsReplayedWithTheSameWebhookIdAndAFreshSetOfAttempts() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-4", T0), T0);
        receiver.behave(r -> LoopbackReceiver.Reply.status(500));
        PushDelivery push = push(loopbackAllowed(), PushDelivery.DEFAULT_TIMEOUT);
        for (int attempt = 1; attempt <= RetrySchedule.MAX_ATTEMPTS; attempt++) {
            push.process(claim().orElseThrow());
            clock.advance(Duration.ofHours(3));
        }
        assertEquals("falhou", db.delivery(id, "state"));
        assertTrue(store.deliveryQueue().replay(id, clock.instant()));
        assertTrue(!store.deliveryQueue().replay(id, clock.instant()), "only a falhou delivery is replayed");
        receiver.behave(r -> LoopbackReceiver.Reply.status(200));
        Claimed<Delivery> again = claim().orElseThrow();
        assertEquals(1, again.attempt());
        push.process(again);
        assertEquals("entregue", db.delivery(id, "state"));
        assertEquals(1, db.delivery(id, "attempts"));
        assertEquals(
                1,
                receiver.received().stream()
                        .map(r -> r.header("webhook-id"))
                        .distinct()
                        .count());
    }

    @Test
    void retryAfterInSecondsOrAsADateLengthensTheNextDelay() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-5", T0), T0);
        PushDelivery push = push(loopbackAllowed(), PushDelivery.DEFAULT_TIMEOUT);
        receiver.behave(r -> new LoopbackReceiver.Reply(503, Map.of("Retry-After", "600"), 0));
        push.process(claim().orElseThrow());
        assertEquals(T0.plusSeconds(600), db.delivery(id, "next_attempt_at"));

        clock.set(T0.plusSeconds(600));
        Instant asked = clock.instant().plus(Duration.ofMinutes(20));
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(asked.atOffset(ZoneOffset.UTC));
        receiver.behave(r -> new LoopbackReceiver.Reply(429, Map.of("Retry-After", date), 0));
        push.process(claim().orElseThrow());
        assertEquals(asked, db.delivery(id, "next_attempt_at"));

        // Shorter than the schedule: the schedule wins (2 min after attempt 2, plus up to 10 %).
        clock.set(asked);
        receiver.behave(r -> new LoopbackReceiver.Reply(503, Map.of("Retry-After", "1"), 0));
        push.process(claim().orElseThrow());
        Duration waited = Duration.between(asked, (Instant) db.delivery(id, "next_attempt_at"));
        assertTrue(waited.compareTo(Duration.ofMinutes(10)) >= 0, waited.toString());
    }

    @Test
    void theDestinationIsCheckedAtEachAttemptAndLoopbackOrANameResolvingToItIsRefusedUnlessAllowed() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-6", T0), T0);
        DestinationPolicy noLoopback = DestinationPolicy.builder()
                .allowHttp(true)
                .resolver(JdkWebhookSender.RESOLVER)
                .build();
        push(noLoopback, PushDelivery.DEFAULT_TIMEOUT).process(claim().orElseThrow());
        assertEquals(0, receiver.received().size(), "nothing sent to a refused address");
        assertEquals("pendente", db.delivery(id, "state"));
        assertTrue(((String) db.delivery(id, "last_error")).startsWith("destino recusado"));

        // A public-looking name that resolves to loopback is refused the same way.
        URI named = URI.create("http://crm.example.test:" + receiver.url("/").getPort() + "/h");
        destination(named, null);
        DestinationPolicy resolvesToLoopback = DestinationPolicy.builder()
                .allowHttp(true)
                .resolver(host -> List.of(InetAddress.getLoopbackAddress()))
                .build();
        clock.advance(Duration.ofMinutes(1));
        push(resolvesToLoopback, PushDelivery.DEFAULT_TIMEOUT).process(claim().orElseThrow());
        assertEquals(0, receiver.received().size());
        assertEquals(2, db.delivery(id, "attempts"));
        assertTrue(
                ((String) db.delivery(id, "last_error")).contains("127.0.0.1"), (String) db.delivery(id, "last_error"));
    }

    @Test
    void aPausedDestinationsDeliveriesWaitAndGoOnceResumed() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-7", T0), T0);
        assertTrue(store.pushDestinations().pause(crm.id(), T0));
        assertTrue(claim().isEmpty());
        assertTrue(store.pushDestinations().resume(crm.id(), T0));
        push(loopbackAllowed(), PushDelivery.DEFAULT_TIMEOUT).process(claim().orElseThrow());
        assertEquals("entregue", db.delivery(id, "state"));
    }

    @Test
    void aClaimedDeliveryIsNotClaimedAgainUntilItsLeaseRunsOutThenItIsTheNextAttempt() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-8", T0), T0);
        Claimed<Delivery> first = claim().orElseThrow();
        assertEquals(1, db.delivery(id, "attempts"), "counted when claimed");
        assertTrue(claim().isEmpty());
        clock.advance(LEASE.minusMillis(1));
        assertTrue(claim().isEmpty());
        clock.advance(Duration.ofMillis(1));
        Claimed<Delivery> again = claim().orElseThrow();
        assertEquals(first.attempt() + 1, again.attempt(), "the dead server's attempt counts");
        assertEquals(first.work().webhookId(), again.work().webhookId());
        assertTrue(!store.deliveryQueue().delivered(id, OWNER + "-gone", clock.instant(), 200));
    }

    @Test
    void attemptsWhoseOutcomesAreNeverRecordedStillEndInFalhouAfterTheSeventh() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-10", T0), T0);
        for (int attempt = 1; attempt <= RetrySchedule.MAX_ATTEMPTS; attempt++) {
            assertEquals(attempt, claim().orElseThrow().attempt());
            clock.advance(LEASE); // the server that claimed it never records anything
        }
        assertTrue(claim().isEmpty(), "no eighth attempt");
        assertEquals("falhou", db.delivery(id, "state"));
        assertEquals(RetrySchedule.MAX_ATTEMPTS, db.delivery(id, "attempts"));
        assertTrue(((String) db.delivery(id, "last_error")).contains("não teve resultado registrado"));
        assertTrue(receiver.received().isEmpty());
    }

    @Test
    void aDeliveryHandedBackUnsentIsNotCounted() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-11", T0), T0);
        Claimed<Delivery> first = claim().orElseThrow();
        store.deliveryQueue().handBack(id, OWNER);
        assertEquals(0, db.delivery(id, "attempts"));
        assertEquals(first.attempt(), claim().orElseThrow().attempt());
    }

    @Test
    void aBodyThatCannotBeRenderedIsACountedFailedAttempt() {
        destination(receiver.url("/h"), null);
        long id = db.readyCall(PushFixture.call(crm, "C-12", T0), T0);
        PushDelivery broken = new PushDelivery(
                store.deliveryQueue(),
                new JdkWebhookSender(Duration.ofSeconds(2), clock),
                loopbackAllowed(),
                RetrySchedule.standard(new SplittableRandom(7)),
                call -> {
                    throw new IllegalStateException("no renderer today");
                },
                clock,
                PushDelivery.DEFAULT_TIMEOUT);
        broken.process(claim().orElseThrow());
        assertEquals("pendente", db.delivery(id, "state"));
        assertEquals(1, db.delivery(id, "attempts"));
        assertEquals(null, db.delivery(id, "lease_owner"), "recorded, not left to its lease");
        assertTrue(((String) db.delivery(id, "last_error")).contains("IllegalStateException"));
        assertTrue(receiver.received().isEmpty());
    }
}
