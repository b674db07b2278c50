package dev.cadastro.store;

import static dev.cadastro.store.CallFixtures.archived;
import static dev.cadastro.store.CallFixtures.call;
import static dev.cadastro.store.CallFixtures.deliveries;
import static dev.cadastro.store.CallFixtures.destination;
import static dev.cadastro.store.CallFixtures.integration;
import static dev.cadastro.store.CallFixtures.ready;
import static dev.cadastro.store.CallFixtures.reclassified;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.CallStore;
import dev.cadastro.core.calls.CallStore.IngestResult;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.core.error.InvalidParameterException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The call store's ingest rules and outbox rows, and its list, against the real embedded PostgreSQL. */
class CallStoreTest {
    private static final Instant T = Instant.parse("2026-11-20T13:00:00.123456Z");
    private final CallStore calls = TestDatabase.store().calls();

    private static List<String> ids(List<CallRecord> page) {
        return page.stream().map(CallRecord::id).toList();
    }

    @Test
    void ingestingTheSameBatchTwiceChangesNothingTheSecondTime() {
        Integration i = integration();
        destination(i, true, true);
        List<CallRecord> batch = List.of(
                ready(i, "A1", T),
                ready(i, "A2", T.plusSeconds(1)),
                call(i, "A3", T.plusSeconds(2), null, "Venda realizada"));
        assertEquals(new IngestResult(3, 0, 0, 0, 2), calls.ingest(batch));
        assertEquals(new IngestResult(0, 0, 0, 3, 0), calls.ingest(batch));
        assertEquals(2, deliveries(i).size());
        for (CallRecord r : batch) {
            assertEquals(Optional.of(r), calls.find(i.id(), r.id()), "stored exactly as given, to the microsecond");
        }
    }

    @Test
    void aLaterClassificationReplacesTheResultAndItsTimeAndAnEarlierOneChangesNothing() {
        Integration i = integration();
        CallRecord first = ready(i, "R1", T);
        calls.ingest(List.of(first));
        CallRecord later = reclassified(first, T.plusSeconds(600), "Retornar depois");
        assertEquals(new IngestResult(0, 1, 0, 0, 0), calls.ingest(List.of(later)));
        assertEquals(Optional.of(later), calls.find(i.id(), "R1"));
        CallRecord stale = reclassified(first, T.plusSeconds(300), "Sem interesse");
        assertEquals(new IngestResult(0, 0, 0, 1, 0), calls.ingest(List.of(stale)));
        assertEquals(Optional.of(later), calls.find(i.id(), "R1"));
        CallRecord sameTimeOtherResult = reclassified(first, T.plusSeconds(600), "Sem interesse");
        calls.ingest(List.of(sameTimeOtherResult));
        assertEquals("Retornar depois", calls.find(i.id(), "R1").orElseThrow().resultDescription());
    }

    @Test
    void aReclassifiedReadyCallIsPushedAgainOnlyWhenTheDestinationWantsResends() {
        Integration resend = integration();
        destination(resend, true, false); // paused: its deliveries still wait in the outbox
        Integration once = integration();
        destination(once, false, true);
        for (Integration i : List.of(resend, once)) {
            CallRecord r = ready(i, "X", T);
            calls.ingest(List.of(r));
            calls.ingest(List.of(reclassified(r, T.plusSeconds(60), "Retornar depois")));
        }
        assertEquals(
                List.of("pronta", "reclassificada"),
                deliveries(resend).stream().map(CallFixtures.Delivery::reason).toList());
        assertEquals(
                List.of("pronta"),
                deliveries(once).stream().map(CallFixtures.Delivery::reason).toList());
        CallFixtures.Delivery d = deliveries(resend).get(1);
        assertEquals("pendente", d.state());
        assertEquals(0, d.attempts());
    }

