package dev.cadastro.providers;

import dev.cadastro.core.provider.MalformedAnswerException;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.provider.ProviderUnavailableException.Failure;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Every call to one outside provider goes through its guard: a circuit breaker, then a bulkhead, then
 * the call itself on a new virtual thread under a time limit (resilience4j's CircuitBreaker, Bulkhead
 * and TimeLimiter, configured from a {@link ProviderPolicy}). Whatever goes wrong reaches the caller as
 * {@link ProviderUnavailableException} with its {@link Failure}:
 *
 * <ul>
 *   <li>{@code CIRCUIT_OPEN} without calling the provider, with {@code retryAfter} = the rest of the
 *       open-state wait;
 *   <li>{@code SATURATED} when every slot is taken (not a provider failure: the breaker does not count it);
 *   <li>{@code TIMEOUT} when the time limit expires: the caller is freed at once and the provider's
 *       thread is interrupted;
 *   <li>{@code MALFORMED} for a {@link MalformedAnswerException}, {@code ERROR} for any other exception.
 * </ul>
 *
 * The last three count as failures for the breaker; any value returned (an empty {@code Optional}
 * included) is a success. Thread-safe; one guard per provider, shared by all its callers.
 */
public final class ProviderGuard implements AutoCloseable {
    private static final Duration HALF_OPEN_RETRY = Duration.ofSeconds(1);

    private final String name;
    private final ProviderPolicy policy;
    private final Clock clock;
    private final CircuitBreaker breaker;
    private final Bulkhead bulkhead;
    private final TimeLimiter limiter;
    private final ExecutorService calls;
    private volatile Instant openedAt = Instant.EPOCH;

    private final LongAdder succeeded = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder saturated = new LongAdder();
    private final LongAdder rejectedOpen = new LongAdder();

