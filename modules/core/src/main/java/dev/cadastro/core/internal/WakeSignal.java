package dev.cadastro.core.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wakes an idle claim loop: the loop {@link #idle waits} up to its poll interval unless {@link
 * #nudge()} was called since its last wait, so work added on this server is claimed at once rather
 * than at the next poll. Shared by the core's worker loops.
 */
public final class WakeSignal {
    private boolean nudged;

    /** Says that work was just added or a slot just freed up: the next or current wait ends at once. */
    public synchronized void nudge() {
        nudged = true;
        notifyAll();
    }

    /**
     * Waits up to {@code poll} (at least a millisecond) unless nudged since the last wait or {@code
     * running} is already false. Interrupted, it keeps the thread's interrupt flag and clears {@code
     * running}, which ends the loop.
     */
    public synchronized void idle(Duration poll, AtomicBoolean running) {
        if (!nudged && running.get()) {
            try {
                wait(Math.max(1, poll.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.set(false);
            }
        }
        nudged = false;
    }
}
