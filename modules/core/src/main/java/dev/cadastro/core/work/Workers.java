package dev.cadastro.core.work;

import dev.cadastro.core.internal.GracefulShutdown;
import dev.cadastro.core.internal.WakeSignal;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the items of one {@link WorkQueue}: up to {@code concurrency} at a time, each on its own virtual
 * thread, the lease renewed every third of its length while the handler runs. Idle, it asks the queue
 * again every {@code poll} or as soon as {@link #nudge()} says new work was added here. {@link
 * #close()} stops claiming, lets running items finish for up to the grace period, then hands the rest
 * back so another server takes them at once.
 */
public final class Workers implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Workers.class.getName());

    /** What a worker does with one claimed item; it ends the item itself (completes or fails it). */
    @FunctionalInterface
    public interface Handler<T> {
        void process(Claimed<T> item) throws Exception;
    }

    private final String name;
    private final WorkQueue<?> queue;
    private final String owner;
    private final Clock clock;
    private final Duration lease;
    private final Duration poll;
    private final Duration grace;
    private final Semaphore slots;
    private final WakeSignal signal = new WakeSignal();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService items = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService renewals;
    private final Thread loop;
    private final java.util.Map<Long, Boolean> inFlight = new java.util.concurrent.ConcurrentHashMap<>();

    private <T> Workers(
            String name,
            WorkQueue<T> queue,
            Handler<T> handler,
            String owner,
            Clock clock,
            int concurrency,
            Duration lease,
            Duration poll,
            Duration grace) {
        this.name = Objects.requireNonNull(name, "name");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency " + concurrency + " must be at least 1");
        }
        this.slots = new Semaphore(concurrency);
        this.lease = Objects.requireNonNull(lease, "lease");
        this.poll = Objects.requireNonNull(poll, "poll");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.renewals = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name(name + "-leases").factory());
        this.loop = Thread.ofPlatform().daemon().name(name + "-claims").unstarted(() -> claimLoop(queue, handler));
    }

    /**
     * Starts workers on a queue.
     *
     * @param owner names this server in the leases (host, process), unique among the servers
     */
    public static <T> Workers start(
            String name,
            WorkQueue<T> queue,
            Handler<T> handler,
            String owner,
            Clock clock,
            int concurrency,
            Duration lease,
            Duration poll,
            Duration grace) {
        Workers w = new Workers(name, queue, handler, owner, clock, concurrency, lease, poll, grace);
        w.loop.start();
        return w;
    }

    /** Says that work was just added, so an idle loop claims it now rather than at its next poll. */
    public void nudge() {
        signal.nudge();
    }

    private <T> void claimLoop(WorkQueue<T> q, Handler<T> handler) {
        while (running.get()) {
            try {
                slots.acquire();
            } catch (InterruptedException e) {
                return;
            }
            Optional<Claimed<T>> claimed;
            try {
                claimed = running.get() ? q.claim(owner, clock.instant(), lease) : Optional.empty();
            } catch (RuntimeException e) {
                slots.release();
                LOG.log(
                        System.Logger.Level.WARNING,
                        name + ": claiming work failed; retrying after the poll interval",
                        e);
                idle();
                continue;
            }
            if (claimed.isEmpty()) {
                slots.release();
                idle();
                continue;
            }
            Claimed<T> item = claimed.get();
            inFlight.put(item.id(), Boolean.TRUE);
            items.submit(() -> run(q, handler, item));
        }
    }

    private <T> void run(WorkQueue<T> q, Handler<T> handler, Claimed<T> item) {
        long every = Math.max(1, lease.toMillis() / 3);
        ScheduledFuture<?> renewal = renewals.scheduleWithFixedDelay(
                () -> {
                    try {
                        if (!q.renew(item.id(), owner, clock.instant(), lease)) {
                            LOG.log(System.Logger.Level.WARNING, "{0}: lost the lease of item {1}", name, item.id());
                        }
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, name + ": renewing a lease failed", e);
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
        try {
            handler.process(item);
        } catch (Exception | Error e) {
            LOG.log(System.Logger.Level.ERROR, name + ": item " + item.id() + " failed in its handler", e);
        } finally {
            renewal.cancel(false);
            inFlight.remove(item.id());
            slots.release();
            nudge(); // a free slot: look for more work now
        }
    }

    private void idle() {
        signal.idle(poll, running);
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
                    grace,
                    () -> LOG.log(
                            System.Logger.Level.WARNING,
                            "{0}: items still running after {1}; handing them back",
                            name,
                            grace));
        } finally {
            renewals.shutdownNow();
            // What did not end in time goes back to the queue; the queue ignores items already ended.
            for (Long id : inFlight.keySet()) {
                try {
                    queue.handBack(id, owner);
                } catch (RuntimeException e) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            name + ": handing item " + id + " back failed; its lease will run out",
                            e);
                }
            }
        }
    }
}
