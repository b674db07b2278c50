package dev.cadastro.core.work;

import dev.cadastro.core.internal.GracefulShutdown;
import dev.cadastro.core.internal.WakeSignal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the items of one {@link WorkQueue}: up to {@code concurrency} at a time, each on its own virtual
 * thread. One loop claims as many items as there are free slots (at most {@code batch} in one claim);
 * idle, it asks the queue again every {@code poll}, or as soon as {@link #nudge()} says new work was
 * added here. {@link #close()} stops claiming, lets running items finish for up to the grace period,
 * then hands the rest back so another server takes them at once.
 *
 * <p>How a lease is kept is the {@link Leases} of the pool: {@link Leases#RENEWED} for long items (a
 * mailing job), renewed every third of the lease while the handler runs; {@link Leases#BOUNDED} for
 * short items whose handler bounds its own run (a push delivery), never renewed, so the lease must
 * outlast the longest run. With a backlog, slots free up one at a time and claiming each alone costs a
 * statement per item: once a claim came back full, the loop waits a moment for a quarter of a batch.
 */
public final class WorkerPool<T> implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WorkerPool.class.getName());

    /** What a worker does with one claimed item; it ends the item itself (completes or fails it). */
    @FunctionalInterface
    public interface Handler<T> {
        void process(Claimed<T> item) throws Exception;
    }

    /** How the pool takes up to {@code max} items in one claim. */
    @FunctionalInterface
    public interface Claim<T> {
        List<Claimed<T>> claim(String owner, Instant now, Duration lease, int max);
    }

    /** How a claimed item keeps its lease while its handler runs. */
    public enum Leases {
        /** Renewed every third of its length; an item that ends frees a slot and looks for more work at once. */
        RENEWED,
        /** Not renewed: the handler bounds its own run within the lease. */
        BOUNDED
    }

    /**
     * How a pool runs.
     *
     * @param name names the pool's threads and its log lines
     * @param concurrency items in flight on this server at most
     * @param batch items taken in one claim at most
     * @param lease how long a claim keeps other servers off an item
     * @param poll how often an idle loop asks the queue again
     * @param grace how long {@link #close()} lets items in flight finish
     */
    public record Options(
            String name, int concurrency, int batch, Duration lease, Duration poll, Duration grace, Leases leases) {
        public Options {
            Objects.requireNonNull(name, "name");
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency " + concurrency + " must be at least 1");
            }
            if (batch < 1) {
                throw new IllegalArgumentException("batch " + batch + " must be at least 1");
            }
            Objects.requireNonNull(lease, "lease");
            Objects.requireNonNull(poll, "poll");
            Objects.requireNonNull(grace, "grace");
            Objects.requireNonNull(leases, "leases");
        }
    }

    private final WorkQueue<T> queue;
    private final Claim<T> claim;
    private final Handler<T> handler;
    private final String owner;
    private final Clock clock;
    private final Options options;
    private final Semaphore slots;
    private final WakeSignal signal = new WakeSignal();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService items = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService renewals;
    private final Map<Long, Boolean> inFlight = new ConcurrentHashMap<>();
    private final Thread loop;

    private WorkerPool(
            WorkQueue<T> queue, Claim<T> claim, Handler<T> handler, String owner, Clock clock, Options options) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.claim = Objects.requireNonNull(claim, "claim");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.options = Objects.requireNonNull(options, "options");
        this.slots = new Semaphore(options.concurrency());
        this.renewals = options.leases() == Leases.RENEWED
                ? Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                        .daemon()
                        .name(options.name() + "-leases")
                        .factory())
                : null;
        this.loop =
                Thread.ofPlatform().daemon().name(options.name() + "-claims").unstarted(this::claimLoop);
    }

    /**
     * Starts a pool that claims through {@code claim} (a batch claim of the queue, for instance).
     *
     * @param owner names this server in the leases (host, process), unique among the servers
     */
    public static <T> WorkerPool<T> start(
            WorkQueue<T> queue, Claim<T> claim, Handler<T> handler, String owner, Clock clock, Options options) {
        WorkerPool<T> pool = new WorkerPool<>(queue, claim, handler, owner, clock, options);
        pool.loop.start();
        return pool;
    }

    /**
     * Starts a pool that claims one item per {@link WorkQueue#claim} and renews its lease while it runs.
     *
     * @param owner names this server in the leases (host, process), unique among the servers
     */
    public static <T> WorkerPool<T> start(
            String name,
            WorkQueue<T> queue,
            Handler<T> handler,
            String owner,
            Clock clock,
            int concurrency,
            Duration lease,
            Duration poll,
            Duration grace) {
        Claim<T> one = (o, now, l, max) -> queue.claim(o, now, l).map(List::of).orElse(List.of());
        return start(
                queue,
                one,
                handler,
                owner,
                clock,
                new Options(name, concurrency, 1, lease, poll, grace, Leases.RENEWED));
    }

    /** Says that work was just added, so an idle loop claims it now rather than at its next poll. */
    public void nudge() {
        signal.nudge();
    }

    private void claimLoop() {
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
            int max = Math.min(free, options.batch());
            List<Claimed<T>> claimed;
            try {
                claimed = running.get() ? claim.claim(owner, clock.instant(), options.lease(), max) : List.of();
            } catch (RuntimeException e) {
                slots.release(free);
                LOG.log(
                        System.Logger.Level.WARNING,
                        options.name() + ": claiming work failed; retrying after the poll interval",
                        e);
                idle();
                continue;
            }
            slots.release(free - claimed.size());
            backlog = claimed.size() == max;
            for (int i = 0; i < claimed.size(); i++) {
                Claimed<T> item = claimed.get(i);
                inFlight.put(item.id(), Boolean.TRUE);
                try {
                    items.submit(() -> run(item));
                } catch (RejectedExecutionException e) {
                    // close() shut the items down between the claim and here: these were never started,
                    // so they go back uncounted and the loop ends with running false.
                    for (Claimed<T> rest : claimed.subList(i, claimed.size())) {
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

    private void run(Claimed<T> item) {
        ScheduledFuture<?> renewal = renewals == null ? null : scheduleRenewals(item);
        try {
            handler.process(item);
        } catch (Exception | Error e) {
            LOG.log(System.Logger.Level.ERROR, options.name() + ": item " + item.id() + " failed in its handler", e);
        } finally {
            if (renewal != null) {
                renewal.cancel(false);
            }
            inFlight.remove(item.id());
            slots.release();
            if (renewals != null) {
                nudge(); // a free slot: look for more work now
            }
        }
    }

    private ScheduledFuture<?> scheduleRenewals(Claimed<T> item) {
        long every = Math.max(1, options.lease().toMillis() / 3);
        return renewals.scheduleWithFixedDelay(
                () -> {
                    try {
                        if (!queue.renew(item.id(), owner, clock.instant(), options.lease())) {
                            LOG.log(
                                    System.Logger.Level.WARNING,
                                    "{0}: lost the lease of item {1}",
                                    options.name(),
                                    item.id());
                        }
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, options.name() + ": renewing a lease failed", e);
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
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
            GracefulShutdown.within(
                    items,
                    options.grace(),
                    () -> LOG.log(
                            System.Logger.Level.WARNING,
                            "{0}: items still running after {1}; handing them back",
                            options.name(),
                            options.grace()));
        } finally {
            if (renewals != null) {
                renewals.shutdownNow();
            }
            // What did not end in time goes back to the queue; the queue ignores items already ended.
            for (Long id : inFlight.keySet()) {
                handBack(id);
            }
        }
    }

    private void handBack(long id) {
        try {
            queue.handBack(id, owner);
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    options.name() + ": handing item " + id + " back failed; its lease will run out",
                    e);
        }
    }
}
