package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.calls.push.Delivery;
import dev.cadastro.core.calls.push.DeliveryReason;
import dev.cadastro.core.calls.push.DestinationPolicy;
import dev.cadastro.core.calls.push.PushDelivery;
import dev.cadastro.core.calls.push.PushDestination;
import dev.cadastro.core.calls.push.RetrySchedule;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.work.Claimed;
import dev.cadastro.http.callrecords.CallJson;
import dev.cadastro.providers.JdkWebhookSender;
import dev.cadastro.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Reclassification through the real ingest ({@code PgCallStore.ingest} writes the outbox rows in the
 * call's transaction): a ready call is pushed once; reclassified, it is pushed again with its new
 * result when the destination resends reclassified calls, and not when it does not.
 */
class PushReclassificationTest {
    private static final Instant T0 = Instant.parse("2026-03-10T15:00:00Z");

    private static CallRecord reclassified(CallRecord c, Instant at, String description) {
        return new CallRecord(
                c.integrationId(),
                c.id(),
                c.occurrenceId(),
                c.agentId(),
                c.agentLogin(),
                c.agentName(),
                c.queue(),
                "99",
                description,
                at,
                c.startedAt(),
                c.durationSeconds(),
                c.archivedAt(),
                c.recordingKey());
    }

    private static List<LoopbackReceiver.Received> pushAll(
            Store store, ManualClock clock, LoopbackReceiver receiver, int expected) {
        PushDelivery push = new PushDelivery(
                store.deliveryQueue(),
                new JdkWebhookSender(Duration.ofSeconds(2), clock),
                DestinationPolicy.builder()
                        .allowHttp(true)
                        .allowLoopback(true)
                        .resolver(JdkWebhookSender.RESOLVER)
                        .build(),
                RetrySchedule.standard(new SplittableRandom(3)),
                call -> CallJson.wrapped(call, "https://gravacoes.example/" + call.id()),
                clock,
                PushDelivery.DEFAULT_TIMEOUT);
        List<Claimed<Delivery>> due =
                store.deliveryQueue().claimMany("t", clock.instant(), Duration.ofMinutes(1), 10, 10);
        assertEquals(expected, due.size(), "deliveries queued");
        due.forEach(push::process);
        return receiver.received();
    }

    private void run(boolean resend) throws Exception {
        ManualClock clock = new ManualClock(T0);
        PushFixture db = PushFixture.fresh();
        try (Store store = db.open(clock);
                LoopbackReceiver receiver = LoopbackReceiver.ok()) {
            Integration crm = db.integration("crm");
            store.pushDestinations()
                    .set(new PushDestination(crm, receiver.url("/h"), "X-Api-Key", "k", resend, null, true), T0);
            CallRecord call = PushFixture.call(crm, "RC-1", T0.minusSeconds(60));
            store.calls().ingest(List.of(call));
            List<LoopbackReceiver.Received> first = pushAll(store, clock, receiver, 1);
            assertTrue(first.getFirst().text().contains("\"ocorrencia_descricao\":\"Venda realizada\""));

            clock.advance(Duration.ofMinutes(3));
            store.calls().ingest(List.of(reclassified(call, T0.plusSeconds(60), "Retornar depois")));
            List<LoopbackReceiver.Received> all = pushAll(store, clock, receiver, resend ? 1 : 0);
            if (resend) {
                assertEquals(2, all.size());
                LoopbackReceiver.Received again = all.get(1);
                assertTrue(again.text().contains("\"ocorrencia_descricao\":\"Retornar depois\""), again.text());
                assertTrue(
                        !again.header("webhook-id").equals(first.getFirst().header("webhook-id")),
                        "a reclassification is a new delivery, with its own webhook-id");
                assertEquals(
                        DeliveryReason.RECLASSIFICADA,
                        store.deliveryQueue()
                                .list(crm.id(), java.util.Optional.empty(), 10)
                                .getFirst()
                                .reason());
            } else {
                assertEquals(1, all.size(), "not resent");
            }
        }
    }

    @Test
    void aReclassifiedCallIsPushedAgainWhenTheDestinationResendsReclassifiedCalls() throws Exception {
        run(true);
    }

    @Test
    void aReclassifiedCallIsNotPushedAgainWhenTheDestinationDoesNotResend() throws Exception {
        run(false);
    }
}
