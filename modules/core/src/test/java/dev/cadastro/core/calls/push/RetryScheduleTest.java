package dev.cadastro.core.calls.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {
    /** A generator whose nextDouble is always the same, so the jitter is known. */
    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    @Test
    void sixRetriesAfterTheFirstAttemptThenNone() {
        RetrySchedule s = RetrySchedule.standard(fixed(0));
        assertEquals(Optional.of(Duration.ofSeconds(30)), s.delayAfter(1, Optional.empty()));
        assertEquals(Optional.of(Duration.ofMinutes(2)), s.delayAfter(2, Optional.empty()));
        assertEquals(Optional.of(Duration.ofMinutes(10)), s.delayAfter(3, Optional.empty()));
        assertEquals(Optional.of(Duration.ofMinutes(30)), s.delayAfter(4, Optional.empty()));
        assertEquals(Optional.of(Duration.ofHours(1)), s.delayAfter(5, Optional.empty()));
        assertEquals(Optional.of(Duration.ofHours(2)), s.delayAfter(6, Optional.empty()));
        assertEquals(Optional.empty(), s.delayAfter(7, Optional.empty()));
    }

    @Test
    void jitterLengthensEachDelayByAtMostTenPercent() {
        RetrySchedule s = RetrySchedule.standard(new SplittableRandom(42));
        for (int attempt = 1; attempt < RetrySchedule.MAX_ATTEMPTS; attempt++) {
            Duration nominal = RetrySchedule.DEFAULT_DELAYS.get(attempt - 1);
            for (int i = 0; i < 200; i++) {
                Duration d = s.delayAfter(attempt, Optional.empty()).orElseThrow();
                assertTrue(
                        d.compareTo(nominal) >= 0 && d.compareTo(nominal.plus(nominal.dividedBy(10))) <= 0,
                        d::toString);
            }
        }
        assertEquals(
                Duration.ofMillis(31_500),
                RetrySchedule.standard(fixed(0.5))
                        .delayAfter(1, Optional.empty())
                        .orElseThrow());
    }

    @Test
    void retryAfterLengthensADelayUpToTheLongestStepButNeverShortensIt() {
        RetrySchedule s = RetrySchedule.standard(fixed(0));
        assertEquals(
                Duration.ofMinutes(5),
                s.delayAfter(1, Optional.of(Duration.ofMinutes(5))).orElseThrow());
        assertEquals(
                Duration.ofSeconds(30),
                s.delayAfter(1, Optional.of(Duration.ofSeconds(1))).orElseThrow());
        assertEquals(
                Duration.ofHours(2),
                s.delayAfter(1, Optional.of(Duration.ofDays(3))).orElseThrow());
        assertEquals(Optional.empty(), s.delayAfter(7, Optional.of(Duration.ofSeconds(1))));
    }
}