    private ProviderGuard(String name, ProviderPolicy policy, Clock clock) {
        this.name = Objects.requireNonNull(name, "name");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.breaker = CircuitBreaker.of(
                name,
                CircuitBreakerConfig.custom()
                        .slidingWindowType(SlidingWindowType.COUNT_BASED)
                        .slidingWindowSize(policy.slidingWindowSize())
                        .minimumNumberOfCalls(policy.minimumCalls())
                        .failureRateThreshold(policy.failureRateThreshold())
                        .waitDurationInOpenState(policy.waitInOpenState())
                        .permittedNumberOfCallsInHalfOpenState(policy.permittedCallsInHalfOpen())
                        .automaticTransitionFromOpenToHalfOpenEnabled(false)
                        .recordException(t -> true)
                        .clock(clock)
                        .build());
        this.bulkhead = Bulkhead.of(
                name,
                BulkheadConfig.custom()
                        .maxConcurrentCalls(policy.maxConcurrentCalls())
                        .maxWaitDuration(policy.maxWaitForSlot())
                        .build());
        this.limiter = TimeLimiter.of(
                name,
                TimeLimiterConfig.custom()
                        .timeoutDuration(policy.timeout())
                        .cancelRunningFuture(true)
                        .build());
        this.calls = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("provider-" + name + "-", 0).factory());
        breaker.getEventPublisher().onStateTransition(e -> {
            if (e.getStateTransition().getToState() == CircuitBreaker.State.OPEN) {
                openedAt = clock.instant();
            }
        });
    }

    /** The guard of the named provider (e.g. {@code bureau}) under the policy, on the system clock. */
    public static ProviderGuard of(String name, ProviderPolicy policy) {
        return of(name, policy, Clock.systemUTC());
    }

    /** The same, with the clock that times the open-state wait (tests move it). */
    public static ProviderGuard of(String name, ProviderPolicy policy, Clock clock) {
        return new ProviderGuard(name, policy, clock);
    }

    public String name() {
        return name;
    }

    public ProviderPolicy policy() {
        return policy;
    }

    /**
     * Calls the provider under the guard.
     *
     * @throws ProviderUnavailableException for every failure (see the class comment); nothing else
     */
    public <T> T call(Supplier<T> call) {
        Objects.requireNonNull(call, "call");
        if (!breaker.tryAcquirePermission()) {
            rejectedOpen.increment();
            throw new ProviderUnavailableException(name, Failure.CIRCUIT_OPEN, retryAfter(), null);
        }
        if (!bulkhead.tryAcquirePermission()) {
            breaker.releasePermission();
            saturated.increment();
            throw new ProviderUnavailableException(name, Failure.SATURATED, null, null);
        }
        long start = System.nanoTime();
        Future<T> future;
        try {
            // The slot is held until the provider's task ends, not until the caller gives up: a provider
            // that ignores the interrupt after a timeout keeps its slot, so calls still running at the
            // provider never exceed maxConcurrentCalls and further calls fail fast as SATURATED.
            future = calls.submit(() -> {
                try {
                    return call.get();
                } finally {
                    bulkhead.onComplete();
                }
            });
        } catch (RejectedExecutionException e) {
            bulkhead.onComplete();
            breaker.releasePermission();
            throw new ProviderUnavailableException(name, Failure.ERROR, null, e);
        }
        try {
            Future<T> running = future;
            T result = limiter.executeFutureSupplier(() -> running);
            breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            succeeded.increment();
            return result;
        } catch (InterruptedException e) {
            // The caller was interrupted, not the provider failing: give the permission back.
            future.cancel(true);
            breaker.releasePermission();
            Thread.currentThread().interrupt();
            throw new ProviderUnavailableException(name, Failure.ERROR, null, e);
        } catch (Throwable t) {
            Throwable cause = t instanceof ExecutionException && t.getCause() != null ? t.getCause() : t;
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, cause);
            Failure failure = failureOf(cause);
            count(failure);
            throw new ProviderUnavailableException(name, failure, null, cause);
        }
    }

    /**
     * Interrupts the provider calls still running and refuses new ones (they fail as {@code ERROR}).
     * The server closes its guards before the register the simulated providers read.
     */
    @Override
    public void close() {
        calls.shutdownNow();
    }

    private static Failure failureOf(Throwable cause) {
        return switch (cause) {
            case TimeoutException t -> Failure.TIMEOUT;
            case MalformedAnswerException m -> Failure.MALFORMED;
            case ProviderUnavailableException p -> p.failure();
            default -> Failure.ERROR;
        };
    }

    private void count(Failure failure) {
        switch (failure) {
            case TIMEOUT -> timeouts.increment();
            case MALFORMED -> malformed.increment();
            default -> errors.increment();
        }
    }

    /** The rest of the open-state wait; a second while half-open probes are already in flight. */
    private Duration retryAfter() {
        if (breaker.getState() != CircuitBreaker.State.OPEN) {
            return HALF_OPEN_RETRY;
        }
        Duration left = Duration.between(clock.instant(), openedAt.plus(policy.waitInOpenState()));
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** A read-only snapshot of the guard's state and counters, for health checks and metrics. */
    public Snapshot snapshot() {
        CircuitBreaker.Metrics m = breaker.getMetrics();
        CircuitState state = switch (breaker.getState()) {
            case CLOSED -> CircuitState.CLOSED;
            case OPEN, FORCED_OPEN -> CircuitState.OPEN;
            case HALF_OPEN -> CircuitState.HALF_OPEN;
            default -> CircuitState.DISABLED;
        };
        return new Snapshot(
                name,
                state,
                state == CircuitState.OPEN ? retryAfter() : Duration.ZERO,
                m.getFailureRate(),
                m.getNumberOfBufferedCalls(),
                bulkhead.getMetrics().getAvailableConcurrentCalls(),
                policy.maxConcurrentCalls(),
                succeeded.sum(),
                errors.sum(),
                timeouts.sum(),
                malformed.sum(),
                saturated.sum(),
                rejectedOpen.sum());
    }

    /** The circuit's state, without resilience4j's types. */
    public enum CircuitState {
        CLOSED,
        OPEN,
        HALF_OPEN,
        DISABLED
    }

    /**
     * @param retryAfter the rest of the open-state wait, zero when not open
     * @param failureRate percent of failures in the sliding window, -1 until it has the minimum calls
     * @param bufferedCalls calls in the sliding window
     * @param availableSlots bulkhead slots free now, of {@code maxConcurrentCalls}
     * @param succeeded calls that returned (empty answers included), since the guard was made
     * @param errors calls that failed with an error
     * @param timeouts calls that timed out
     * @param malformed calls whose answer failed validation
     * @param saturated calls refused because every slot was taken
     * @param rejectedOpen calls refused because the circuit was open
     */
    public record Snapshot(
            String name,
            CircuitState state,
            Duration retryAfter,
            float failureRate,
            int bufferedCalls,
            int availableSlots,
            int maxConcurrentCalls,
            long succeeded,
            long errors,
            long timeouts,
            long malformed,
            long saturated,
            long rejectedOpen) {}
}
