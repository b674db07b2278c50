package dev.cadastro.core.calls.push;

import java.time.Instant;
import java.util.Optional;

/**
 * What the operator sees of one delivery.
 *
 * @param attempts the attempts whose outcome was recorded
 * @param lastError what the last failed attempt met (a status, a timeout, a refused destination), never a secret
 */
public record DeliveryStatus(
        long id,
        String integration,
        String callId,
        String webhookId,
        DeliveryReason reason,
        DeliveryState state,
        int attempts,
        Instant readyAt,
        Instant nextAttemptAt,
        Optional<Instant> deliveredAt,
        Optional<Integer> lastStatus,
        Optional<String> lastError) {}
