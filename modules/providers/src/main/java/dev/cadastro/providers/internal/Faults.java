package dev.cadastro.providers.internal;

import dev.cadastro.providers.Fault;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;

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

    /**
     * Shapes a raw answer as an answer-shaping fault asks, drawing from a random source seeded by the
     * document asked about: {@link Fault.Malformed} breaks it by {@code breaker}, {@link
     * Fault.ExtraFields} floods it with personal fields ({@link PersonalNoise#flood}); any other fault,
     * or none, leaves it as it is.
     */
    public static void shapeAnswer(
            Optional<Fault> fault,
            String document,
            Map<String, Object> tree,
            BiConsumer<Map<String, Object>, SplittableRandom> breaker) {
        if (fault.isEmpty()) {
            return;
        }
        SplittableRandom r = Seeds.random("fault", document);
        switch (fault.get()) {
            case Fault.Malformed m -> breaker.accept(tree, r);
            case Fault.ExtraFields x -> PersonalNoise.flood(tree, r);
            default -> {}
        }
    }
}
