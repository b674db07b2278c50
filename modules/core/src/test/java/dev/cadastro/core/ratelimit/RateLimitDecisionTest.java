package dev.cadastro.core.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.error.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateLimitDecisionTest {

    @Test
    void headersCarryBothWindowsAndRetryAfter() {
        RateLimitDecision d = new RateLimitDecision(
                new RateLimitWindow(120, 0, 1_700_000_060), new RateLimitWindow(5000, 4000, 1_700_010_800));
        RateLimitExceededException e = new RateLimitExceededException(ErrorCode.LIMITE_MINUTO, "limit", d, 0);
        Map<String, String> h = e.headers();
        assertEquals("120", h.get("X-RateLimit-Limit"));
        assertEquals("0", h.get("X-RateLimit-Remaining"));
        assertEquals("1700000060", h.get("X-RateLimit-Reset"));
        assertEquals("5000", h.get("X-RateLimit-Limit-Day"));
        assertEquals("4000", h.get("X-RateLimit-Remaining-Day"));
        assertEquals("1", h.get("Retry-After"), "Retry-After is at least one second");
    }

    @Test
    void onlyTheTwoRateLimitCodesAreAccepted() {
        RateLimitDecision d = new RateLimitDecision(new RateLimitWindow(1, 0, 1), new RateLimitWindow(1, 0, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RateLimitExceededException(ErrorCode.SEM_CREDITOS, "x", d, 1));
        assertThrows(IllegalArgumentException.class, () -> new RateLimitWindow(10, 11, 0));
    }
}
