package dev.cadastro.providers;

import java.time.Duration;
import java.util.Objects;

/**
 * How Cadastro calls one outside provider: an immutable value built with {@link #builder()} and
 * validated when built, with messages that name the knob.
 *
 * <ul>
 *   <li>{@code timeout} (default 2 s): the longest a caller waits for an answer; the call runs on a
 *       virtual thread that is interrupted when it expires.
 *   <li>{@code maxConcurrentCalls} (default 64): calls in flight at once (the bulkhead).
 *       {@code maxWaitForSlot} (default 100 ms, never more than the timeout): how long a call that
 *       finds them all taken waits for one before it fails as {@code SATURATED}. The wait absorbs bursts: 64 calls in flight is
 *       ordinary for a fast provider under 64 concurrent clients (a benchmark at 64 connections with
 *       an instant bureau failed 2% of calls with 32 slots and no wait), while a provider that is
 *       truly slow holds its slots for up to the timeout, so a caller gives up after 100 ms instead
 *       of queueing behind it.
 *   <li>The circuit breaker, over a count-based sliding window of the last {@code slidingWindowSize}
 *       calls (default 20): once at least {@code minimumCalls} (default 10) were recorded and the
 *       share of failures (errors, timeouts, malformed answers) reaches {@code failureRateThreshold}
 *       percent (default 50), the circuit opens and calls fail at once as {@code CIRCUIT_OPEN} for
 *       {@code waitInOpenState} (default 30 s); then {@code permittedCallsInHalfOpen} (default 3)
 *       probe calls decide whether it closes again or stays open for another wait.
 * </ul>
 *
 * No slow-call threshold: a call slower than the timeout is already a failure, and the timeout is the
 * slowness the callers can afford.
 */
public final class ProviderPolicy {
    private final Duration timeout;
    private final int maxConcurrentCalls;
    private final Duration maxWaitForSlot;
    private final int slidingWindowSize;
    private final int minimumCalls;
    private final float failureRateThreshold;
    private final Duration waitInOpenState;
    private final int permittedCallsInHalfOpen;

    private ProviderPolicy(Builder b) {
        this.timeout = b.timeout;
        this.maxConcurrentCalls = b.maxConcurrentCalls;
        // Waiting for a slot longer than a call may take makes no sense: a shorter timeout caps the wait.
        this.maxWaitForSlot = b.maxWaitForSlot.compareTo(b.timeout) > 0 ? b.timeout : b.maxWaitForSlot;
        this.slidingWindowSize = b.slidingWindowSize;
        this.minimumCalls = b.minimumCalls;
        this.failureRateThreshold = b.failureRateThreshold;
        this.waitInOpenState = b.waitInOpenState;
        this.permittedCallsInHalfOpen = b.permittedCallsInHalfOpen;
    }

    /** The defaults listed in the class comment. */
    public static ProviderPolicy defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this policy's values. */
    public Builder toBuilder() {
        return new Builder()
                .timeout(timeout)
                .maxConcurrentCalls(maxConcurrentCalls)
                .maxWaitForSlot(maxWaitForSlot)
                .slidingWindowSize(slidingWindowSize)
                .minimumCalls(minimumCalls)
                .failureRateThreshold(failureRateThreshold)
                .waitInOpenState(waitInOpenState)
                .permittedCallsInHalfOpen(permittedCallsInHalfOpen);
    }

    public Duration timeout() {
        return timeout;
    }

    public int maxConcurrentCalls() {
        return maxConcurrentCalls;
    }

    public Duration maxWaitForSlot() {
        return maxWaitForSlot;
    }

    public int slidingWindowSize() {
        return slidingWindowSize;
    }

    public int minimumCalls() {
        return minimumCalls;
    }

    public float failureRateThreshold() {
        return failureRateThreshold;
    }

    public Duration waitInOpenState() {
        return waitInOpenState;
    }

    public int permittedCallsInHalfOpen() {
        return permittedCallsInHalfOpen;
    }

