package dev.cadastro.store.internal;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ratelimit.RateLimitDecision;
import dev.cadastro.core.ratelimit.RateLimitExceededException;
import dev.cadastro.core.ratelimit.RateLimitWindow;
import dev.cadastro.core.ratelimit.RateLimiter;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Rate limits as counters in PostgreSQL (ADR 0012): one row per key and epoch minute, one per account
 * and calendar day in America/Sao_Paulo. A request is counted by one statement whose two
 * {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE requests < limit} increment only below the limit,
 * under the row lock, so any number of server instances sharing the database count exactly. The day is
 * counted only when the minute admitted the request.
 */
public final class PgRateLimiter implements RateLimiter {
    private static final String COUNT = "WITH m AS ("
            + " INSERT INTO rate_minute (key_prefix, epoch_minute, requests) VALUES (?, ?, 1)"
            + " ON CONFLICT (key_prefix, epoch_minute) DO UPDATE SET requests = rate_minute.requests + 1"
            + " WHERE rate_minute.requests < ? RETURNING requests),"
            + " d AS ("
            + " INSERT INTO rate_day (account_id, day, requests) SELECT ?, ?, 1 FROM m"
            + " ON CONFLICT (account_id, day) DO UPDATE SET requests = rate_day.requests + 1"
            + " WHERE rate_day.requests < ? RETURNING requests)"
            + " SELECT (SELECT requests FROM m), (SELECT requests FROM d),"
            + " (SELECT requests FROM rate_day WHERE account_id = ? AND day = ?)";

    /** Expired windows are deleted by one request in this many. */
    private static final long PURGE_EVERY = 1024;

    private final DataSource dataSource;
    private final Clock clock;
    private final long perMinute;
    private final AtomicLong calls = new AtomicLong();

    public PgRateLimiter(DataSource dataSource, Clock clock, long perMinute) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (perMinute < 1) {
            throw new IllegalArgumentException("requests per minute " + perMinute + " must be at least 1");
        }
        this.perMinute = perMinute;
    }

    @Override
    public RateLimitDecision check(Principal principal) {
        Instant now = clock.instant();
        long epochMinute = Math.floorDiv(now.getEpochSecond(), 60);
        LocalDate day = LocalDate.ofInstant(now, CostRules.ZONE);
        long dayLimit = principal.account().plan().dailyRequestLimit();
        long minuteReset = (epochMinute + 1) * 60;
        long dayReset = day.plusDays(1).atStartOfDay(CostRules.ZONE).toEpochSecond();
        String prefix = principal.key().prefix();
        long account = principal.accountId().value();
        long[] counts = Jdbc.autoCommit(dataSource, "rate limit of key " + prefix, c -> {
            long[] result = new long[3];
            try (PreparedStatement ps = c.prepareStatement(COUNT)) {
                Jdbc.set(
                        ps,
                        prefix,
                        epochMinute,
                        perMinute,
                        account,
                        Date.valueOf(day),
                        dayLimit,
                        account,
                        Date.valueOf(day));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    for (int i = 0; i < 3; i++) {
                        result[i] = rs.getLong(i + 1);
                        if (rs.wasNull()) {
                            result[i] = -1;
                        }
                    }
                }
            }
            if (calls.incrementAndGet() % PURGE_EVERY == 0) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM rate_minute WHERE epoch_minute < ?")) {
                    ps.setLong(1, epochMinute - 1);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM rate_day WHERE day < ?")) {
                    ps.setDate(1, Date.valueOf(day.minusDays(1)));
                    ps.executeUpdate();
                }
            }
            return result;
        });
        long minuteCount = counts[0];
        long dayCount = counts[1];
        long daySeen = Math.max(0, counts[2]);
        if (minuteCount < 0) {
            RateLimitDecision decision = new RateLimitDecision(
                    new RateLimitWindow(perMinute, 0, minuteReset),
                    new RateLimitWindow(dayLimit, Math.max(0, dayLimit - daySeen), dayReset));
            throw new RateLimitExceededException(
                    ErrorCode.LIMITE_MINUTO,
                    "the key " + prefix + " reached its limit of " + perMinute + " requests per minute",
                    decision,
                    secondsUntil(now, minuteReset));
        }
        RateLimitWindow minute = new RateLimitWindow(perMinute, perMinute - minuteCount, minuteReset);
        if (dayCount < 0) {
            throw new RateLimitExceededException(
                    ErrorCode.LIMITE_DIARIO,
                    "account " + principal.accountId() + " reached the daily limit of " + dayLimit
                            + " requests of its plan "
                            + principal.account().plan().name()
                            + " (day " + day + " in America/Sao_Paulo)",
                    new RateLimitDecision(minute, new RateLimitWindow(dayLimit, 0, dayReset)),
                    secondsUntil(now, dayReset));
        }
        return new RateLimitDecision(minute, new RateLimitWindow(dayLimit, Math.max(0, dayLimit - dayCount), dayReset));
    }

    private static long secondsUntil(Instant now, long epochSecond) {
        long millis = epochSecond * 1000 - now.toEpochMilli();
        return Math.max(1, (millis + 999) / 1000);
    }
}
