package dev.cadastro.core.calls.push;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When a failed delivery is tried again: one attempt and up to six retries, 30 s, 2 min, 10 min,
 * 30 min, 1 h and 2 h after the attempt before (the schedule in docs/rules.md), each lengthened by a random 0 to 10 % so the retries of many deliveries that failed together (a receiver
 * that was down) do not arrive together. A delivery whose seventh attempt fails is {@code falhou}.
 *
 * <p>A receiver's {@code Retry-After} is honoured within the schedule: the next delay is the larger of
 * the scheduled delay and {@code Retry-After}, the latter capped at the schedule's longest step (2 h),
 * so a receiver can slow its retries down but neither speed them up nor postpone them without end.
 */
public final class RetrySchedule {
    /** The first attempt and six retries. */
    public static final int MAX_ATTEMPTS = 7;

    /** The default delays after attempts 1 to 6. */
    public static final List<Duration> DEFAULT_DELAYS = List.of(
            Duration.ofSeconds(30),
            Duration.ofMinutes(2),
            Duration.ofMinutes(10),
            Duration.ofMinutes(30),
            Duration.ofHours(1),
            Duration.ofHours(2));

    /** The largest jitter, as a fraction of the scheduled delay. */
    public static final double JITTER = 0.10;

    private final List<Duration> delays;
    private final Duration longest;
    private final RandomGenerator random;

    public RetrySchedule(List<Duration> delays, RandomGenerator random) {
        this.delays = List.copyOf(delays);
        if (this.delays.size() != MAX_ATTEMPTS - 1) {
            throw new IllegalArgumentException(
                    "a schedule has " + (MAX_ATTEMPTS - 1) + " delays, got " + this.delays.size());
        }
        for (Duration d : this.delays) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("delay " + d + " must be positive");
            }
        }
        this.longest = this.delays.stream().max(Duration::compareTo).orElseThrow();
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The default schedule with jitter from {@code random}. */
    public static RetrySchedule standard(RandomGenerator random) {
        return new RetrySchedule(DEFAULT_DELAYS, random);
    }

    /**
     * The wait before the next attempt after attempt {@code attempt} failed, or empty when it was the
     * last one and the delivery has failed for good.
     *
     * @param attempt the attempt that just failed, 1 for the first
     * @param retryAfter what the receiver asked for, if it did
     */
    public Optional<Duration> delayAfter(int attempt, Optional<Duration> retryAfter) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt " + attempt + " must be at least 1");
        }
        if (attempt >= MAX_ATTEMPTS) {
            return Optional.empty();
        }
        Duration scheduled = delays.get(attempt - 1);
        long jitterMillis = (long) (scheduled.toMillis() * JITTER * random.nextDouble());
        Duration delay = scheduled.plusMillis(jitterMillis);
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get().compareTo(longest) > 0 ? longest : retryAfter.get();
            if (asked.compareTo(delay) > 0) {
                delay = asked;
            }
        }
        return Optional.of(delay);
    }

    /** The scheduled delay after {@code attempt} without jitter (for the operator's documentation). */
    public Duration nominalDelayAfter(int attempt) {
        return delays.get(attempt - 1);
    }
}
