package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.ratelimit.RateLimitDecision;
import dev.cadastro.core.ratelimit.RateLimitExceededException;
import dev.cadastro.core.ratelimit.RateLimitWindow;
import org.junit.jupiter.api.Test;

class RateLimitHeadersTest {

    @Test
    void headersCarryBothWindowsAndRetryAfter() {
        RateLimitDecision d = new RateLimitDecision(
                new RateLimitWindow(120, 0, 1_700_000_060), new RateLimitWindow(5000, 4000, 1_700_010_800));
        Headers h = RateLimitHeaders.of(
                new RateLimitExceededException(ErrorCode.LIMITE_MINUTO, Message.LIMIT_MINUTE.with("cad_x", 120), d, 0));
        assertEquals("120", h.first("X-RateLimit-Limit").orElseThrow());
        assertEquals("0", h.first("X-RateLimit-Remaining").orElseThrow());
        assertEquals("1700000060", h.first("X-RateLimit-Reset").orElseThrow());
        assertEquals("5000", h.first("X-RateLimit-Limit-Day").orElseThrow());
        assertEquals("4000", h.first("X-RateLimit-Remaining-Day").orElseThrow());
        assertEquals("1700010800", h.first("X-RateLimit-Reset-Day").orElseThrow());
        assertEquals("1", h.first("Retry-After").orElseThrow(), "Retry-After is at least one second");
    }

    @Test
    void anAdmittedRequestHasNoRetryAfter() {
        RateLimitDecision d =
                new RateLimitDecision(new RateLimitWindow(120, 119, 60), new RateLimitWindow(5000, 4999, 3600));
        Headers h = RateLimitHeaders.of(d);
        assertEquals("119", h.first("X-RateLimit-Remaining").orElseThrow());
        assertEquals(false, h.contains("Retry-After"));
        assertEquals(6, h.lineCount());
    }
}
