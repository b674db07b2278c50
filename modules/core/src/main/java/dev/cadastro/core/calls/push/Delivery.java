package dev.cadastro.core.calls.push;

import dev.cadastro.core.calls.CallRecord;
import java.time.Instant;
import java.util.Objects;

/**
 * One delivery as a worker claims it: the outbox row with the call and the destination read in the
 * same statement, so an attempt needs no other read before it sends.
 *
 * @param id the outbox row
 * @param webhookId stable across the attempts of this delivery ({@code webhook-id}); receivers dedupe on it
 * @param attempt the attempt this claim makes, 1 for the first (a claim after a crash repeats the
 *     attempt the dead server made: it may or may not have been sent)
 * @param readyAt when the call became ready (or was reclassified), the start of its latency
 */
public record Delivery(
        long id,
        String webhookId,
        DeliveryReason reason,
        int attempt,
        Instant readyAt,
        CallRecord call,
        PushDestination destination) {
    public Delivery {
        Objects.requireNonNull(webhookId, "webhookId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(readyAt, "readyAt");
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(destination, "destination");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt " + attempt + " must be at least 1");
        }
    }
}
