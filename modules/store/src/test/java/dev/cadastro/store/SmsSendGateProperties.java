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
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * The send's throttle in SQL (the {@code gate} of the statement that holds the credit and writes the
 * dispatch) allows a send exactly when {@link OtpThrottle#wait} does, on the same recent sends: times
 * in microseconds as PostgreSQL keeps them, a send's time in nanoseconds, many of them within a few
 * microseconds of the 30-second and one-hour bounds. The bounds are the ones the store sends through the
 * driver, which rounds a timestamp to the nearest microsecond.
 */
class SmsSendGateProperties {
    private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");
    private static final String GATE = "WITH earlier AS (SELECT 1 WHERE false),"
            + " recent AS (SELECT ?::timestamptz[] AS times) " + PgOtpStore.sendGate();

    @Property(tries = 1000)
    void theStatementsGateAllowsASendExactlyWhenTheThrottleDoes(
            @ForAll @Size(max = 8) List<@LongRange(min = 0, max = 7_200_000) Long> sendMillis,
            @ForAll @IntRange(min = -3, max = 3) int microsOff,
            @ForAll @IntRange(min = 0, max = 999) int nanos,
            @ForAll @LongRange(min = 0, max = 7_300_000) long nowMillis,
            @ForAll boolean nearTheSpacing)
            throws SQLException {
        List<Instant> sends = new ArrayList<>();
        for (long m : sendMillis) {
            sends.add(T0.plusMillis(m));
        }
        Instant now = T0.plusMillis(nowMillis).plusNanos(nanos);
        if (nearTheSpacing && !sends.isEmpty()) {
            // A send a few microseconds either side of the 30-second bound (or of the hour's, below).
            sends.set(
                    0,
                    now.minus(OtpThrottle.SPACING)
                            .truncatedTo(ChronoUnit.MICROS)
                            .plus(microsOff, ChronoUnit.MICROS));
        } else if (!sends.isEmpty()) {
            sends.set(
                    0,
                    now.minus(OtpThrottle.WINDOW).truncatedTo(ChronoUnit.MICROS).plus(microsOff, ChronoUnit.MICROS));
        }
        // What the statement's read returns: the counted sends after the window's start, newest first, at
        // most five.
        Instant windowStart = now.minus(OtpThrottle.WINDOW);
        List<Instant> recent = sends.stream()
                .filter(t -> !t.isAfter(now) && t.isAfter(windowStart))
                .sorted(Comparator.reverseOrder())
                .limit(OtpThrottle.PER_HOUR)
                .toList();
        boolean throttle = OtpThrottle.wait(recent, now).isEmpty();
        assertEquals(throttle, gate(recent, now), "sends " + recent + " at " + now);
        // The read's own bound, through the driver, selects the same sends.
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

    private static boolean gate(List<Instant> recent, Instant now) throws SQLException {
        try (Connection c = TestDatabase.store().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(GATE)) {
            ps.setArray(
                    1,
                    recent.isEmpty()
                            ? null
                            : c.createArrayOf(
                                    "timestamptz",
                                    recent.stream().map(Timestamp::from).toArray()));
            ps.setArray(2, c.createArrayOf("timestamptz", PgOtpStore.throttleBounds(now)));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
