package dev.cadastro.core.sms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * The sending limits against an oracle that reads the rule literally (no send in the last 30 s, fewer
 * than 5 in the last hour): the wait is exactly the first instant the oracle allows.
 */
class OtpThrottleProperties {
    private static final Instant T0 = Instant.parse("2026-11-23T12:00:00Z");

    @Property(tries = 3000)
    void theWaitEndsExactlyWhenTheRuleAllowsASend(
            @ForAll @Size(max = 12) List<@LongRange(min = 0, max = 7_200_000) Long> sendMillis,
            @ForAll @LongRange(min = 0, max = 7_300_000) long nowMillis) {
        Instant now = T0.plusMillis(nowMillis);
        List<Instant> sends = new ArrayList<>();
        for (long m : sendMillis) {
            Instant t = T0.plusMillis(m);
            if (!t.isAfter(now)) {
                sends.add(t);
            }
        }
        sends.sort(Comparator.reverseOrder());
        List<Instant> lastHour = sends.stream()
                .filter(t -> t.isAfter(now.minus(Duration.ofHours(1))))
                .toList();
        Optional<Duration> wait = OtpThrottle.wait(lastHour, now);
        if (wait.isEmpty()) {
            assertTrue(allowed(sends, now), "no wait, so the rule allows a send now");
        } else {
            Instant from = now.plus(wait.get());
            assertFalse(allowed(sends, from.minusNanos(1)), "still refused 1 ns before the wait ends");
            assertTrue(allowed(sends, from), "allowed when the wait ends");
            assertEquals(
                    (wait.get().toNanos() + 999_999_999) / 1_000_000_000,
                    OtpThrottle.retryAfterSeconds(wait.get()),
                    "Retry-After is the wait rounded up to whole seconds");
        }
    }

    @Property(tries = 3000)
    void theLatestAllowedTimesAllowASendExactlyWhenTheRuleDoes(
            @ForAll @Size(max = 12) List<@LongRange(min = 0, max = 7_200_000) Long> sendMillis,
            @ForAll @LongRange(min = 0, max = 7_300_000) long nowMillis) {
        Instant now = T0.plusMillis(nowMillis);
        List<Instant> sends = new ArrayList<>();
        for (long m : sendMillis) {
            Instant t = T0.plusMillis(m);
            if (!t.isAfter(now)) {
                sends.add(t);
            }
        }
        sends.sort(Comparator.reverseOrder());
        // What the store compares: the nth newest send against the nth bound, where the rule sets one.
        boolean withinBounds = OtpThrottle.latestAllowed(now).entrySet().stream()
                .allMatch(b ->
                        sends.size() < b.getKey() || !sends.get(b.getKey() - 1).isAfter(b.getValue()));
        assertEquals(allowed(sends, now), withinBounds, "sends " + sends + " at " + now);
    }

    private static boolean allowed(List<Instant> sends, Instant at) {
        long inLast30s = sends.stream()
                .filter(t -> !t.isAfter(at) && Duration.between(t, at).compareTo(Duration.ofSeconds(30)) < 0)
                .count();
        long inLastHour = sends.stream()
                .filter(t -> !t.isAfter(at) && Duration.between(t, at).compareTo(Duration.ofHours(1)) < 0)
                .count();
        return inLast30s == 0 && inLastHour < 5;
    }
}
