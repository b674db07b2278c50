package dev.cadastro.server;

import dev.cadastro.core.calls.push.Delivery;
import dev.cadastro.core.calls.push.PushDelivery;
import dev.cadastro.core.calls.push.PushWorkers;
import dev.cadastro.core.calls.push.RetrySchedule;
import dev.cadastro.core.calls.push.WebhookSender;
import dev.cadastro.core.telemetry.Telemetry;
import dev.cadastro.core.work.WorkerPool;
import dev.cadastro.http.callrecords.CallJson;
import dev.cadastro.providers.JdkWebhookSender;
import dev.cadastro.store.Store;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;

/**
 * This server's push workers: the outbox claimed in batches, each call sent as {@code {"metadata":
 * ...}} (the body of {@code GET /v1/ligacoes/{id}}), signed when the destination has a secret.
 * Started with the server and closed with it.
 */
final class PushService implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PushService.class.getName());

    private final Optional<WorkerPool<Delivery>> workers;

    private PushService(Optional<WorkerPool<Delivery>> workers) {
        this.workers = workers;
    }

    static PushService start(Store store, Clock clock, PushOptions options, String owner, Telemetry telemetry) {
        if (!options.enabled()) {
            return new PushService(Optional.empty());
        }
        PushDelivery push = new PushDelivery(
                store.deliveryQueue(),
                counted(new JdkWebhookSender(PushOptions.connectTimeout(options.timeout()), clock), telemetry),
                options.policy(),
                RetrySchedule.standard(new SecureRandom()),
                call -> CallJson.wrapped(call, options.recordingUrl().apply(call)),
                clock,
                options.timeout());
        WorkerPool<Delivery> w = PushWorkers.start(store.deliveryQueue(), push, owner, clock, options.workers());
        LOG.log(
                System.Logger.Level.INFO,
                "push workers: {0} at once, {1} per integration, timeout {2}",
                options.workers().concurrency(),
                options.workers().perIntegration(),
                options.timeout());
        return new PushService(Optional.of(w));
    }

    /** Each attempt's outcome reported to the telemetry. */
    private static WebhookSender counted(WebhookSender sender, Telemetry telemetry) {
        if (telemetry == Telemetry.NONE) {
            return sender;
        }
        return request -> {
            WebhookSender.Outcome outcome = sender.send(request);
            try {
                telemetry.pushAttempted(outcome.kind().name());
            } catch (RuntimeException e) {
                // Monitoring never fails a delivery.
            }
            return outcome;
        };
    }

    /** Says deliveries were just queued on this server. */
    void nudge() {
        workers.ifPresent(WorkerPool::nudge);
    }

    @Override
    public void close() {
        workers.ifPresent(WorkerPool::close);
    }
}
