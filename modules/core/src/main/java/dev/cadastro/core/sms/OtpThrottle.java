package dev.cadastro.core.sms;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The per-account, per-phone sending limits of the contract: at most one code every
 * {@link #SPACING 30 seconds} and {@link #PER_HOUR 5} per {@link #WINDOW hour}, both sliding. Only
 * dispatches that {@link Delivery#countsAgainstThrottle() count} are passed in: a send refused by an
 * unavailable provider does not use the phone's allowance.
 */
public final class OtpThrottle {
    public static final Duration SPACING = Duration.ofSeconds(30);
    public static final Duration WINDOW = Duration.ofHours(1);
    public static final int PER_HOUR = 5;

    private OtpThrottle() {}

    /**
     * How long until the next send to this phone is allowed, or empty when it is allowed now.
     *
     * @param recent the creation times of the counted dispatches of the last hour, newest first (at
     *     least the {@link #PER_HOUR} newest)
     */
    public static Optional<Duration> wait(List<Instant> recent, Instant now) {
        Duration wait = Duration.ZERO;
        if (!recent.isEmpty()) {
            Duration spacing = Duration.between(now, recent.get(0).plus(SPACING));
            wait = max(wait, spacing);
        }
        if (recent.size() >= PER_HOUR) {
            // The send is allowed once the oldest of the last five leaves the window.
            Duration hourly = Duration.between(now, recent.get(PER_HOUR - 1).plus(WINDOW));
            wait = max(wait, hourly);
        }
        return wait.isPositive() ? Optional.of(wait) : Optional.empty();
    }

    /** A wait as the whole seconds of {@code Retry-After}: rounded up, at least 1. */
    public static long retryAfterSeconds(Duration wait) {
        long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
