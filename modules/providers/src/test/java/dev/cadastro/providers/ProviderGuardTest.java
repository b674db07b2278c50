package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.enrichment.CompanyBureau;
import dev.cadastro.core.provider.MalformedAnswerException;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.provider.ProviderUnavailableException.Failure;
import dev.cadastro.providers.ProviderGuard.CircuitState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ProviderGuardTest {
    private final TestClock clock = new TestClock(Instant.parse("2026-03-10T15:00:00Z"));

    private static ProviderPolicy.Builder small() {
        return ProviderPolicy.builder()
                .timeout(Duration.ofMillis(300))
                .slidingWindowSize(10)
                .minimumCalls(5)
                .failureRateThreshold(50)
                .waitInOpenState(Duration.ofSeconds(30))
                .permittedCallsInHalfOpen(2);
    }

    private static Failure failureOf(Runnable call) {
        return assertThrows(ProviderUnavailableException.class, call::run).failure();
    }

    @Test
    void aTimeoutFreesTheCallerAndInterruptsTheProvider() throws InterruptedException {
        ProviderGuard guard = ProviderGuard.of("slow", small().build(), clock);
        CountDownLatch interrupted = new CountDownLatch(1);
        long start = System.nanoTime();
        ProviderUnavailableException e = assertThrows(
                ProviderUnavailableException.class,
                () -> guard.call(() -> {
                    try {
                        Thread.sleep(10_000);
                        return "late";
                    } catch (InterruptedException ie) {
                        interrupted.countDown();
                        return "interrupted";
                    }
                }));
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(Failure.TIMEOUT, e.failure());
        // 300 ms timeout; a generous margin for a shared machine, far below the provider's 10 s.
        assertTrue(waitedMillis < 2_000, "the caller waited " + waitedMillis + " ms");
        assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the provider's thread was interrupted");
        assertEquals(1, guard.snapshot().timeouts());
    }

    @Test
    void aProviderThatIgnoresTheInterruptKeepsItsSlotSoRunningCallsStayBounded() throws Exception {
        ProviderGuard guard = ProviderGuard.of(
                "stubborn",
                small().timeout(Duration.ofMillis(20)).maxConcurrentCalls(2).build(),
                clock);
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger peak = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.Supplier<String> stubborn = () -> {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                while (true) {
                    try {
                        if (release.await(10, TimeUnit.SECONDS)) {
                            return "late";
                        }
                    } catch (InterruptedException swallowed) {
                        // a client library that retries instead of giving up
                    }
                }
            } finally {
                running.decrementAndGet();
            }
        };
        try {
            int saturated = 0;
            for (int i = 0; i < 20; i++) {
                Failure f = failureOf(() -> guard.call(stubborn));
                if (f == Failure.SATURATED) {
                    saturated++;
                } else {
                    assertEquals(Failure.TIMEOUT, f);
                }
            }
            assertEquals(2, peak.get(), "never more calls at the provider than maxConcurrentCalls");
            assertEquals(18, saturated, "once both slots are held by hung calls, the rest fail fast");
            assertEquals(0, guard.snapshot().availableSlots());
        } finally {
            release.countDown();
            guard.close();
        }
    }

    @Test
    void aSlowSimulatedBureauTimesOut() {
        TestRegister fixture = TestRegister.get();
        CompanyBureau bureau = GuardedProviders.guard(
                "bureau", new SimulatedBureau(fixture.register, FaultPlan.parse("slow=5s")), small().build());
        long start = System.nanoTime();
        assertEquals(Failure.TIMEOUT, failureOf(() -> bureau.company(fixture.cnpjs.get(0))));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 3_000);
    }

    @Test
    void aDownBureauIsAnError() {
        TestRegister fixture = TestRegister.get();
        CompanyBureau bureau = GuardedProviders.guard(
                "bureau", new SimulatedBureau(fixture.register, FaultPlan.parse("down")), small().build());
        ProviderUnavailableException e =
                assertThrows(ProviderUnavailableException.class, () -> bureau.company(fixture.cnpjs.get(0)));
        assertEquals(Failure.ERROR, e.failure());
        assertEquals("bureau", e.provider());
        assertEquals(Optional.empty(), e.retryAfter());
    }

    @Test
    void aFullBulkheadFailsAfterItsWaitWithoutCallingTheProviderOrCountingAgainstIt() throws Exception {
        ProviderGuard guard = ProviderGuard.of(
                "busy",
                small().maxConcurrentCalls(2).timeout(Duration.ofSeconds(10)).build(),
                clock);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Thread[] holders = new Thread[2];
        for (int i = 0; i < 2; i++) {
            holders[i] = Thread.ofVirtual()
                    .start(() -> guard.call(() -> {
                        calls.incrementAndGet();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return "ok";
                    }));
        }
        while (guard.snapshot().availableSlots() > 0) {
            Thread.sleep(5);
        }
        assertEquals(Failure.SATURATED, failureOf(() -> guard.call(calls::incrementAndGet)));
        release.countDown();
        for (Thread t : holders) {
            t.join();
        }
        assertEquals(2, calls.get(), "the refused call never reached the provider");
        ProviderGuard.Snapshot s = guard.snapshot();
        assertEquals(1, s.saturated());
        assertEquals(2, s.bufferedCalls(), "saturation is not a provider failure");
        assertEquals(CircuitState.CLOSED, s.state());
    }

    @Test
    void theBreakerOpensAfterFailuresThenFailsFastWithoutCallingTheProvider() {
        ProviderGuard guard = ProviderGuard.of("flaky", small().build(), clock);
        AtomicInteger calls = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            assertEquals(
                    Failure.ERROR,
                    failureOf(() -> guard.call(() -> {
                        calls.incrementAndGet();
                        throw new IllegalStateException("boom");
                    })));
        }
        assertEquals(CircuitState.OPEN, guard.snapshot().state());

        ProviderUnavailableException open = assertThrows(
                ProviderUnavailableException.class,
                () -> guard.call(() -> {
                    calls.incrementAndGet();
                    return "never";
                }));

        assertEquals(Failure.CIRCUIT_OPEN, open.failure());
        assertEquals(5, calls.get());
        assertEquals(Optional.of(Duration.ofSeconds(30)), open.retryAfter());
        clock.advance(Duration.ofSeconds(10));
        assertEquals(
                Optional.of(Duration.ofSeconds(20)),
                assertThrows(ProviderUnavailableException.class, () -> guard.call(() -> "never"))
                        .retryAfter());
        assertEquals(2, guard.snapshot().rejectedOpen());
    }

    @Test
    void aHalfOpenProbeClosesTheCircuitAgain() {
        ProviderGuard guard = ProviderGuard.of("recovering", small().build(), clock);
        for (int i = 0; i < 5; i++) {
            failureOf(() -> guard.call(() -> {
                throw new IllegalStateException("boom");
            }));
        }
        assertEquals(CircuitState.OPEN, guard.snapshot().state());
        clock.advance(Duration.ofSeconds(31));

        assertEquals("probe 1", guard.call(() -> "probe 1"));
        assertEquals(CircuitState.HALF_OPEN, guard.snapshot().state());
        assertEquals("probe 2", guard.call(() -> "probe 2"));

        assertEquals(CircuitState.CLOSED, guard.snapshot().state());
        assertEquals("normal", guard.call(() -> "normal"));
    }

    @Test
    void aFailedProbeOpensTheCircuitForAnotherWait() {
        ProviderGuard guard = ProviderGuard.of("still-down", small().build(), clock);
        for (int i = 0; i < 5; i++) {
            failureOf(() -> guard.call(() -> {
                throw new IllegalStateException("boom");
            }));
        }
        clock.advance(Duration.ofSeconds(31));
        failureOf(() -> guard.call(() -> {
            throw new IllegalStateException("still");
        }));
        failureOf(() -> guard.call(() -> {
            throw new IllegalStateException("still");
        }));
        ProviderUnavailableException e = assertThrows(ProviderUnavailableException.class, () -> guard.call(() -> "x"));
        assertEquals(Failure.CIRCUIT_OPEN, e.failure());
        assertEquals(Optional.of(Duration.ofSeconds(30)), e.retryAfter());
    }

    @Test
    void malformedAnswersAreFailuresThatOpenTheCircuit() {
        TestRegister fixture = TestRegister.get();
        ProviderGuard guard = ProviderGuard.of("bureau", small().build(), clock);
        CompanyBureau bureau =
                GuardedProviders.guard(new SimulatedBureau(fixture.register, FaultPlan.parse("malformed")), guard);
        for (Cnpj cnpj : fixture.cnpjs.subList(0, 5)) {
            ProviderUnavailableException e =
                    assertThrows(ProviderUnavailableException.class, () -> bureau.company(cnpj));
            assertEquals(Failure.MALFORMED, e.failure());
            assertTrue(e.getCause() instanceof MalformedAnswerException);
            assertFalse(e.getMessage().contains(cnpj.value()), "the message never names the document");
        }
        assertEquals(5, guard.snapshot().malformed());
        assertEquals(CircuitState.OPEN, guard.snapshot().state());
    }

    @Test
    void emptyAnswersAreSuccesses() {
        TestRegister fixture = TestRegister.get();
        ProviderGuard guard = ProviderGuard.of("bureau", small().build(), clock);
        CompanyBureau bureau = GuardedProviders.guard(new SimulatedBureau(fixture.register, FaultPlan.none()), guard);
        Cnpj unknown = fixture.outside(c -> !SimulatedBureau.knowsOutsideRegister(c));
        for (int i = 0; i < 12; i++) {
            assertEquals(Optional.empty(), bureau.company(unknown));
        }
        ProviderGuard.Snapshot s = guard.snapshot();
        assertEquals(CircuitState.CLOSED, s.state());
        assertEquals(0f, s.failureRate());
        assertEquals(12, s.succeeded());
    }
}