    @Test
    void aCallReclassifiedBeforeItsRecordingIsArchivedIsPushedOnceWhenReady() {
        Integration i = integration();
        destination(i, true, true);
        CallRecord r = call(i, "P", T, null, "Venda realizada");
        calls.ingest(List.of(r));
        assertEquals(
                new IngestResult(0, 1, 0, 0, 0), calls.ingest(List.of(reclassified(r, T.plusSeconds(5), "Outro"))));
        assertTrue(deliveries(i).isEmpty(), "not ready: nothing to push yet");
        calls.ingest(List.of(archived(reclassified(r, T.plusSeconds(5), "Outro"), T.plusSeconds(90))));
        assertEquals(
                List.of("pronta"),
                deliveries(i).stream().map(CallFixtures.Delivery::reason).toList());
    }

    @Test
    void archivingWritesOneProntaDeliveryAndTheArchiveIsNeverCleared() {
        Integration i = integration();
        destination(i, false, true);
        CallRecord pending = call(i, "W", T, null, "Venda realizada");
        assertEquals(new IngestResult(1, 0, 0, 0, 0), calls.ingest(List.of(pending)));
        assertTrue(deliveries(i).isEmpty());
        CallRecord done = archived(pending, T.plusSeconds(120));
        assertEquals(new IngestResult(0, 0, 1, 0, 1), calls.ingest(List.of(done)));
        assertEquals(new IngestResult(0, 0, 0, 1, 0), calls.ingest(List.of(done)));
        assertEquals(new IngestResult(0, 0, 0, 1, 0), calls.ingest(List.of(pending)), "an unarchived state again");
        assertEquals(Optional.of(done), calls.find(i.id(), "W"));
        assertEquals(1, deliveries(i).size());
        CallRecord laterArchive = archived(pending, T.plusSeconds(999));
        calls.ingest(List.of(laterArchive));
        assertEquals(done.archivedAt(), calls.find(i.id(), "W").orElseThrow().archivedAt(), "set once");
    }

    @Test
    void withoutADestinationNoDeliveryRowIsWritten() {
        Integration i = integration();
        CallRecord r = ready(i, "N", T);
        calls.ingest(List.of(r));
        calls.ingest(List.of(reclassified(r, T.plusSeconds(1), "Outro")));
        assertTrue(deliveries(i).isEmpty());
    }

