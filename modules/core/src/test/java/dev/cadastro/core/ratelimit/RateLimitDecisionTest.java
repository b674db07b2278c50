package dev.cadastro.core.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import org.junit.jupiter.api.Test;

class RateLimitDecisionTest {

    @Test
    void retryAfterIsAtLeastOneSecond() {
        RateLimitDecision d = new RateLimitDecision(
                new RateLimitWindow(120, 0, 1_700_000_060), new RateLimitWindow(5000, 4000, 1_700_010_800));
        assertEquals(
                1,
                new RateLimitExceededException(ErrorCode.LIMITE_MINUTO, Message.LIMIT_MINUTE.with("cad_x", 120), d, 0)
                        .retryAfterSeconds());
        assertEquals(
                7,
                new RateLimitExceededException(ErrorCode.LIMITE_DIARIO, Message.LIMIT_MINUTE.with("cad_x", 120), d, 7)
                        .retryAfterSeconds());
    }

    @Test
    void onlyTheTwoRateLimitCodesAreAccepted() {
        RateLimitDecision d = new RateLimitDecision(new RateLimitWindow(1, 0, 1), new RateLimitWindow(1, 0, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RateLimitExceededException(
                        ErrorCode.SEM_CREDITOS, Message.LIMIT_MINUTE.with("cad_x", 1), d, 1));
        assertThrows(IllegalArgumentException.class, () -> new RateLimitWindow(10, 11, 0));
    }
}
