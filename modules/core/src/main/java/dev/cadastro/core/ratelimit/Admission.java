package dev.cadastro.core.ratelimit;

import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.account.Authenticator;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.ledger.CostRules;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: admits one request. It authenticates the key the request presents with the {@link
 * Authenticator}'s rules ({@code CHAVE_INVALIDA}, {@code CHAVE_REVOGADA}, {@code
 * API_DESATIVADA}) and counts it against the key's per-minute limit ({@code LIMITE_MINUTO}) and the
 * account's daily plan limit ({@code LIMITE_DIARIO}), both through one call of the {@link
 * AdmissionStore}: one round trip to the database per request instead of a read and a write.
 *
 * <p>Windows are fixed: the epoch minute of the clock, and the calendar day in America/Sao_Paulo. A
 * request the minute refuses does not count against the day; one the day refuses still counts
 * against the minute (it was made). A request that fails authentication counts nowhere.
 */
public final class Admission {
    /** The per-minute limit of every key. */
    public static final long REQUESTS_PER_MINUTE = 120;

    private final AdmissionStore store;
    private final Clock clock;
    private final long perMinute;

    /**
     * @param perMinute the per-minute limit of every key: {@link #REQUESTS_PER_MINUTE} unless a
     *     deployment (or a test) sets another
     */
    public Admission(AdmissionStore store, Clock clock, long perMinute) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (perMinute < 1) {
            throw new IllegalArgumentException("requests per minute " + perMinute + " must be at least 1");
        }
        this.perMinute = perMinute;
    }

    /**
     * @param token the key the request presents, as its transport extracted it
     * @throws dev.cadastro.core.error.CadastroException the authentication codes, before anything is
     *     counted
     * @throws RateLimitExceededException {@code LIMITE_MINUTO} or {@code LIMITE_DIARIO}, with the
     *     windows and the seconds until the refusing one resets
     */
    public Admitted admit(ApiKeyToken token) {
        Objects.requireNonNull(token, "token");
        Instant now = clock.instant();
        long epochMinute = Math.floorDiv(now.getEpochSecond(), 60);
        LocalDate day = LocalDate.ofInstant(now, CostRules.ZONE);
        byte[] hash = token.hash();
        Optional<AdmissionStore.Found> found =
                store.admit(token.prefix(), hash, new AdmissionStore.Window(epochMinute, perMinute, day));
        Principal principal = Authenticator.principal(token, hash, found.map(AdmissionStore.Found::credential));
        AdmissionStore.Counts counts = found.orElseThrow()
                .counted()
                .orElseThrow(() -> new IllegalStateException("the store did not count a request of the valid key "
                        + principal.key().prefix()
                        + ": the credential it returned and the one it counted with differ"));
        return new Admitted(principal, decide(principal, counts, now, epochMinute, day));
    }

    private RateLimitDecision decide(
            Principal principal, AdmissionStore.Counts counts, Instant now, long epochMinute, LocalDate day) {
        long dayLimit = principal.account().plan().dailyRequestLimit();
        long minuteReset = (epochMinute + 1) * 60;
        long dayReset = day.plusDays(1).atStartOfDay(CostRules.ZONE).toEpochSecond();
        String prefix = principal.key().prefix();
        if (counts.minute().isEmpty() && counts.dayBefore() >= dayLimit) {
            // The day was full before the minute was tried: the minute was not spent.
            throw dailyLimit(
                    principal,
                    new RateLimitWindow(perMinute, Math.max(0, perMinute - counts.minuteBefore()), minuteReset),
                    dayLimit,
                    dayReset,
                    now,
                    day);
        }
        if (counts.minute().isEmpty()) {
            RateLimitDecision decision = new RateLimitDecision(
                    new RateLimitWindow(perMinute, 0, minuteReset),
                    new RateLimitWindow(dayLimit, Math.max(0, dayLimit - counts.dayBefore()), dayReset));
            throw new RateLimitExceededException(
                    ErrorCode.LIMITE_MINUTO,
                    Message.LIMIT_MINUTE.with(prefix, perMinute),
                    decision,
                    secondsUntil(now, minuteReset));
        }
        RateLimitWindow minute = new RateLimitWindow(
                perMinute, Math.max(0, perMinute - counts.minute().getAsLong()), minuteReset);
        if (counts.day().isEmpty()) {
            throw dailyLimit(principal, minute, dayLimit, dayReset, now, day);
        }
        return new RateLimitDecision(
                minute,
                new RateLimitWindow(
                        dayLimit, Math.max(0, dayLimit - counts.day().getAsLong()), dayReset));
    }

    private static RateLimitExceededException dailyLimit(
            Principal principal, RateLimitWindow minute, long dayLimit, long dayReset, Instant now, LocalDate day) {
        return new RateLimitExceededException(
                ErrorCode.LIMITE_DIARIO,
                Message.LIMIT_DAY.with(
                        principal.accountId(),
                        dayLimit,
                        principal.account().plan().name(),
                        day),
                new RateLimitDecision(minute, new RateLimitWindow(dayLimit, 0, dayReset)),
                secondsUntil(now, dayReset));
    }

    private static long secondsUntil(Instant now, long epochSecond) {
        long millis = epochSecond * 1000 - now.toEpochMilli();
        return Math.max(1, (millis + 999) / 1000);
    }
}
