package dev.cadastro.providers.internal;

import dev.cadastro.providers.Fault;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/** What a simulated provider does before answering, for the fault of a call. */
public final class Faults {
    private Faults() {}

    /**
     * Throws for {@link Fault.Down}; sleeps for {@link Fault.Slow} (an interrupt ends the sleep and the
     * call, as a cancelled outside call would).
     */
    public static void beforeAnswer(String provider, Optional<Fault> fault) {
        if (fault.isEmpty()) {
            return;
        }
        switch (fault.get()) {
            case Fault.Down d ->
                throw new UncheckedIOException(
                        new IOException("simulated " + provider + " is down: connection refused"));
            case Fault.Slow s -> {
                try {
                    Thread.sleep(s.delay());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UncheckedIOException(
                            new java.io.InterruptedIOException("simulated " + provider + " call interrupted"));
                }
            }
            case Fault.Malformed m -> {}
            case Fault.ExtraFields x -> {}
        }
    }
}