    @Test
    void eachDeliveryHasItsOwnWebhookId() {
        Integration i = integration();
        destination(i, true, true);
        List<CallRecord> batch = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            batch.add(ready(i, "M" + k, T.plusMillis(k)));
        }
        calls.ingest(batch);
        List<CallFixtures.Delivery> ds = deliveries(i);
        assertEquals(50, ds.size());
        assertEquals(
                50,
                new HashSet<>(ds.stream().map(CallFixtures.Delivery::webhookId).toList()).size());
        assertTrue(
                ds.stream().allMatch(d -> d.webhookId().matches("msg_[A-Za-z0-9_-]{22}")),
                ds.get(0).webhookId());
    }

    @Test
    void aStateGivenTwiceInOneIngestCountsOnceAsTheMergeOfItsStates() {
        Integration i = integration();
        destination(i, true, true);
        CallRecord r = call(i, "D", T, null, "Venda realizada");
        IngestResult result = calls.ingest(List.of(r, archived(r, T.plusSeconds(30))));
        assertEquals(new IngestResult(1, 0, 0, 0, 1), result);
        assertEquals(T.plusSeconds(30), calls.find(i.id(), "D").orElseThrow().archivedAt());
    }

    @Test
    void anIngestThatFailsOnItsLastRowLeavesNothingWritten() {
        Integration i = integration();
        destination(i, true, true);
        CallRecord known = call(i, "K", T, null, "Venda realizada");
        calls.ingest(List.of(known));
        List<CallRecord> batch = new ArrayList<>();
        batch.add(archived(known, T.plusSeconds(60)));
        for (int k = 0; k < 1_200; k++) { // three chunks
            batch.add(ready(i, String.format("F%05d", k), T.plusMillis(k)));
        }
        // The last row (in key order too) names an integration that does not exist: a foreign-key violation,
        // reported as the data's fault, so a caller can set the record aside.
        Integration missing = new Integration(Long.MAX_VALUE, "missing");
        batch.add(ready(missing, "zzz", T));
        assertThrows(InvalidParameterException.class, () -> calls.ingest(batch));
        assertEquals(1, CallFixtures.count("SELECT count(*) FROM calls WHERE integration_id = ?", i.id()));
        assertEquals(Optional.of(known), calls.find(i.id(), "K"), "the archive of a known call was rolled back");
        assertTrue(deliveries(i).isEmpty());
    }

    @Test
    void concurrentIngestsOfTheSameCallsQueueOneDeliveryPerCall() throws Exception {
        Integration i = integration();
        destination(i, false, true);
        List<CallRecord> pending = new ArrayList<>();
        List<CallRecord> done = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            CallRecord r = call(i, "Q" + k, T.plusMillis(k), null, "Venda realizada");
            pending.add(r);
            done.add(archived(r, T.plusSeconds(60)));
        }
        calls.ingest(pending.subList(0, 150)); // half known and waiting for the archive, half new
        int threads = 4;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<IngestResult>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<CallRecord> mine = new ArrayList<>(done);
                java.util.Collections.shuffle(mine, new java.util.Random(t));
                results.add(pool.submit(() -> {
                    go.await();
                    return calls.ingest(mine);
                }));
            }
            go.countDown();
            IngestResult sum = IngestResult.NOTHING;
            for (var f : results) {
                sum = sum.plus(f.get());
            }
            assertEquals(150, sum.inserted());
            assertEquals(150, sum.archived());
            assertEquals(300, sum.deliveriesQueued());
        } finally {
            pool.shutdownNow();
        }
        List<CallFixtures.Delivery> ds = deliveries(i);
        assertEquals(300, ds.size());
        assertEquals(
                300,
                new HashSet<>(ds.stream().map(CallFixtures.Delivery::callId).toList()).size());
    }

    @Test
    void listsReadyCallsNewestFirstByTimeThenIdInByteOrder() {
        Integration i = integration();
        calls.ingest(List.of(
                ready(i, "b", T),
                ready(i, "B", T),
                ready(i, "a", T),
                ready(i, "Z-1", T.plusNanos(1_000)),
                ready(i, "old", T.minusSeconds(1)),
                call(i, "not-ready", T.plusSeconds(10), null, "Venda realizada")));
        List<CallRecord> all = calls.page(i.id(), CallFilter.NONE, Optional.empty(), T.minus(Duration.ofDays(7)), 50);
        assertEquals(List.of("Z-1", "b", "a", "B", "old"), ids(all));
        List<CallRecord> rest =
                calls.page(i.id(), CallFilter.NONE, Optional.of(all.get(1).position()), T.minus(Duration.ofDays(7)), 2);
        assertEquals(List.of("a", "B"), ids(rest));
        List<CallPosition> positions = all.stream().map(CallRecord::position).toList();
        assertEquals(positions.stream().sorted(CallPosition.LIST_ORDER).toList(), positions);
    }

    @Test
    void theWindowStartIsInclusiveToTheMicrosecond() {
        Integration i = integration();
        Instant windowStart = T.minus(Duration.ofDays(7));
        calls.ingest(List.of(
                ready(i, "edge", windowStart),
                ready(i, "before", windowStart.minusNanos(1_000)),
                ready(i, "after", windowStart.plusNanos(1_000))));
        assertEquals(
                List.of("after", "edge"), ids(calls.page(i.id(), CallFilter.NONE, Optional.empty(), windowStart, 50)));
        assertEquals(
                List.of("after"),
                ids(calls.page(i.id(), CallFilter.NONE, Optional.empty(), windowStart.plusNanos(1_000), 50)));
        assertTrue(calls.find(i.id(), "before").isPresent(), "find ignores the window");
    }

    @Test
    void filtersCompareExactlyAndCombineWithAnd() {
        Integration i = integration();
        calls.ingest(List.of(
                call(i, "1", T, T, "Venda realizada", "ana.silva", "vendas"),
                call(i, "2", T.plusSeconds(1), T, "Venda realizada", "Ana.Silva", "vendas"),
                call(i, "3", T.plusSeconds(2), T, "venda realizada", "ana.silva", "vendas"),
                call(i, "4", T.plusSeconds(3), T, "Venda realizada", "ana.silv", "vendas 2"),
                call(i, "5", T.plusSeconds(4), T, "Venda realizada", "ana.silva", "suporte")));
        Instant w = T.minus(Duration.ofDays(1));
        CallFilter agent = new CallFilter(
                Optional.empty(), Optional.empty(), Optional.of("ana.silva"), Optional.empty(), Optional.empty());
        assertEquals(List.of("5", "3", "1"), ids(calls.page(i.id(), agent, Optional.empty(), w, 50)));
        CallFilter all = new CallFilter(
                Optional.of(T),
                Optional.of(T.plusSeconds(3)),
                Optional.of("ana.silva"),
                Optional.of("vendas"),
                Optional.of("Venda realizada"));
        assertEquals(List.of("1"), ids(calls.page(i.id(), all, Optional.empty(), w, 50)));
        CallFilter since = new CallFilter(
                Optional.of(T.plusSeconds(3)), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        assertEquals(List.of("5", "4"), ids(calls.page(i.id(), since, Optional.empty(), w, 50)));
        CallFilter until = new CallFilter(
                Optional.empty(), Optional.of(T.plusSeconds(1)), Optional.empty(), Optional.empty(), Optional.empty());
        assertEquals(List.of("2", "1"), ids(calls.page(i.id(), until, Optional.empty(), w, 50)));
    }

    @Test
    void anotherIntegrationsCallsAreNeverListedOrFound() {
        Integration mine = integration();
        Integration theirs = integration();
        calls.ingest(
                List.of(ready(mine, "same-id", T), ready(theirs, "same-id", T.plusSeconds(1)), ready(theirs, "t2", T)));
        assertEquals(
                List.of("same-id"),
                ids(calls.page(mine.id(), CallFilter.NONE, Optional.empty(), T.minusSeconds(60), 50)));
        assertEquals(T, calls.find(mine.id(), "same-id").orElseThrow().classifiedAt());
        assertTrue(calls.find(mine.id(), "t2").isEmpty());
        assertNotEquals(mine.id(), theirs.id());
    }

    @Test
    void anUntilBoundWithNanosecondsIsCutNotRoundedUp() {
        Integration i = integration();
        Instant t = Instant.parse("2026-11-20T12:00:01Z");
        calls.ingest(List.of(ready(i, "at", t)));
        CallFilter until = new CallFilter(
                Optional.empty(), Optional.of(t.minusNanos(400)), Optional.empty(), Optional.empty(), Optional.empty());
        assertEquals(List.of(), calls.page(i.id(), until, Optional.empty(), t.minusSeconds(3600), 10));
    }

    @Test
    void twoIngestsWhoseChunksOverlapInOppositeOrdersNeverDeadlock() throws Exception {
        Integration i = integration();
        Instant at = Instant.parse("2026-11-20T12:00:00Z");
        for (int round = 0; round < 6; round++) {
            String p = "r" + round + "-";
            calls.ingest(List.of(ready(i, p + "k", at)));
            // A is one chunk (k, 498 new, z); B is two (k and 499 new, then z): without one lock order
            // across the batch, A holds z's insert and waits for k while B holds k and waits for z.
            List<CallRecord> a = new ArrayList<>();
            List<CallRecord> b = new ArrayList<>();
            a.add(ready(i, p + "k", at));
            b.add(ready(i, p + "k", at));
            for (int n = 0; n < 499; n++) {
                if (n < 498) {
                    a.add(ready(i, p + String.format("m%03d", n), at));
                }
                b.add(ready(i, p + String.format("n%03d", n), at));
            }
            a.add(ready(i, p + "z", at));
            b.add(ready(i, p + "z", at));
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
            try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
                java.util.concurrent.Future<IngestResult> fa = pool.submit(() -> {
                    start.await();
                    return calls.ingest(a);
                });
                java.util.concurrent.Future<IngestResult> fb = pool.submit(() -> {
                    start.await();
                    return calls.ingest(b);
                });
                IngestResult ra = fa.get();
                IngestResult rb = fb.get();
                assertEquals(498 + 499 + 1, ra.inserted() + rb.inserted(), "round " + round);
            }
            assertTrue(calls.find(i.id(), p + "z").isPresent());
        }
    }
}
