package dev.cadastro.core.internal;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Ends the tasks of a worker loop on close: a grace period to finish, then an interrupt. */
public final class GracefulShutdown {
    private GracefulShutdown() {}

    /**
     * Shuts {@code tasks} down and lets them run for up to {@code grace}; what still runs then is
     * interrupted ({@code overrun} runs first, to say so) and given {@code grace} again. Interrupted
     * itself, it returns at once with the thread's interrupt flag set.
     */
    public static void within(ExecutorService tasks, Duration grace, Runnable overrun) {
        tasks.shutdown();
        try {
            if (!tasks.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                overrun.run();
                tasks.shutdownNow();
                tasks.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
