package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Authenticator;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.ratelimit.RateLimitDecision;
import dev.cadastro.core.ratelimit.RateLimitExceededException;
import dev.cadastro.core.ratelimit.RateLimiter;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
    private final Store store = TestDatabase.store();

    private Principal principal(long dailyLimit) {
        Account a = store.accounts().create("limites", new Plan("p", dailyLimit));
        var issued = new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ));
        return new Authenticator(store.apiKeys()).authenticate(null, issued.secret());
    }

    @Test
    void perMinuteLimitRefusesTheRequestAboveItUntilTheNextMinute() {
        MutableClock clock = new MutableClock(Instant.parse("2026-05-04T12:00:10Z"));
        RateLimiter limiter = store.rateLimiter(5, clock);
        Principal p = principal(1_000);
        long reset = Instant.parse("2026-05-04T12:01:00Z").getEpochSecond();
        for (int i = 4; i >= 0; i--) {
            RateLimitDecision d = limiter.check(p);
            assertEquals(i, d.minute().remaining());
            assertEquals(5, d.minute().limit());
            assertEquals(reset, d.minute().resetEpochSeconds());
        }
        RateLimitExceededException e = assertThrows(RateLimitExceededException.class, () -> limiter.check(p));
        assertEquals(ErrorCode.LIMITE_MINUTO, e.code());
        assertEquals(50, e.retryAfterSeconds());
        assertEquals("0", e.headers().get("X-RateLimit-Remaining"));
        assertEquals("50", e.headers().get("Retry-After"));
        assertEquals(Long.toString(reset), e.headers().get("X-RateLimit-Reset"));

        clock.set(Instant.parse("2026-05-04T12:01:00Z"));
        assertEquals(4, limiter.check(p).minute().remaining());
        assertEquals(993, limiter.check(p).day().remaining(), "seven admitted; the refused request did not count");
    }

    @Test
    void keysHaveSeparateMinuteWindows() {
        MutableClock clock = new MutableClock(Instant.parse("2026-05-04T12:00:00Z"));
        RateLimiter limiter = store.rateLimiter(1, clock);
        Principal a = principal(100);
        Principal b = principal(100);
        limiter.check(a);
        limiter.check(b);
        assertThrows(RateLimitExceededException.class, () -> limiter.check(a));
    }

    @Test
    void dailyPlanLimitResetsAtMidnightInSaoPaulo() {
        // 02:59:50 UTC is 23:59:50 in America/Sao_Paulo (UTC-3): ten seconds before the day turns.
        MutableClock clock = new MutableClock(Instant.parse("2026-03-10T02:59:50Z"));
        RateLimiter limiter = store.rateLimiter(1_000, clock);
        Principal p = principal(3);
        long midnight = Instant.parse("2026-03-10T03:00:00Z").getEpochSecond();
        assertEquals(2, limiter.check(p).day().remaining());
        assertEquals(1, limiter.check(p).day().remaining());
        RateLimitDecision last = limiter.check(p);
        assertEquals(0, last.day().remaining());
        assertEquals(midnight, last.day().resetEpochSeconds());
        RateLimitExceededException e = assertThrows(RateLimitExceededException.class, () -> limiter.check(p));
        assertEquals(ErrorCode.LIMITE_DIARIO, e.code());
        assertEquals(10, e.retryAfterSeconds());
        assertEquals("0", e.headers().get("X-RateLimit-Remaining-Day"));

        clock.set(Instant.parse("2026-03-10T02:59:59.999Z"));
        assertThrows(RateLimitExceededException.class, () -> limiter.check(p));
        clock.set(Instant.parse("2026-03-10T03:00:00Z"));
        assertEquals(2, limiter.check(p).day().remaining());
    }

    @Test
    void twoServerInstancesSharingTheDatabaseAdmitExactlyTheLimit() throws Exception {
        String url = TestDatabase.freshDatabase();
        MutableClock clock = new MutableClock(Instant.parse("2026-05-04T12:00:00Z"));
        try (Store one = Store.open(Database.builder().url(url).poolSize(4).build(), Clock.systemUTC());
                Store two = Store.open(Database.builder().url(url).poolSize(4).build(), Clock.systemUTC())) {
            Account a = one.accounts().create("multi", new Plan("p", 10_000));
            var issued = new ApiKeyIssuer(one.accounts(), one.apiKeys(), Clock.systemUTC(), new SecureRandom())
                    .issue(a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ));
            Principal p = new Authenticator(two.apiKeys()).authenticate(null, issued.secret());
            List<RateLimiter> limiters = List.of(one.rateLimiter(50, clock), two.rateLimiter(50, clock));
            AtomicInteger admitted = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    RateLimiter limiter = limiters.get(t % 2);
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 20; i++) {
                            try {
                                limiter.check(p);
                                admitted.incrementAndGet();
                            } catch (RateLimitExceededException e) {
                                refused.incrementAndGet();
                            }
                        }
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(50, admitted.get());
            assertEquals(110, refused.get());
            clock.advance(Duration.ofMinutes(1));
            assertEquals(49, limiters.get(1).check(p).minute().remaining());
            assertEquals(10_000 - 51, limiters.get(0).check(p).day().remaining() + 1);
        }
    }
}
