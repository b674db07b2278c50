package dev.cadastro.providers;

import java.time.Duration;
import java.util.Objects;

/** How a simulated provider misbehaves on a call (see {@link FaultPlan}). */
public sealed interface Fault {

    /** The provider errors: the call throws as a refused connection would. */
    record Down() implements Fault {}

    /**
     * The provider answers after the delay; with a delay above the policy's timeout the guarded call
     * times out (and the simulated call is interrupted).
     */
    record Slow(Duration delay) implements Fault {
        public Slow {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("slow delay " + delay + " must not be negative");
            }
        }
    }

    /** The answer lacks a required field or has one of the wrong type, so it fails validation. */
    record Malformed() implements Fault {}

    /**
     * The answer carries many more unknown and personal fields than usual, at every level, to prove
     * that the allowlist drops them.
     */
    record ExtraFields() implements Fault {}
}
