package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.account.Authenticator;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.ratelimit.RateLimitDecision;
import dev.cadastro.core.ratelimit.RateLimitExceededException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Admission against the real store: authentication and both rate-limit windows in one statement, at
 * the minute and Sao Paulo midnight boundaries, with failed authentications counted nowhere, and
 * exact across two instances.
 */
class AdmissionTest {
    private final Store store = TestDatabase.store();

    private String key(long dailyLimit) {
        Account a = store.accounts().create("limites", new Plan("p", dailyLimit));
        return issue(a);
    }

    private String issue(Account a) {
        return new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom())
                .issue(a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ))
                .secret();
    }

    private static RateLimitDecision check(Admission admission, String key) {
        return admission.admit(ApiKeyToken.presented(key)).decision();
    }

    @Test
    void perMinuteLimitRefusesTheRequestAboveItUntilTheNextMinute() {
        ManualClock clock = new ManualClock(Instant.parse("2026-05-04T12:00:10Z"));
        Admission limiter = store.admission(5, clock);
        String p = key(1_000);
        long reset = Instant.parse("2026-05-04T12:01:00Z").getEpochSecond();
        for (int i = 4; i >= 0; i--) {
            RateLimitDecision d = check(limiter, p);
            assertEquals(i, d.minute().remaining());
            assertEquals(5, d.minute().limit());
            assertEquals(reset, d.minute().resetEpochSeconds());
        }
        RateLimitExceededException e = assertThrows(RateLimitExceededException.class, () -> check(limiter, p));
        assertEquals(ErrorCode.LIMITE_MINUTO, e.code());
        assertEquals(50, e.retryAfterSeconds());
        assertEquals(0, e.decision().minute().remaining());
        assertEquals(reset, e.decision().minute().resetEpochSeconds());

        clock.set(Instant.parse("2026-05-04T12:01:00Z"));
        assertEquals(4, check(limiter, p).minute().remaining());
        assertEquals(993, check(limiter, p).day().remaining(), "seven admitted; the refused request did not count");
    }

    @Test
    void keysHaveSeparateMinuteWindows() {
        ManualClock clock = new ManualClock(Instant.parse("2026-05-04T12:00:00Z"));
        Admission limiter = store.admission(1, clock);
        String a = key(100);
        String b = key(100);
        check(limiter, a);
        check(limiter, b);
        assertThrows(RateLimitExceededException.class, () -> check(limiter, a));
    }

    @Test
    void dailyPlanLimitResetsAtMidnightInSaoPaulo() {
        // 02:59:50 UTC is 23:59:50 in America/Sao_Paulo (UTC-3): ten seconds before the day turns.
        ManualClock clock = new ManualClock(Instant.parse("2026-03-10T02:59:50Z"));
        Admission limiter = store.admission(1_000, clock);
        String p = key(3);
        long midnight = Instant.parse("2026-03-10T03:00:00Z").getEpochSecond();
        assertEquals(2, check(limiter, p).day().remaining());
        assertEquals(1, check(limiter, p).day().remaining());
        RateLimitDecision last = check(limiter, p);
        assertEquals(0, last.day().remaining());
        assertEquals(midnight, last.day().resetEpochSeconds());
        RateLimitExceededException e = assertThrows(RateLimitExceededException.class, () -> check(limiter, p));
        assertEquals(ErrorCode.LIMITE_DIARIO, e.code());
        assertEquals(10, e.retryAfterSeconds());
        assertEquals(0, e.decision().day().remaining());

        clock.set(Instant.parse("2026-03-10T02:59:59.999Z"));
        assertThrows(RateLimitExceededException.class, () -> check(limiter, p));
        clock.set(Instant.parse("2026-03-10T03:00:00Z"));
        assertEquals(2, check(limiter, p).day().remaining());
    }

    @Test
    void twoServerInstancesSharingTheDatabaseAdmitExactlyTheLimit() throws Exception {
        twoInstancesAdmitExactlyTheLimit(false);
    }

    @Test
    void twoServerInstancesAdmittingInSharedCommitsAdmitExactlyTheLimit() throws Exception {
        twoInstancesAdmitExactlyTheLimit(true);
    }

    private static void twoInstancesAdmitExactlyTheLimit(boolean sharedCommits) throws Exception {
        String url = TestDatabase.freshDatabase();
        ManualClock clock = new ManualClock(Instant.parse("2026-05-04T12:00:00Z"));
        Database database = Database.builder()
                .url(url)
                .poolSize(4)
                .admissionGroupCommit(sharedCommits)
                .build();
        try (Store one = Store.open(database, Clock.systemUTC());
                Store two = Store.open(database, Clock.systemUTC())) {
            Account a = one.accounts().create("multi", new Plan("p", 10_000));
            var issued = new ApiKeyIssuer(one.accounts(), one.apiKeys(), Clock.systemUTC(), new SecureRandom())
                    .issue(a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ));
            String p = issued.secret();
            List<Admission> limiters = List.of(one.admission(50, clock), two.admission(50, clock));
            AtomicInteger admitted = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    Admission limiter = limiters.get(t % 2);
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 20; i++) {
                            try {
                                check(limiter, p);
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
            assertEquals(49, check(limiters.get(1), p).minute().remaining());
            assertEquals(
                    10_000 - 52,
                    check(limiters.get(0), p).day().remaining(),
                    "50 admitted, then one a minute later, then this one");
        }
    }

    @Test
    void requestsThatFailAuthenticationCountNowhereAndGetTheAuthenticatorsCodes() {
        ManualClock clock = new ManualClock(Instant.parse("2026-05-04T12:00:00Z"));
        Admission admission = store.admission(3, clock);
        Authenticator authenticator = new Authenticator(store.apiKeys());
        Account account = store.accounts().create("falhas", new Plan("p", 100));
        String good = issue(account);
        String revoked = issue(account);
        store.apiKeys().revoke(ApiKeyToken.parse(revoked).orElseThrow().prefix(), clock.instant());
        char last = good.charAt(good.length() - 1);
        String wrongSecret = good.substring(0, good.length() - 1) + (last == 'A' ? 'B' : 'A');
        String unknownPrefix = "cad_aaaaaaaaaaaa" + good.substring("cad_aaaaaaaaaaaa".length());

        assertEquals(99, check(admission, good).day().remaining());
        Map<String, ErrorCode> refused = new LinkedHashMap<>();
        refused.put(wrongSecret, ErrorCode.CHAVE_INVALIDA);
        refused.put(unknownPrefix, ErrorCode.CHAVE_INVALIDA);
        refused.put("cad_short", ErrorCode.CHAVE_INVALIDA);
        refused.put(revoked, ErrorCode.CHAVE_REVOGADA);
        for (int round = 0; round < 3; round++) {
            refused.forEach((key, code) -> {
                assertCode(code, () -> admission.admit(ApiKeyToken.presented(key)));
                assertCode(code, () -> authenticator.authenticate(key));
            });
        }
        store.accounts().setApiEnabled(account.id(), false);
        for (int i = 0; i < 5; i++) {
            assertCode(ErrorCode.API_DESATIVADA, () -> admission.admit(ApiKeyToken.presented(good)));
        }
        assertCode(ErrorCode.API_DESATIVADA, () -> authenticator.authenticate(good));
        store.accounts().setApiEnabled(account.id(), true);

        RateLimitDecision second = check(admission, good);
        assertEquals(1, second.minute().remaining(), "the key's minute counted only its two admitted requests");
        assertEquals(98, second.day().remaining(), "the account's day counted only its two admitted requests");
    }

    @Test
    void aPlanChangeAppliesToTheNextRequest() {
        ManualClock clock = new ManualClock(Instant.parse("2026-05-04T12:00:00Z"));
        Admission admission = store.admission(1_000, clock);
        Account account = store.accounts().create("plano", new Plan("pequeno", 2));
        String key = issue(account);
        check(admission, key);
        check(admission, key);
        RateLimitExceededException e = assertThrows(RateLimitExceededException.class, () -> check(admission, key));
        assertEquals(ErrorCode.LIMITE_DIARIO, e.code());
        assertEquals(2, e.decision().day().limit());

        store.accounts().setPlan(account.id(), new Plan("maior", 5));
        RateLimitDecision d = check(admission, key);
        assertEquals(5, d.day().limit());
        assertEquals(2, d.day().remaining(), "two admitted before, this one, of five");
    }

    @Test
    void aDailyRefusalDoesNotSpendTheMinute() {
        ManualClock clock = new ManualClock(Instant.parse("2026-05-04T12:00:10Z"));
        Admission admission = store.admission(5, clock);
        Account account = store.accounts().create("dia cheio", new Plan("pequeno", 2));
        String key = issue(account);
        check(admission, key);
        check(admission, key);
        for (int i = 0; i < 3; i++) {
            RateLimitExceededException e = assertThrows(RateLimitExceededException.class, () -> check(admission, key));
            assertEquals(ErrorCode.LIMITE_DIARIO, e.code());
            assertEquals(3, e.decision().minute().remaining(), "two of five spent in this minute, refusals not");
        }

        store.accounts().setPlan(account.id(), new Plan("maior", 100));
        assertEquals(2, check(admission, key).minute().remaining(), "the three daily refusals left the minute alone");
        assertEquals(1, check(admission, key).minute().remaining());
        assertEquals(0, check(admission, key).minute().remaining());
        assertEquals(
                ErrorCode.LIMITE_MINUTO,
                assertThrows(RateLimitExceededException.class, () -> check(admission, key))
                        .code());
    }

    private static void assertCode(ErrorCode code, org.junit.jupiter.api.function.Executable call) {
        CadastroException e = assertThrows(CadastroException.class, call);
        assertEquals(code, e.code(), e.getMessage());
    }
}
