package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class ProviderPolicyTest {

    @Test
    void hasTheDocumentedDefaults() {
        ProviderPolicy p = ProviderPolicy.defaults();
        assertEquals(Duration.ofSeconds(2), p.timeout());
        assertEquals(64, p.maxConcurrentCalls());
        assertEquals(Duration.ofMillis(100), p.maxWaitForSlot());
        assertEquals(20, p.slidingWindowSize());
        assertEquals(10, p.minimumCalls());
        assertEquals(50f, p.failureRateThreshold());
        assertEquals(Duration.ofSeconds(30), p.waitInOpenState());
        assertEquals(3, p.permittedCallsInHalfOpen());
    }

    @Test
    void rejectsEachKnobOutOfRangeNamingIt() {
        assertRejected("timeout PT0S", b -> b.timeout(Duration.ZERO));
        assertRejected("maxConcurrentCalls 0", b -> b.maxConcurrentCalls(0));
        assertRejected(
                "maxWaitForSlot PT-1S must be between 0 and 5 minutes", b -> b.maxWaitForSlot(Duration.ofSeconds(-1)));
        assertRejected("minimumCalls 30 must be between 1 and the slidingWindowSize 20", b -> b.minimumCalls(30));
        assertRejected("failureRateThreshold 0.0", b -> b.failureRateThreshold(0));
        assertRejected("waitInOpenState PT2H", b -> b.waitInOpenState(Duration.ofHours(2)));
        assertRejected("permittedCallsInHalfOpen 0", b -> b.permittedCallsInHalfOpen(0));
        assertRejected("slidingWindowSize 0", b -> b.slidingWindowSize(0));
    }

    @Test
    void aShortTimeoutCapsTheWaitForASlot() {
        assertEquals(
                Duration.ofMillis(50),
                ProviderPolicy.builder().timeout(Duration.ofMillis(50)).build().maxWaitForSlot());
        assertEquals(
                Duration.ofMillis(50),
                ProviderPolicy.defaults().toBuilder()
                        .timeout(Duration.ofMillis(50))
                        .build()
                        .maxWaitForSlot(),
                "--provider-timeout-ms below the default wait must not be refused");
    }

    private static void assertRejected(String message, Consumer<ProviderPolicy.Builder> change) {
        ProviderPolicy.Builder b = ProviderPolicy.builder();
        change.accept(b);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
