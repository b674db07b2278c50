package dev.cadastro.core.calls.push;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.work.Claimed;
import dev.cadastro.core.work.WorkerPool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Makes one attempt of one claimed delivery: checks the destination again (the policy, before every
 * connection), renders the body, signs it when the destination has a secret, sends it, and records
 * the outcome: any 2xx is {@code entregue}; anything else (another status, a redirect, a timeout, a
 * refused connection or destination) is retried on the {@link RetrySchedule}, and after the seventh
 * attempt the delivery is {@code falhou}.
 *
 * <p>The attempt was counted when it was claimed; its outcome is recorded after the request, which
 * is sent outside any transaction: a server that dies after sending leaves the row leased, and once
 * the lease runs out another server sends it again with the same {@code webhook-id} as the next
 * attempt (a crash costs one of the seven; ADR 0025).
 */
public final class PushDelivery implements WorkerPool.Handler<Delivery> {
    private static final System.Logger LOG = System.getLogger(PushDelivery.class.getName());

    /** The default time a receiver has to answer. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final DeliveryQueue queue;
    private final WebhookSender sender;
    private final DestinationPolicy policy;
    private final RetrySchedule schedule;
    private final Function<CallRecord, byte[]> renderer;
    private final Clock clock;
    private final Duration timeout;

    /**
     * @param renderer the request body of a call: {@code {"metadata": {...}}} exactly as {@code GET
     *     /v1/ligacoes/{id}} writes it
     */
    public PushDelivery(
            DeliveryQueue queue,
            WebhookSender sender,
            DestinationPolicy policy,
            RetrySchedule schedule,
            Function<CallRecord, byte[]> renderer,
            Clock clock,
            Duration timeout) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.sender = Objects.requireNonNull(sender, "sender");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.schedule = Objects.requireNonNull(schedule, "schedule");
        this.renderer = Objects.requireNonNull(renderer, "renderer");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout " + timeout + " must be positive");
        }
    }

    public Duration timeout() {
        return timeout;
    }

    @Override
    public void process(Claimed<Delivery> item) {
        Delivery d = item.work();
        WebhookSender.Outcome outcome = attempt(d);
        if (Thread.currentThread().isInterrupted()) {
            // The server is stopping: the attempt was cut short, not answered. Record nothing; the
            // workers hand the delivery back and another server makes this attempt again.
            return;
        }
        Instant now = clock.instant();
        boolean recorded;
        if (outcome.delivered()) {
            recorded = queue.delivered(
                    item.id(), item.owner(), now, outcome.status().orElseThrow());
        } else {
            Optional<Duration> wait = schedule.delayAfter(d.attempt(), outcome.retryAfter());
            recorded = wait.isPresent()
                    ? queue.retryAt(item.id(), item.owner(), now.plus(wait.get()), outcome.status(), outcome.detail())
                    : queue.failed(item.id(), item.owner(), now, outcome.status(), outcome.detail());
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "delivery {0} of call {1} to {2}: attempt {3} failed ({4}); {5}",
                    item.id(),
                    d.call().id(),
                    d.destination().integration().name(),
                    d.attempt(),
                    outcome.detail(),
                    wait.map(w -> "next in " + w).orElse("falhou"));
        }
        if (!recorded) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "delivery {0}: the lease ran out before the outcome was recorded; it will be sent again",
                    item.id());
        }
    }

    /**
     * One attempt; never throws. Whatever fails on this side (rendering the body, signing it, the
     * sender itself) is a failed attempt like the receiver's failures, so it is counted and ends in
     * {@code falhou} after the seventh instead of repeating forever.
     */
    WebhookSender.Outcome attempt(Delivery d) {
        try {
            return send(d);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "delivery " + d.id() + ": the attempt failed on this server", e);
            return new WebhookSender.Outcome(
                    WebhookSender.Kind.CONNECTION,
                    Optional.empty(),
                    Optional.empty(),
                    "envio falhou neste servidor: " + e.getClass().getSimpleName());
        }
    }

    private WebhookSender.Outcome send(Delivery d) {
        PushDestination dest = d.destination();
        try {
            policy.check(dest.url());
        } catch (DestinationRefusedException e) {
            return new WebhookSender.Outcome(
                    WebhookSender.Kind.CONNECTION,
                    Optional.empty(),
                    Optional.empty(),
                    "destino recusado: " + e.getMessage());
        }
        byte[] body = renderer.apply(d.call());
        long timestamp = clock.instant().getEpochSecond();
        WebhookSender.Stamp stamp = new WebhookSender.Stamp(
                d.webhookId(),
                timestamp,
                dest.secret().map(s -> WebhookSignature.sign(s, d.webhookId(), timestamp, body)));
        return sender.send(new WebhookSender.Request(
                dest.url(),
                List.of(Map.entry(dest.headerName(), dest.headerValue())),
                Optional.of(stamp),
                body,
                timeout));
    }
}
