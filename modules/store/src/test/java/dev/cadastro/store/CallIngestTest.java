package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallIngest;
import dev.cadastro.core.calls.CallIngestLoop;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallSource;
import dev.cadastro.core.calls.CallStore.IngestResult;
import dev.cadastro.core.calls.IngestCheckpoints;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.internal.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The ingest checkpoints' leases and the ingest use case's ticks, on the real embedded PostgreSQL. */
class CallIngestTest {
    private static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");
    private final Store store = TestDatabase.store();
    private final IngestCheckpoints checkpoints = store.ingestCheckpoints();

    private static String source() {
        return "src-" + UUID.randomUUID();
    }

    /** A source whose calls are set by the test, recording every interval it was asked for. */
    static class ListSource implements CallSource {
        final String name = source();
        final List<CallRecord> calls = new CopyOnWriteArrayList<>();
        final List<Instant[]> asked = new CopyOnWriteArrayList<>();
        volatile RuntimeException failure;

        @Override
        public String name() {
            return name;
        }

        @Override
        public List<CallRecord> changes(Instant from, Instant to) {
            asked.add(new Instant[] {from, to});
            if (failure != null) {
                throw failure;
            }
            return calls.stream()
                    .filter(c ->
                            c.classifiedAt().isAfter(from) && !c.classifiedAt().isAfter(to))
                    .toList();
        }
    }

    private CallIngest ingest(String owner) {
        return new CallIngest(
                store.calls(),
                checkpoints,
                CallIngest.Options.defaults(owner).withBatchSize(2).withSlice(Duration.ofDays(7)),
                new ManualClock(NOW));
    }

    @Test
    void twoOwnersCannotHoldOneSourceUntilTheLeaseRunsOut() {
        String s = source();
        Instant start = NOW.minus(Duration.ofDays(7));
        assertEquals(Optional.of(start), checkpoints.claim(s, "a", NOW, Duration.ofMinutes(5), start));
        assertEquals(Optional.empty(), checkpoints.claim(s, "b", NOW.plusSeconds(299), Duration.ofMinutes(5), NOW));
        assertFalse(checkpoints.advance(s, "b", NOW));
        assertTrue(checkpoints.advance(s, "a", NOW));
        assertEquals(Optional.of(NOW), checkpoints.claim(s, "a", NOW.plusSeconds(10), Duration.ofMinutes(5), start));
        // a's renewed lease runs until NOW + 310 s; then b may take the source over.
        assertEquals(Optional.of(NOW), checkpoints.claim(s, "b", NOW.plusSeconds(310), Duration.ofMinutes(5), start));
        assertFalse(checkpoints.advance(s, "a", NOW.plusSeconds(60)), "a lost it");
    }

