package dev.cadastro.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves: the same-day rule and the rate-limit windows follow it exactly. */
final class TestClock extends Clock {
    private final AtomicReference<Instant> now;

    TestClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    void advance(Duration d) {
        now.updateAndGet(i -> i.plus(d));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the test clock stays in UTC");
    }

    @Override
    public Instant instant() {
        return now.get();
    }
}
