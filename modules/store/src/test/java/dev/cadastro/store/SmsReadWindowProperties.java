package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.sms.OtpThrottle;
import dev.cadastro.store.internal.PgOtpStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * The send's read of the phone's recent sends ({@code created_at > :window_start}) finds exactly the sends
 * {@link OtpThrottle#wait} counts in the window: times in microseconds as PostgreSQL keeps them, a send's
 * time in nanoseconds, many of them within a few microseconds of the one-hour bound. The bound is the one
 * the store sends through the driver, which rounds a timestamp to the nearest microsecond.
 */
class SmsReadWindowProperties {
    private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");

    @Property(tries = 1000)
    void theReadsBoundSelectsTheSendsInTheThrottlesWindow(
            @ForAll @Size(max = 8) List<@LongRange(min = 0, max = 7_200_000) Long> sendMillis,
            @ForAll @IntRange(min = -3, max = 3) int microsOff,
            @ForAll @IntRange(min = 0, max = 999) int nanos,
            @ForAll @LongRange(min = 0, max = 7_300_000) long nowMillis)
            throws SQLException {
        List<Instant> sends = new ArrayList<>();
        for (long m : sendMillis) {
            sends.add(T0.plusMillis(m));
        }
        Instant now = T0.plusMillis(nowMillis).plusNanos(nanos);
        if (!sends.isEmpty()) {
            // A send a few microseconds either side of the hour's bound.
            sends.set(
                    0,
                    now.minus(OtpThrottle.WINDOW).truncatedTo(ChronoUnit.MICROS).plus(microsOff, ChronoUnit.MICROS));
        }
        Instant windowStart = now.minus(OtpThrottle.WINDOW);
        assertEquals(
                sends.stream().filter(t -> t.isAfter(windowStart)).count(),
                inWindow(sends, now),
                "sends after the window's start among " + sends + " at " + now);
    }

    /** How many of {@code sends} PostgreSQL finds after the read's bound, {@link PgOtpStore#windowStart}. */
    private static long inWindow(List<Instant> sends, Instant now) throws SQLException {
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT count(*) FROM unnest(?::timestamptz[]) t WHERE t > ?")) {
            ps.setArray(
                    1,
                    c.createArrayOf(
                            "timestamptz", sends.stream().map(Timestamp::from).toArray()));
            ps.setTimestamp(2, Timestamp.from(PgOtpStore.windowStart(now)));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