    @Override
    public String toString() {
        return "ProviderPolicy[timeout=" + timeout + ", maxConcurrentCalls=" + maxConcurrentCalls
                + ", maxWaitForSlot=" + maxWaitForSlot + ", slidingWindowSize=" + slidingWindowSize
                + ", minimumCalls=" + minimumCalls + ", failureRateThreshold=" + failureRateThreshold
                + ", waitInOpenState=" + waitInOpenState + ", permittedCallsInHalfOpen="
                + permittedCallsInHalfOpen + "]";
    }

    /** Mutable; {@link #build()} validates every knob. */
    public static final class Builder {
        private Duration timeout = Duration.ofSeconds(2);
        private int maxConcurrentCalls = 64;
        private Duration maxWaitForSlot = Duration.ofMillis(100);
        private int slidingWindowSize = 20;
        private int minimumCalls = 10;
        private float failureRateThreshold = 50;
        private Duration waitInOpenState = Duration.ofSeconds(30);
        private int permittedCallsInHalfOpen = 3;

        private Builder() {}

        public Builder timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        public Builder maxConcurrentCalls(int maxConcurrentCalls) {
            this.maxConcurrentCalls = maxConcurrentCalls;
            return this;
        }

        public Builder maxWaitForSlot(Duration maxWaitForSlot) {
            this.maxWaitForSlot = Objects.requireNonNull(maxWaitForSlot, "maxWaitForSlot");
            return this;
        }

        public Builder slidingWindowSize(int slidingWindowSize) {
            this.slidingWindowSize = slidingWindowSize;
            return this;
        }

        public Builder minimumCalls(int minimumCalls) {
            this.minimumCalls = minimumCalls;
            return this;
        }

        public Builder failureRateThreshold(float failureRateThreshold) {
            this.failureRateThreshold = failureRateThreshold;
            return this;
        }

        public Builder waitInOpenState(Duration waitInOpenState) {
            this.waitInOpenState = Objects.requireNonNull(waitInOpenState, "waitInOpenState");
            return this;
        }

        public Builder permittedCallsInHalfOpen(int permittedCallsInHalfOpen) {
            this.permittedCallsInHalfOpen = permittedCallsInHalfOpen;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the knob, its value and the limit
         */
        public ProviderPolicy build() {
            if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new IllegalArgumentException("timeout " + timeout + " must be between 1 ms and 5 minutes");
            }
            if (maxConcurrentCalls < 1 || maxConcurrentCalls > 10_000) {
                throw new IllegalArgumentException(
                        "maxConcurrentCalls " + maxConcurrentCalls + " must be between 1 and 10000");
            }
            if (maxWaitForSlot.isNegative() || maxWaitForSlot.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new IllegalArgumentException(
                        "maxWaitForSlot " + maxWaitForSlot + " must be between 0 and 5 minutes");
            }
            if (slidingWindowSize < 1 || slidingWindowSize > 10_000) {
                throw new IllegalArgumentException(
                        "slidingWindowSize " + slidingWindowSize + " must be between 1 and 10000");
            }
            if (minimumCalls < 1 || minimumCalls > slidingWindowSize) {
                throw new IllegalArgumentException("minimumCalls " + minimumCalls
                        + " must be between 1 and the slidingWindowSize " + slidingWindowSize);
            }
            if (!(failureRateThreshold > 0 && failureRateThreshold <= 100)) {
                throw new IllegalArgumentException(
                        "failureRateThreshold " + failureRateThreshold + " must be above 0 and at most 100 (percent)");
            }
            if (waitInOpenState.compareTo(Duration.ofMillis(1)) < 0
                    || waitInOpenState.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException(
                        "waitInOpenState " + waitInOpenState + " must be between 1 ms and 1 hour");
            }
            if (permittedCallsInHalfOpen < 1 || permittedCallsInHalfOpen > 1_000) {
                throw new IllegalArgumentException(
                        "permittedCallsInHalfOpen " + permittedCallsInHalfOpen + " must be between 1 and 1000");
            }
            return new ProviderPolicy(this);
        }
    }
}
