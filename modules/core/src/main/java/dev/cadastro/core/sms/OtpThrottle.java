package dev.cadastro.core.sms;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

    /**
     * One limit of the rule: the {@code nth} newest counted send (1 the newest) must be at least {@code
     * age} old for a new send to be allowed.
     */
    public record Limit(int nth, Duration age) {}

    /**
     * The rule, and its only statement: the newest counted send at least {@link #SPACING} old, the
     * {@link #PER_HOUR}th newest at least {@link #WINDOW} old (that is, fewer than five in the window).
     * {@link #wait} applies it in Java; the store applies the same limits in SQL from {@link
     * #latestAllowed} without knowing them.
     */
    public static final List<Limit> LIMITS = List.of(new Limit(1, SPACING), new Limit(PER_HOUR, WINDOW));

    private OtpThrottle() {}

    /**
     * How long until the next send to this phone is allowed, or empty when it is allowed now.
     *
     * @param recent the creation times of the counted dispatches of the last hour, newest first (at
     *     least the {@link #PER_HOUR} newest)
     */
    public static Optional<Duration> wait(List<Instant> recent, Instant now) {
        Duration wait = Duration.ZERO;
        for (Limit limit : LIMITS) {
            if (recent.size() >= limit.nth()) {
                // Allowed once that send is old enough: the newest after 30 seconds, the fifth newest
                // once it leaves the window.
                wait = max(
                        wait, Duration.between(now, recent.get(limit.nth() - 1).plus(limit.age())));
            }
        }
        return wait.isPositive() ? Optional.of(wait) : Optional.empty();
    }

    /**
     * The rule as data for a send at {@code now}: for each limit, the {@code nth} newest counted send
     * and the latest time it may have, {@code now} minus its age. A send is allowed exactly when no send
     * is later than its bound, as {@link #wait} says.
     */
    public static Map<Integer, Instant> latestAllowed(Instant now) {
        Map<Integer, Instant> bounds = new TreeMap<>();
        for (Limit limit : LIMITS) {
            bounds.put(limit.nth(), now.minus(limit.age()));
        }
        return bounds;
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
