package dev.cadastro.core.calls.push;

import dev.cadastro.core.internal.GracefulShutdown;
import dev.cadastro.core.internal.WakeSignal;
import dev.cadastro.core.work.Claimed;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs push deliveries: one loop claims due deliveries in batches ({@link DeliveryQueue#claimMany}, as
 * many as there are free slots, within the per-integration cap) and runs each on its own virtual
 * thread through {@link PushDelivery}. Idle, it asks again every {@code poll}, or at once after
 * {@link #nudge()}.
 *
 * <p>The core's {@code Workers} claims one item per transaction, which caps a queue at a few hundred
 * items a second on a small machine; deliveries are many and short, so they are claimed in batches
 * here instead of changing {@code Workers}' contract for the mailing jobs. An attempt is bounded by
 * the request timeout, so the lease is not renewed: it must be at least {@link #minimumLease} (checked
 * when built). {@link #close()} stops claiming, lets attempts finish for up to
 * the grace period, then hands the rest back.
 */
public final class PushWorkers implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PushWorkers.class.getName());

    /** The room a lease leaves, past the attempt itself, to record its outcome. */
    public static final Duration RECORD_MARGIN = Duration.ofSeconds(5);

    private final DeliveryQueue queue;
    private final PushDelivery handler;
    private final String owner;
    private final Clock clock;
    private final Options options;
    private final Semaphore slots;
    private final WakeSignal signal = new WakeSignal();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService attempts = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<Long, Boolean> inFlight = new ConcurrentHashMap<>();
    private final Thread loop;

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

    private PushWorkers(DeliveryQueue queue, PushDelivery handler, String owner, Clock clock, Options options) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.options = Objects.requireNonNull(options, "options");
        Duration least = minimumLease(handler.timeout());
        if (options.lease().compareTo(least) < 0) {
            throw new IllegalArgumentException("lease " + options.lease() + " must be at least " + least
                    + " (twice the timeout " + handler.timeout() + " plus " + RECORD_MARGIN
                    + " to record the outcome), or a slow attempt would be sent twice");
        }
        this.slots = new Semaphore(options.concurrency());
        this.loop = Thread.ofPlatform().daemon().name("push-claims").unstarted(this::claimLoop);
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
     */
    public static PushWorkers start(
            DeliveryQueue queue, PushDelivery handler, String owner, Clock clock, Options options) {
        PushWorkers w = new PushWorkers(queue, handler, owner, clock, options);
        w.loop.start();
        return w;
    }

    /** Says deliveries were just queued, so an idle loop claims them now. */
    public void nudge() {
        signal.nudge();
    }

    private void claimLoop() {
        // With a backlog, slots free up one at a time; claiming each alone costs a statement per
        // delivery. Once a claim came back full, wait a moment for a quarter of a batch to free up.
        int gather = Math.max(1, Math.min(options.batch(), options.concurrency()) / 4);
        boolean backlog = false;
        while (running.get()) {
            int free;
            try {
                slots.acquire();
                free = 1 + slots.drainPermits();
                if (backlog && free < gather && slots.tryAcquire(gather - free, 5, TimeUnit.MILLISECONDS)) {
                    free = gather + slots.drainPermits();
                }
            } catch (InterruptedException e) {
                return;
            }
            List<Claimed<Delivery>> claimed;
            try {
                claimed = running.get()
                        ? queue.claimMany(
                                owner,
                                clock.instant(),
                                options.lease(),
                                Math.min(free, options.batch()),
                                options.perIntegration())
                        : List.of();
            } catch (RuntimeException e) {
                slots.release(free);
                LOG.log(System.Logger.Level.WARNING, "push: claiming deliveries failed; retrying after the poll", e);
                idle();
                continue;
            }
            slots.release(free - claimed.size());
            backlog = claimed.size() == Math.min(free, options.batch());
            for (int i = 0; i < claimed.size(); i++) {
                Claimed<Delivery> item = claimed.get(i);
                inFlight.put(item.id(), Boolean.TRUE);
                try {
                    attempts.submit(() -> run(item));
                } catch (RejectedExecutionException e) {
                    // close() shut the attempts down between the claim and here: these were never
                    // started, so they go back uncounted and the loop ends with running false.
                    for (Claimed<Delivery> rest : claimed.subList(i, claimed.size())) {
                        inFlight.remove(rest.id());
                        handBack(rest.id());
                        slots.release();
                    }
                    break;
                }
            }
            if (claimed.isEmpty()) {
                idle();
            }
        }
    }

    private void run(Claimed<Delivery> item) {
        try {
            handler.process(item);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "push: delivery " + item.id() + " failed in its handler", e);
        } finally {
            inFlight.remove(item.id());
            slots.release();
        }
    }

    private void idle() {
        signal.idle(options.poll(), running);
    }

    @Override
    public void close() {
        if (!running.compareAndSet(true, false)) {
            return;
        }
        nudge();
        loop.interrupt();
        try {
            GracefulShutdown.within(attempts, options.grace(), () -> {});
        } finally {
            for (Long id : inFlight.keySet()) {
                handBack(id);
            }
        }
    }

    private void handBack(long id) {
        try {
            queue.handBack(id, owner);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "push: handing delivery " + id + " back failed", e);
        }
    }
}
