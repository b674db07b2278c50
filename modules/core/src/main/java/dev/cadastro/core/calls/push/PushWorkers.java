package dev.cadastro.core.calls.push;

import dev.cadastro.core.work.WorkerPool;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Push deliveries on a {@link WorkerPool}: one loop claims due deliveries in batches ({@link
 * DeliveryQueue#claimMany}, as many as there are free slots, within the per-integration cap) and runs
 * each on its own virtual thread through {@link PushDelivery}.
 *
 * <p>A claim of one item per transaction caps a queue at a few hundred items a second on a small
 * machine; deliveries are many and short, so they are claimed in batches. An attempt is bounded by the
 * request timeout, so the lease is not renewed ({@link WorkerPool.Leases#BOUNDED}): it must be at least
 * {@link #minimumLease} (checked when started).
 */
public final class PushWorkers {
    /** The room a lease leaves, past the attempt itself, to record its outcome. */
    public static final Duration RECORD_MARGIN = Duration.ofSeconds(5);

    private PushWorkers() {}

    /**
     * How the workers run.
     *
     * @param concurrency attempts in flight on this server at most
     * @param perIntegration attempts in flight for one integration across all servers at most: what a
     *     slow or dead receiver can hold
     * @param batch deliveries claimed in one statement at most
     * @param lease how long a claim keeps other servers off a delivery; at least {@link #minimumLease}
     * @param poll how often an idle loop looks for due deliveries
     * @param grace how long {@link #close()} lets attempts in flight finish
     */
    public record Options(
            int concurrency, int perIntegration, int batch, Duration lease, Duration poll, Duration grace) {
        public Options {
            if (concurrency < 1 || perIntegration < 1 || batch < 1) {
                throw new IllegalArgumentException("concurrency " + concurrency + ", perIntegration " + perIntegration
                        + " and batch " + batch + " must be at least 1");
            }
            Objects.requireNonNull(lease, "lease");
            Objects.requireNonNull(poll, "poll");
            Objects.requireNonNull(grace, "grace");
        }

        /** 64 in flight, 16 per integration, batches of 64, a 60 s lease, polled every 250 ms, 5 s grace. */
        public static Options defaults() {
            return new Options(64, 16, 64, Duration.ofSeconds(60), Duration.ofMillis(250), Duration.ofSeconds(5));
        }

        public Options withConcurrency(int concurrency, int perIntegration) {
            return new Options(concurrency, perIntegration, batch, lease, poll, grace);
        }

        public Options withLease(Duration lease) {
            return new Options(concurrency, perIntegration, batch, lease, poll, grace);
        }

        public Options withPoll(Duration poll) {
            return new Options(concurrency, perIntegration, batch, lease, poll, grace);
        }
    }

    /**
     * The shortest lease an attempt bounded by {@code timeout} may run under: the sender keeps the whole
     * exchange, a re-send on a stale connection included, within the timeout; twice that, plus {@link
     * #RECORD_MARGIN}, leaves room for a slow database and for servers' clocks that differ a little.
     */
    public static Duration minimumLease(Duration timeout) {
        return timeout.multipliedBy(2).plus(RECORD_MARGIN);
    }

    /**
     * Starts the workers.
     *
     * @param owner names this server in the leases, unique among the servers
     * @throws IllegalArgumentException when the lease is shorter than {@link #minimumLease} of the timeout
     */
    public static WorkerPool<Delivery> start(
            DeliveryQueue queue, PushDelivery handler, String owner, Clock clock, Options options) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(options, "options");
        Duration least = minimumLease(handler.timeout());
        if (options.lease().compareTo(least) < 0) {
            throw new IllegalArgumentException("lease " + options.lease() + " must be at least " + least
                    + " (twice the timeout " + handler.timeout() + " plus " + RECORD_MARGIN
                    + " to record the outcome), or a slow attempt would be sent twice");
        }
        int perIntegration = options.perIntegration();
        return WorkerPool.start(
                queue,
                (o, now, lease, max) -> queue.claimMany(o, now, lease, max, perIntegration),
                handler::process,
                owner,
                clock,
                new WorkerPool.Options(
                        "push",
                        options.concurrency(),
                        options.batch(),
                        options.lease(),
                        options.poll(),
                        options.grace(),
                        WorkerPool.Leases.BOUNDED));
    }
}
