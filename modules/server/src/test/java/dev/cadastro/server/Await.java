package dev.cadastro.server;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits on state a test can observe (a row, a status, a counter), never on the passing of time alone. */
final class Await {
    private Await() {}

    /** Polls {@code done} until it holds, failing the test with {@code what} after {@code within}. */
    static void until(String what, BooleanSupplier done, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + within + ": " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting: " + what, e);
            }
        }
    }
}