    /**
     * A server killed in the middle of a tick never releases its source: with the default options another
     * server takes it over once a minute has passed (the fleet run found a 10-minute lease stopping the
     * call feed for the rest of the run), and the dead tick's calls are read again from its checkpoint.
     */
    @Test
    void aSourceWhoseServerDiedMidTickIsTakenOverWithinAMinute() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        source.calls.add(CallFixtures.ready(i, "lost-with-the-tick", NOW.minusSeconds(30)));
        Instant start = NOW.minus(Duration.ofHours(1));
        CallIngest.Options defaults = CallIngest.Options.defaults("dead");
        // The dead server's tick: claimed under the default lease, then nothing (no advance, no release).
        assertTrue(checkpoints
                .claim(source.name(), "dead", NOW, defaults.lease(), start)
                .isPresent());
        CallIngest survivor = new CallIngest(
                store.calls(), checkpoints, CallIngest.Options.defaults("survivor"), new ManualClock(NOW));
        assertEquals(Optional.empty(), survivor.runOnce(source, NOW.plusSeconds(59)), "the lease still holds");
        Optional<IngestResult> taken = survivor.runOnce(source, NOW.plusSeconds(60));
        assertEquals(Optional.of(new IngestResult(1, 0, 0, 0, 0)), taken, "taken over a minute after the claim");
        assertEquals(
                Optional.of(NOW.plusSeconds(60)),
                checkpoints.claim(source.name(), "third", NOW.plusSeconds(61), defaults.lease(), start),
                "the survivor advanced and released the source");
    }

    /**
     * A slice slower than the lease keeps its source: the tick renews its lease every third of it while
     * it runs, so another server cannot take the source over and re-read the same slice (which, slow too,
     * would lose it back, and the checkpoint would never move).
     */
    @Test
    void aSliceSlowerThanTheLeaseKeepsItsSource() throws Exception {
        Integration i = CallFixtures.integration();
        java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        ListSource source = new ListSource() {
            @Override
            public List<CallRecord> changes(Instant from, Instant to) {
                reading.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.changes(from, to);
            }
        };
        Instant now = Instant.now();
        source.calls.add(CallFixtures.ready(i, "slow", now.minusSeconds(30)));
        CallIngest slow = new CallIngest(
                store.calls(),
                checkpoints,
                CallIngest.Options.defaults("slow")
                        .withLease(Duration.ofSeconds(1))
                        .withFirstLookBack(Duration.ofHours(1)),
                java.time.Clock.systemUTC());
        var tick = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return slow.runOnce(source, now);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(reading.await(10, java.util.concurrent.TimeUnit.SECONDS));
        // Three leases long, the other server asks every 200 ms: the source is never free.
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < until) {
            assertEquals(
                    Optional.empty(),
                    checkpoints.claim(source.name(), "other", Instant.now(), Duration.ofSeconds(1), now),
                    "the slow tick's lease was renewed");
            Thread.sleep(200);
        }
        done.countDown();
        assertEquals(Optional.of(new IngestResult(1, 0, 0, 0, 0)), tick.get(10, java.util.concurrent.TimeUnit.SECONDS));
    }

    @Test
    void aReleasedSourceIsTakenAtOnceAndTheCheckpointNeverMovesBack() {
        String s = source();
        checkpoints.claim(s, "a", NOW, Duration.ofMinutes(5), NOW);
        assertTrue(checkpoints.advance(s, "a", NOW.plusSeconds(120)));
        assertTrue(checkpoints.advance(s, "a", NOW.plusSeconds(60)));
        checkpoints.release(s, "a");
        assertEquals(Optional.of(NOW.plusSeconds(120)), checkpoints.claim(s, "b", NOW, Duration.ofMinutes(5), NOW));
    }

    @Test
    void aTickReadsFromTheCheckpointAndTheFirstOneReadsTheLastSevenDays() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        source.calls.add(CallFixtures.ready(i, "old", NOW.minus(Duration.ofDays(8))));
        source.calls.add(CallFixtures.ready(i, "week", NOW.minus(Duration.ofDays(6))));
        source.calls.add(CallFixtures.ready(i, "now", NOW.minusSeconds(1)));
        CallIngest ingest = ingest("server-1");
        assertEquals(Optional.of(new IngestResult(2, 0, 0, 0, 0)), ingest.runOnce(source, NOW));
        assertEquals(NOW.minus(Duration.ofDays(7)), source.asked.get(0)[0]);
        assertTrue(store.calls().find(i.id(), "old").isEmpty());
        source.calls.add(CallFixtures.ready(i, "later", NOW.plusSeconds(60)));
        assertEquals(Optional.of(new IngestResult(1, 0, 0, 0, 0)), ingest.runOnce(source, NOW.plusSeconds(120)));
        assertEquals(NOW, source.asked.get(1)[0]);
        assertEquals(NOW.plusSeconds(120), source.asked.get(1)[1]);
    }

    @Test
    void aFailedTickLeavesTheCheckpointSoTheNextTickReadsTheSameChangesAgain() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        CallIngest ingest = ingest("server-1");
        ingest.runOnce(source, NOW); // the checkpoint is now NOW
        for (int k = 0; k < 5; k++) {
            source.calls.add(CallFixtures.ready(i, "c" + k, NOW.plusSeconds(10 + k)));
        }
        source.failure = new IllegalStateException("exchange down");
        assertThrows(IllegalStateException.class, () -> ingest.runOnce(source, NOW.plusSeconds(120)));
        source.failure = null;
        Optional<IngestResult> again = ingest.runOnce(source, NOW.plusSeconds(240));
        assertEquals(NOW, source.asked.get(2)[0], "read again from the old checkpoint");
        assertEquals(5, again.orElseThrow().inserted());
        ingest.runOnce(source, NOW.plusSeconds(480));
        assertEquals(NOW.plusSeconds(240), source.asked.get(3)[0]);
    }

    @Test
    void aTickAtANanosecondInstantLeavesNoGapBeforeTheNextOne() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        CallIngest ingest = ingest("server-1");
        ingest.runOnce(source, NOW);
        // The tick's clock reads 700 ns past the minute; the call is classified 1 µs past it. Stored as
        // given, the checkpoint would round up to that microsecond and the call would fall between ticks.
        source.calls.add(CallFixtures.ready(i, "edge", NOW.plusSeconds(120).plusNanos(1_000)));
        ingest.runOnce(source, NOW.plusSeconds(120).plusNanos(700));
        ingest.runOnce(source, NOW.plusSeconds(240));
        assertTrue(store.calls().find(i.id(), "edge").isPresent(), "the call is in one of the two windows");
        assertEquals(NOW.plusSeconds(120), source.asked.get(2)[0]);
    }

    private static CallRecord withLogin(CallRecord r, String login) {
        return new CallRecord(
                r.integrationId(),
                r.id(),
                r.occurrenceId(),
                r.agentId(),
                login,
                r.agentName(),
                r.queue(),
                r.resultCode(),
                r.resultDescription(),
                r.classifiedAt(),
                r.startedAt(),
                r.durationSeconds(),
                r.archivedAt(),
                r.recordingKey());
    }

    private static CallRecord classifiedAt(CallRecord r, Instant at) {
        return new CallRecord(
                r.integrationId(),
                r.id(),
                r.occurrenceId(),
                r.agentId(),
                r.agentLogin(),
                r.agentName(),
                r.queue(),
                r.resultCode(),
                r.resultDescription(),
                at,
                r.startedAt(),
                r.durationSeconds(),
                r.archivedAt(),
                r.recordingKey());
    }

    @Test
    void theCheckRefusesWhatPostgresqlCannotKeep() {
        CallRecord r = CallFixtures.ready(new Integration(1, "x"), "r", NOW);
        assertEquals(
                "agentLogin",
                CallIngest.check(withLogin(r, "a\u0000b")).orElseThrow().field());
        assertEquals(
                "agentLogin",
                CallIngest.check(withLogin(r, "a\nb")).orElseThrow().field());
        assertEquals(
                "agentLogin",
                CallIngest.check(withLogin(r, "a\u009bb")).orElseThrow().field());
        Instant y10k = Instant.parse("+10000-01-01T00:00:00Z");
        assertEquals(
                "classifiedAt",
                CallIngest.check(classifiedAt(r, y10k)).orElseThrow().field());
        CallRecord archivedLate =
                CallFixtures.call(new Integration(1, "x"), "r", NOW, y10k, "Venda", "ana.silva", "vendas");
        assertEquals("archivedAt", CallIngest.check(archivedLate).orElseThrow().field());
        CallRecord fine = CallFixtures.call(new Integration(1, "x"), "r", NOW, NOW, "Venda", "ana.silva", "vendas");
        CallRecord startedBc = new CallRecord(
                1, "r", "r", null, "a", null, "q", null, "d", NOW, Instant.parse("0000-12-31T23:59:59Z"), 1, null, "k");
        assertEquals("startedAt", CallIngest.check(startedBc).orElseThrow().field());
        assertEquals(Optional.empty(), CallIngest.check(fine));
    }

    @Test
    void aPoisonRecordIsSkippedAndRecordedAndTheSourceMovesOn() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        CallIngest ingest = ingest("server-1");
        ingest.runOnce(source, NOW);
        source.calls.add(CallFixtures.ready(i, "p1", NOW.plusSeconds(10)));
        source.calls.add(withLogin(CallFixtures.ready(i, "nul", NOW.plusSeconds(11)), "ana\u0000silva"));
        source.calls.add(CallFixtures.ready(i, "p2", NOW.plusSeconds(12)));
        assertEquals(
                2, ingest.runOnce(source, NOW.plusSeconds(120)).orElseThrow().inserted());
        assertTrue(store.calls().find(i.id(), "nul").isEmpty());
        assertEquals(
                1,
                CallFixtures.count(
                        "SELECT count(*) FROM call_ingest_rejects WHERE source = ? AND call_id = 'nul'"
                                + " AND reason LIKE '%agentLogin%' AND record LIKE '%ana\\\\u0000silva%'",
                        source.name()));
        ingest.runOnce(source, NOW.plusSeconds(240));
        assertEquals(NOW.plusSeconds(120), source.asked.get(2)[0], "the checkpoint moved past the bad record");
    }

    @Test
    void aRecordTheStoreStillRefusesIsRejectedAloneAndTheRestOfItsBatchIsIngested() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        CallIngest ingest = ingest("server-1");
        ingest.runOnce(source, NOW);
        // The check cannot know the integration does not exist; the store's foreign key refuses the call.
        source.calls.add(CallFixtures.ready(i, "s1", NOW.plusSeconds(10)));
        source.calls.add(CallFixtures.ready(new Integration(Long.MAX_VALUE, "gone"), "s2", NOW.plusSeconds(11)));
        source.calls.add(CallFixtures.ready(i, "s3", NOW.plusSeconds(12)));
        assertEquals(
                2, ingest.runOnce(source, NOW.plusSeconds(120)).orElseThrow().inserted());
        assertTrue(store.calls().find(i.id(), "s1").isPresent());
        assertTrue(store.calls().find(i.id(), "s3").isPresent());
        assertEquals(
                1,
                CallFixtures.count(
                        "SELECT count(*) FROM call_ingest_rejects WHERE source = ? AND call_id = 's2'", source.name()));
        ingest.runOnce(source, NOW.plusSeconds(240));
        assertEquals(NOW.plusSeconds(120), source.asked.get(2)[0]);
    }

    @Test
    void aLongIntervalIsReadInSlicesEachCommittedWithItsCheckpointAndTheLeaseRenewed() throws Exception {
        Integration i = CallFixtures.integration();
        ManualClock clock = new ManualClock(NOW);
        List<Optional<Instant>> otherClaims = new CopyOnWriteArrayList<>();
        ListSource source = new ListSource() {
            @Override
            public List<CallRecord> changes(Instant from, Instant to) {
                // Each slice takes 40 minutes of real time: after the first hour the lease first taken
                // would have run out, but each slice renewed it.
                clock.advance(Duration.ofMinutes(40));
                otherClaims.add(checkpoints.claim(name, "other", clock.instant(), Duration.ofHours(1), NOW));
                if (asked.size() == 3) {
                    asked.add(new Instant[] {from, to});
                    throw new IllegalStateException("exchange down in the fourth slice");
                }
                return super.changes(from, to);
            }
        };
        for (int h = 0; h < 5; h++) {
            source.calls.add(CallFixtures.ready(
                    i, "h" + h, NOW.minus(Duration.ofHours(5 - h)).plusSeconds(30)));
        }
        CallIngest ingest = new CallIngest(
                store.calls(),
                checkpoints,
                CallIngest.Options.defaults("slicer")
                        .withFirstLookBack(Duration.ofHours(5))
                        .withLease(Duration.ofHours(1))
                        .withSlice(Duration.ofHours(1)),
                clock);
        assertThrows(IllegalStateException.class, () -> ingest.runOnce(source, NOW));
        assertEquals(4, source.asked.size());
        for (int k = 0; k < 4; k++) {
            assertEquals(NOW.minus(Duration.ofHours(5 - k)), source.asked.get(k)[0], "slice " + k);
            assertEquals(NOW.minus(Duration.ofHours(4 - k)), source.asked.get(k)[1], "slice " + k);
        }
        assertTrue(otherClaims.stream().allMatch(Optional::isEmpty), "no one took the source while slices ran");
        assertTrue(store.calls().find(i.id(), "h2").isPresent());
        assertTrue(store.calls().find(i.id(), "h3").isEmpty());
        assertEquals(
                Optional.of(NOW.minus(Duration.ofHours(2))),
                checkpoints.claim(source.name(), "slicer", clock.instant(), Duration.ofHours(1), NOW),
                "the three slices that committed moved the checkpoint");
    }

    @Test
    void theSafetyLagLeavesTheLastMinutesToTheNextTick() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        CallIngest ingest = new CallIngest(
                store.calls(),
                checkpoints,
                CallIngest.Options.defaults("lagged")
                        .withSafetyLag(Duration.ofMinutes(5))
                        .withSlice(Duration.ofDays(7)),
                new ManualClock(NOW));
        ingest.runOnce(source, NOW);
        source.calls.add(CallFixtures.ready(i, "early", NOW.plusSeconds(30)));
        source.calls.add(CallFixtures.ready(i, "late", NOW.plusSeconds(590)));
        assertEquals(
                1, ingest.runOnce(source, NOW.plusSeconds(600)).orElseThrow().inserted());
        assertEquals(NOW.plusSeconds(300), source.asked.get(source.asked.size() - 1)[1]);
        assertTrue(store.calls().find(i.id(), "late").isEmpty());
        assertEquals(
                1, ingest.runOnce(source, NOW.plusSeconds(900)).orElseThrow().inserted());
        assertTrue(store.calls().find(i.id(), "late").isPresent());
    }

    @Test
    void aSourceHeldByAnotherServerIsLeftAlone() throws Exception {
        ListSource source = new ListSource();
        checkpoints.claim(source.name(), "other", NOW, Duration.ofMinutes(10), NOW.minusSeconds(60));
        assertEquals(Optional.empty(), ingest("server-1").runOnce(source, NOW.plusSeconds(60)));
        assertTrue(source.asked.isEmpty());
    }

    @Test
    void anInvalidRecordFromAFileFailsTheWholeIngestNamingTheRecordAndTheRule() {
        Integration i = CallFixtures.integration();
        CallRecord good = CallFixtures.ready(i, "g", NOW);
        CallRecord bad = new CallRecord(
                i.id(),
                "b",
                "b",
                null,
                " ",
                null,
                "vendas",
                null,
                "Venda",
                NOW,
                NOW.minusSeconds(5),
                5,
                null,
                "calls/b.wav");
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> ingest("x").ingest(List.of(good, bad)));
        assertTrue(
                e.getMessage().contains("record 2 (call b)") && e.getMessage().contains("agentLogin"), e.getMessage());
        assertTrue(store.calls().find(i.id(), "g").isEmpty());
        CallRecord escape = new CallRecord(
                i.id(),
                "e",
                "e",
                null,
                "a",
                null,
                "q",
                null,
                "r",
                NOW,
                NOW.minusSeconds(5),
                5,
                null,
                "../../etc/passwd");
        assertEquals("recordingKey", CallIngest.check(escape).orElseThrow().field());
    }

    @Test
    void theLoopTicksAtOnceAndAgainOnDemand() throws Exception {
        Integration i = CallFixtures.integration();
        ListSource source = new ListSource();
        ManualClock clock = new ManualClock(NOW);
        source.calls.add(CallFixtures.ready(i, "l1", NOW.minusSeconds(5)));
        try (CallIngestLoop loop = CallIngestLoop.start(ingest("loop"), List.of(source), clock, Duration.ofHours(1))) {
            loop.tickNow(); // after the first tick, which runs at once
            assertTrue(store.calls().find(i.id(), "l1").isPresent());
            source.calls.add(CallFixtures.ready(i, "l2", NOW.plusSeconds(30)));
            clock.advance(Duration.ofMinutes(2));
            loop.tickNow();
            assertTrue(store.calls().find(i.id(), "l2").isPresent());
        }
    }
}
