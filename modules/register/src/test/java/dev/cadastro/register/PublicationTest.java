package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublicationTest {
    private static final BuildOptions SMALL =
            BuildOptions.builder().ramBufferMb(32).indexingThreads(2).build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-08-09T03:00:00Z"), ZoneOffset.UTC);
    private static final SearchOptions NO_TIMER =
            SearchOptions.builder().refreshInterval(Duration.ZERO).build();

    private static PublishedIndex build(Path root, List<Establishment> rows, String label) {
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            for (Establishment e : rows) {
                b.add(e);
            }
            return b.publish(label);
        }
    }

    private static List<Establishment> rows(long seed, int n) {
        SyntheticRegister g = new SyntheticRegister(seed);
        List<Establishment> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(g.next());
        }
        return out;
    }

    private static String current(Path root) throws IOException {
        return Files.readString(root.resolve("CURRENT")).strip();
    }

    @Test
    void publishesAVerifiedGenerationAndPointsCurrentAtIt(@TempDir Path root) throws IOException {
        PublishedIndex p = build(root, rows(1, 2_000), "dump 2026-08");
        assertEquals(1, p.generation());
        assertEquals(2_000, p.documents());
        assertEquals("dump 2026-08", p.sourceLabel());
        assertEquals(CLOCK.instant(), p.publishedAt());
        assertEquals(root.resolve("gen-1"), p.path());
        assertEquals("gen-1", current(root));
        assertTrue(Files.exists(p.path().resolve("lookups.bin")));
        try (Stream s = new Stream(root)) {
            assertEquals(0, s.stagingDirs());
        }
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            assertEquals(p, r.published());
        }
    }

    @Test
    void anAbandonedBuildLeavesCurrentAndItsGenerationUntouched(@TempDir Path root) throws IOException {
        List<Establishment> first = rows(1, 1_000);
        build(root, first, "first");
        Path staging;
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            staging = b.stagingDirectory();
            for (Establishment e : rows(2, 500)) {
                b.add(e);
            }
            assertEquals(500, b.added());
        }
        assertFalse(Files.exists(staging), "close() deletes the staging directory");
        assertEquals("gen-1", current(root));
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            assertEquals(1_000, r.published().documents());
            assertTrue(r.lookup(first.get(17).cnpj()).isPresent());
        }
    }

    @Test
    void aCrashedBuildsStagingIsRemovedByTheNextBuild(@TempDir Path root) throws IOException {
        build(root, rows(1, 300), "first");
        Path stale = root.resolve("staging-2");
        Files.createDirectories(stale);
        Files.writeString(stale.resolve("_0.cfs"), "half-written");
        assertEquals("gen-1", current(root));
        PublishedIndex p = build(root, rows(3, 300), "second");
        assertFalse(Files.exists(stale));
        assertEquals(3, p.generation(), "numbers are never reused");
        assertEquals("gen-3", current(root));
    }

    @Test
    void buildsOfOneRootRunOneAtATime(@TempDir Path root) {
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK));
            assertTrue(e.getMessage().contains("build.lock"), e.getMessage());
            assertEquals(0, b.added());
        }
        RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)
                .close();
    }

    @Test
    void duplicateCnpjsKeepTheEstablishmentAddedLast(@TempDir Path root) {
        List<Establishment> rows = rows(5, 1_000);
        Establishment original = rows.get(10);
        Establishment replaced = renamed(original, "NOVO NOME", "08");
        List<Establishment> all = new ArrayList<>(rows);
        all.add(replaced);
        all.add(rows.get(20));
        PublishedIndex p = build(root, all, "with duplicates");
        assertEquals(1_000, p.documents());
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            Empresa e = r.lookup(original.cnpj()).orElseThrow();
            assertEquals("NOVO NOME", e.nomeFantasia());
            assertEquals("08", e.situacaoCadastral());
            CountResult c = r.count(RegisterQuery.builder()
                    .situacaoCadastral("01", "02", "03", "04", "08")
                    .build());
            assertEquals(1_000, c.total());
        }
    }

    @Test
    void aCnpjAddedThreeTimesKeepsTheThirdAndOnlyRepeatsStoreTheirSequence(@TempDir Path root) throws IOException {
        List<Establishment> rows = rows(7, 2_000);
        List<Establishment> all = new ArrayList<>(rows);
        all.add(renamed(rows.get(3), "SEGUNDO", rows.get(3).situacaoCadastral()));
        all.addAll(rows.subList(100, 200));
        all.add(renamed(rows.get(3), "TERCEIRO", rows.get(3).situacaoCadastral()));
        PublishedIndex p = build(root, all, "three copies");
        assertEquals(2_000, p.documents());
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            assertEquals("TERCEIRO", r.lookup(rows.get(3).cnpj()).orElseThrow().nomeFantasia());
        }
        // The first copy of a CNPJ stores no sequence (record version 3, read as 0); surviving repeats store theirs.
        long withSequence = 0;
        try (var dir = org.apache.lucene.store.FSDirectory.open(p.path());
                var reader = org.apache.lucene.index.DirectoryReader.open(dir)) {
            for (var leaf : reader.leaves()) {
                var records = leaf.reader().getBinaryDocValues(dev.cadastro.register.internal.Schema.RECORD);
                var live = leaf.reader().getLiveDocs();
                for (int d = records.nextDoc();
                        d != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS;
                        d = records.nextDoc()) {
                    if (live == null || live.get(d)) {
                        var bytes = records.binaryValue();
                        if (dev.cadastro.register.internal.RecordCodec.sequence(bytes.bytes, bytes.offset) != 0) {
                            withSequence++;
                        }
                    }
                }
            }
        }
        // 101 repeats survive with their sequence; a filter false positive could add a few, not hundreds.
        assertTrue(withSequence >= 101 && withSequence <= 101 + 20, withSequence + " records store a sequence");
    }

    @Test
    void copiesOfOneCnpjAddedFromTwoThreadsLeaveExactlyOneAndNeverTheFirst(@TempDir Path root) throws Exception {
        List<Establishment> rows = rows(11, 1_500);
        List<Establishment> repeated = rows.subList(0, 400);
        PublishedIndex p;
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            rows.forEach(b::add);
            // Two threads add a later copy of the same 400 CNPJs at once: either may win each race, but one copy
            // survives per CNPJ, and it is a later copy, never the first (which stored no sequence).
            var start = new java.util.concurrent.CountDownLatch(1);
            try (var threads = java.util.concurrent.Executors.newFixedThreadPool(2)) {
                var a = threads.submit(() -> {
                    start.await();
                    repeated.forEach(e -> b.add(renamed(e, "COPIA A", e.situacaoCadastral())));
                    return null;
                });
                var c = threads.submit(() -> {
                    start.await();
                    repeated.forEach(e -> b.add(renamed(e, "COPIA B", e.situacaoCadastral())));
                    return null;
                });
                start.countDown();
                a.get();
                c.get();
            }
            p = b.publish("two threads");
        }
        assertEquals(1_500, p.documents());
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            for (Establishment e : repeated) {
                String name = r.lookup(e.cnpj()).orElseThrow().nomeFantasia();
                assertTrue("COPIA A".equals(name) || "COPIA B".equals(name), e.cnpj() + " kept " + name);
            }
            for (Establishment e : rows.subList(400, 1_500)) {
                assertEquals(e.nomeFantasia(), r.lookup(e.cnpj()).orElseThrow().nomeFantasia());
            }
        }
    }

    /** A later copy of an establishment: same CNPJ, place and company, another name and situation. */
    private static Establishment renamed(Establishment original, String fantasia, String situacao) {
        return new Establishment(
                original.cnpj(),
                original.headOffice(),
                fantasia,
                situacao,
                null,
                null,
                null,
                null,
                original.dataAbertura(),
                original.cnaePrincipal(),
                List.of(),
                null,
                null,
                null,
                null,
                null,
                null,
                original.uf(),
                original.municipio(),
                List.of(),
                null,
                null,
                null,
                null,
                original.company(),
                original.simples(),
                false);
    }

    @Test
    void oneSegmentBuildReturnsPagesInStateMunicipalityCnpjOrder() {
        BuildOptions.Builder options = BuildOptions.builder().ramBufferMb(16).indexingThreads(2);
        try (RegisterFixture asBuilt = RegisterFixture.build(40_000, 8, options.build(), 2);
                RegisterFixture merged =
                        RegisterFixture.build(40_000, 8, options.maxSegments(1).build(), 2)) {
            assertTrue(asBuilt.segments() >= 2, "without maxSegments: " + asBuilt.segments() + " segment(s)");
            assertEquals(1, merged.segments());
            List<String> expected = merged.rows.stream()
                    .filter(Establishment::hasEmail)
                    .sorted(RegisterFixture.ESTABLISHMENT_ORDER)
                    .map(e -> e.cnpj().value())
                    .toList();
            List<String> actual = new ArrayList<>();
            try (LuceneRegister r = LuceneRegister.open(merged.root, NO_TIMER)) {
                for (int pagina = 1; actual.size() < expected.size(); pagina++) {
                    var page = r.search(RegisterQuery.builder()
                            .comEmail(true)
                            .limite(200)
                            .pagina(pagina)
                            .build());
                    assertFalse(page.dados().isEmpty(), "page " + pagina + " is empty before the end");
                    page.dados().forEach(e -> actual.add(e.cnpj()));
                }
            }
            assertEquals(expected, actual);
        }
    }

    @Test
    void duplicatesAreDroppedWhenSegmentsArePublishedAsBuilt(@TempDir Path root) {
        List<Establishment> rows = rows(6, 3_000);
        BuildOptions noMerge = BuildOptions.builder()
                .ramBufferMb(16)
                .indexingThreads(1)
                .maxSegments(0)
                .build();
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), noMerge, CLOCK)) {
            rows.forEach(b::add);
            rows.subList(0, 100).forEach(b::add);
            PublishedIndex p = b.publish("twice");
            assertEquals(3_000, p.documents());
        }
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            assertEquals(
                    new ReferenceFilter(RegisterQuery.builder().comEmail(true).build(), SyntheticRegister.lookups())
                            .count(rows),
                    r.count(RegisterQuery.builder().comEmail(true).build()).total());
        }
    }

    @Test
    void readersKeepAnsweringWhileNewGenerationsArePublished(@TempDir Path root) throws Exception {
        List<Establishment> first = rows(1, 3_000);
        build(root, first, "first");
        RegisterQuery q = RegisterQuery.builder().situacaoCadastral("02").build();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong answered = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Long> allowed = new ArrayList<>();
        allowed.add(new ReferenceFilter(q, SyntheticRegister.lookups()).count(first));
        try (LuceneRegister register = LuceneRegister.open(
                root,
                SearchOptions.builder().refreshInterval(Duration.ofMillis(5)).build())) {
            CountDownLatch started = new CountDownLatch(3);
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                readers.add(Thread.ofPlatform().start(() -> {
                    started.countDown();
                    while (!stop.get()) {
                        try {
                            long n = register.count(q).total();
                            register.search(RegisterQuery.builder()
                                    .situacaoCadastral("02")
                                    .limite(5)
                                    .build());
                            register.lookup(first.get(0).cnpj());
                            synchronized (allowed) {
                                if (!allowed.contains(n)) {
                                    failures.add(new AssertionError("count " + n + " is of no published generation"));
                                }
                            }
                            answered.incrementAndGet();
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }
                }));
            }
            started.await();
            for (int gen = 2; gen <= 5; gen++) {
                List<Establishment> next = rows(gen, 2_000 + gen * 100);
                synchronized (allowed) {
                    allowed.add(new ReferenceFilter(q, SyntheticRegister.lookups()).count(next));
                }
                build(root, next, "gen " + gen);
                register.refresh();
            }
            Thread.sleep(50);
            stop.set(true);
            for (Thread t : readers) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
            assertTrue(answered.get() > 0);
            assertEquals(5, register.published().generation());
        }
        try (Stream s = new Stream(root)) {
            assertEquals(List.of("gen-5"), s.generations(), "released generations are deleted");
        }
    }

    /** The directory names under a root. */
    private static final class Stream implements AutoCloseable {
        private final List<String> names = new ArrayList<>();

        Stream(Path root) throws IOException {
            try (var ds = Files.list(root)) {
                ds.forEach(p -> names.add(p.getFileName().toString()));
            }
        }

        long stagingDirs() {
            return names.stream().filter(n -> n.startsWith("staging-")).count();
        }

        List<String> generations() {
            return names.stream().filter(n -> n.startsWith("gen-")).sorted().toList();
        }

        @Override
        public void close() {}
    }
}
