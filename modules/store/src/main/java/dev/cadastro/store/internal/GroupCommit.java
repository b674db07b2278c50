package dev.cadastro.store.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The queue and worker threads of a group commit ({@link ChargeBatcher}, {@link AuditBatcher},
 * {@link AdmissionBatcher}): a caller queues its item and waits; a worker takes whatever has queued (at
 * most {@value #MAX_BATCH}; nothing waits for a batch to fill) and hands it to the batch, which commits
 * it and completes each caller's answer. A batch that throws fails every caller of it; at close, items
 * still queued fail without being applied.
 *
 * @param <T> what a caller queues
 * @param <R> the answer a caller waits for
 */
final class GroupCommit<T, R> implements AutoCloseable {
    static final int MAX_BATCH = 64;

    /** One caller's item, what it is in messages (e.g. {@code "charge K"}) and the answer it waits for. */
    record Pending<T, R>(T item, String label, CompletableFuture<R> result) {}

    /** Applies a batch: commits it and completes every pending answer. */
    @FunctionalInterface
    interface Batch<T, R> {
        void apply(List<Pending<T, R>> batch);
    }

    private final String owner;
    private final Batch<T, R> batch;
    private final BlockingQueue<Pending<T, R>> queue = new LinkedBlockingQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean closed;

    /**
     * @param owner names what is batched in messages, e.g. {@code "the ledger"}
     * @param threadPrefix the workers' thread names, numbered
     */
    GroupCommit(String owner, String threadPrefix, int workers, Batch<T, R> batch) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.batch = Objects.requireNonNull(batch, "batch");
        for (int i = 0; i < workers; i++) {
            Thread t = Thread.ofPlatform().daemon().name(threadPrefix + i).unstarted(this::work);
            this.workers.add(t);
            t.start();
        }
    }

    /**
     * Queues the item and waits for its batch's answer.
     *
     * @param label what the item is, in messages: {@code "charge K"}, {@code "admission of key P"}
     */
    R submit(T item, String label) {
        if (closed) {
            throw new IllegalStateException(owner + " is closed");
        }
        Pending<T, R> pending = new Pending<>(item, label, new CompletableFuture<>());
        queue.add(pending);
        if (closed && queue.remove(pending)) {
            // Closed while we queued: no worker will take it any more.
            throw new IllegalStateException(owner + " closed before " + label + " was applied");
        }
        try {
            return pending.result().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted waiting for " + label
                            + "; it may still be applied (a charge: retry with the same key)",
                    e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void work() {
        List<Pending<T, R>> taken = new ArrayList<>(MAX_BATCH);
        while (!closed) {
            try {
                taken.add(queue.take());
            } catch (InterruptedException e) {
                break;
            }
            queue.drainTo(taken, MAX_BATCH - 1);
            try {
                batch.apply(taken);
            } catch (RuntimeException | Error e) {
                taken.forEach(p -> p.result().completeExceptionally(e));
            }
            taken.clear();
        }
        Pending<T, R> p;
        while ((p = queue.poll()) != null) {
            p.result()
                    .completeExceptionally(new IllegalStateException(
                            owner + " closed before " + p.label() + " was applied; nothing of it was done"));
        }
    }

    @Override
    public void close() {
        closed = true;
        workers.forEach(Thread::interrupt);
    }
}
