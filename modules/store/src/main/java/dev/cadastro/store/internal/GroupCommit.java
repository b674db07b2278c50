package dev.cadastro.store.internal;

import dev.cadastro.core.ledger.ChargeResult;
import dev.cadastro.core.ledger.IdempotencyKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The queue and worker threads of a group commit ({@link ChargeBatcher}, {@link AuditBatcher}): a
 * caller queues its charge and waits; a worker takes whatever has queued (at most {@value #MAX_BATCH};
 * nothing waits for a batch to fill) and hands it to the batch, which commits it and completes each
 * caller's answer. A batch that throws fails every caller of it; at close, charges still queued fail
 * without being applied.
 *
 * @param <T> what a caller queues with its charge
 */
final class GroupCommit<T> implements AutoCloseable {
    static final int MAX_BATCH = 64;

    /** One caller's item, the key of its charge (for messages) and the answer it waits for. */
    record Pending<T>(T item, IdempotencyKey key, CompletableFuture<ChargeResult> result) {}

    /** Applies a batch: commits it and completes every pending answer. */
    @FunctionalInterface
    interface Batch<T> {
        void apply(List<Pending<T>> batch);
    }

    private final String owner;
    private final Batch<T> batch;
    private final BlockingQueue<Pending<T>> queue = new LinkedBlockingQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean closed;

    /**
     * @param owner names what is batched in messages, e.g. {@code "the ledger"}
     * @param threadPrefix the workers' thread names, numbered
     */
    GroupCommit(String owner, String threadPrefix, int workers, Batch<T> batch) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.batch = Objects.requireNonNull(batch, "batch");
        for (int i = 0; i < workers; i++) {
            Thread t = Thread.ofPlatform().daemon().name(threadPrefix + i).unstarted(this::work);
            this.workers.add(t);
            t.start();
        }
    }

    /** Queues the item and waits for its batch's answer. */
    ChargeResult submit(T item, IdempotencyKey key) {
        if (closed) {
            throw new IllegalStateException(owner + " is closed");
        }
        Pending<T> pending = new Pending<>(item, key, new CompletableFuture<>());
        queue.add(pending);
        if (closed && queue.remove(pending)) {
            // Closed while we queued: no worker will take it any more.
            throw new IllegalStateException(owner + " closed before charge " + key + " was applied");
        }
        try {
            return pending.result().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted waiting for charge " + key + "; it may still be applied: retry with the same key", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void work() {
        List<Pending<T>> taken = new ArrayList<>(MAX_BATCH);
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
        Pending<T> p;
        while ((p = queue.poll()) != null) {
            p.result()
                    .completeExceptionally(new IllegalStateException(
                            owner + " closed before charge " + p.key() + " was applied; nothing was charged"));
        }
    }

    @Override
    public void close() {
        closed = true;
        workers.forEach(Thread::interrupt);
    }
}
