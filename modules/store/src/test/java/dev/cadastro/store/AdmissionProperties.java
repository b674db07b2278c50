package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ratelimit.Admission;
import dev.cadastro.core.ratelimit.RateLimitDecision;
import dev.cadastro.core.ratelimit.RateLimitExceededException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * Model-based property of admission on the real store: random sequences of requests from two keys of
 * one account (some with a wrong secret) and clock steps across minute boundaries and Sao Paulo
 * midnight, against a few lines of model of the fixed windows. Every answer, admitted or refused, and
 * every remaining count in the headers equals the model's.
 */
class AdmissionProperties {
    private final Store store = TestDatabase.store();

    sealed interface Step {}

    /** Moves the clock forward. */
    record Advance(int seconds) implements Step {}

    /** A request from key {@code key} (0 or 1), with its real secret or a wrong one. */
    record Send(int key, boolean rightSecret) implements Step {}

    @Property(tries = 60)
    void answersAndRemainingCountsFollowTheFixedWindows(
            @ForAll @IntRange(min = 1, max = 6) int perMinute,
            @ForAll @IntRange(min = 1, max = 12) int perDay,
            @ForAll @IntRange(min = 0, max = 600) int startBeforeMidnight,
            @ForAll("steps") List<Step> steps) {
        // 03:00Z is midnight in America/Sao_Paulo (UTC-3).
        ManualClock clock =
                new ManualClock(Instant.parse("2026-03-10T03:00:00Z").minusSeconds(startBeforeMidnight));
        Admission admission = store.admission(perMinute, clock);
        Account account = store.accounts().create("modelo", new Plan("p", perDay));
        ApiKeyIssuer issuer = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new SecureRandom());
        List<String> keys = List.of(
                issuer.issue(account.id(), "a", EnumSet.of(Scope.EMPRESAS_READ)).secret(),
                issuer.issue(account.id(), "b", EnumSet.of(Scope.EMPRESAS_READ)).secret());
        Map<String, Integer> minuteModel = new HashMap<>();
        Map<LocalDate, Integer> dayModel = new HashMap<>();
        for (Step step : steps) {
            switch (step) {
                case Advance a -> clock.advance(Duration.ofSeconds(a.seconds()));
                case Send s -> {
                    String key = keys.get(s.key());
                    if (!s.rightSecret()) {
                        String wrong = key.substring(0, key.length() - 1) + (key.endsWith("A") ? "B" : "A");
                        CadastroException e = assertThrows(
                                CadastroException.class, () -> admission.admit(ApiKeyToken.presented(wrong)));
                        assertEquals(ErrorCode.CHAVE_INVALIDA, e.code());
                        continue;
                    }
                    Instant now = clock.instant();
                    String minute = s.key() + "@" + Math.floorDiv(now.getEpochSecond(), 60);
                    LocalDate day = LocalDate.ofInstant(now, CostRules.ZONE);
                    int inMinute = minuteModel.getOrDefault(minute, 0);
                    int inDay = dayModel.getOrDefault(day, 0);
                    // A full day refuses first and spends nothing; a full minute refuses and spends nothing.
                    if (inDay >= perDay) {
                        RateLimitExceededException e = assertThrows(
                                RateLimitExceededException.class, () -> admission.admit(ApiKeyToken.presented(key)));
                        assertEquals(ErrorCode.LIMITE_DIARIO, e.code(), () -> "at " + now);
                        assertEquals(
                                Math.max(0, perMinute - inMinute),
                                e.decision().minute().remaining(),
                                () -> "at " + now);
                        continue;
                    }
                    if (inMinute >= perMinute) {
                        RateLimitExceededException e = assertThrows(
                                RateLimitExceededException.class, () -> admission.admit(ApiKeyToken.presented(key)));
                        assertEquals(ErrorCode.LIMITE_MINUTO, e.code(), () -> "at " + now);
                        assertEquals(perDay - inDay, e.decision().day().remaining(), () -> "day at " + now);
                        continue;
                    }
                    minuteModel.put(minute, inMinute + 1);
                    dayModel.put(day, inDay + 1);
                    RateLimitDecision d =
                            admission.admit(ApiKeyToken.presented(key)).decision();
                    assertEquals(perMinute - inMinute - 1, d.minute().remaining(), () -> "minute at " + now);
                    assertEquals(perDay - inDay - 1, d.day().remaining(), () -> "day at " + now);
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> advance = Arbitraries.integers().between(0, 45).map(Advance::new);
        Arbitrary<Step> send = Combinators.combine(
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.integers().between(0, 5).map(i -> i != 0))
                .as(Send::new);
        return Arbitraries.frequencyOf(Tuple.of(1, advance), Tuple.of(4, send))
                .list()
                .ofMinSize(1)
                .ofMaxSize(40);
    }
}
