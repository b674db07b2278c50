package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.register.publication.FollowOptions;
import dev.cadastro.register.publication.IndexFollower;
import dev.cadastro.register.publication.IndexPublisher;
import dev.cadastro.register.publication.PublishOptions;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generation published to a file store (a local folder here; the same port as the object store) and
 * followed by a server's cache: the answers, the swap, the resume of an interrupted download and the
 * refusal of a corrupted object.
 */
class StorePublicationTest {
    private static final BuildOptions SMALL = BuildOptions.builder()
            .ramBufferMb(32)
            .indexingThreads(2)
            .maxSegments(2)
            .build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-08-09T03:00:00Z"), ZoneOffset.UTC);
    private static final SearchOptions NO_TIMER =
            SearchOptions.builder().refreshInterval(Duration.ZERO).build();
    /** The smallest part, so a test index of a few MB has files of several parts. */
    private static final PublishOptions PUBLISH = PublishOptions.defaults().withPartSize(1 << 20);
    /** Polled by the test only. */
    private static final FollowOptions MANUAL =
            FollowOptions.defaults().withPoll(Duration.ZERO).withParallelism(4);

    private static List<Establishment> rows(long seed, int n) {
        SyntheticRegister g = new SyntheticRegister(seed);
        List<Establishment> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(g.next());
        }
        return out;
    }

    private static PublishedIndex build(Path root, List<Establishment> rows, String label) {
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            rows.forEach(b::add);
            return b.publish(label);
        }
    }

    private static final List<RegisterQuery> QUERIES = List.of(
            RegisterQuery.builder().ufs("SP").build(),
            RegisterQuery.builder().ufs("RJ", "MG").limite(200).pagina(2).build(),
            RegisterQuery.builder()
                    .situacaoCadastral("02")
                    .flag(RegisterQuery.Filter.COM_TELEFONE, true)
                    .build(),
            RegisterQuery.builder().mei(false).ufs("PR").build());

    /** The answers of a fixed set of searches, counts and lookups, to compare two registers with. */
    private static List<Object> answers(LuceneRegister r, List<Establishment> rows) {
        List<Object> out = new ArrayList<>();
        for (RegisterQuery query : QUERIES) {
            out.add(r.search(query));
            out.add(r.count(query));
        }
        for (int i = 0; i < rows.size(); i += rows.size() / 50) {
            out.add(r.lookup(rows.get(i).cnpj()));
        }
        return out;
    }

    private static Set<String> names(Path dir) throws IOException {
        Set<String> out = new HashSet<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                s.forEach(p -> out.add(p.getFileName().toString()));
            }
        }
        return out;
    }

    @Test
    void aFollowerServesExactlyTheAnswersOfThePublishedGeneration(@TempDir Path tmp) throws IOException {
        List<Establishment> rows = rows(42, 20_000);
        PublishedIndex built = build(tmp.resolve("build"), rows, "month one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.Publication p = IndexPublisher.publish(tmp.resolve("build"), store, "register", PUBLISH);
        assertEquals(built.generation(), p.generation());
        assertTrue(names(tmp.resolve("bucket/register")).containsAll(Set.of("CURRENT", "gen-1.manifest", "gen-1")));
        long localBytes = 0;
        try (Stream<Path> s = Files.walk(built.path())) {
            for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                localBytes += Files.size(f);
                assertEquals(
                        -1L,
                        Files.mismatch(
                                f,
                                tmp.resolve("bucket/register/gen-1")
                                        .resolve(built.path().relativize(f))),
                        f.toString());
            }
        }
        assertEquals(localBytes, p.bytes());

        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "register/", MANUAL, NO_TIMER);
                LuceneRegister local = LuceneRegister.open(tmp.resolve("build"), NO_TIMER)) {
            LuceneRegister followed = follower.register();
            // Before the first download: no generation, so not ready and queries refused as unavailable.
            assertThrows(IllegalStateException.class, followed::published);
            CadastroException e = assertThrows(CadastroException.class, () -> followed.search(QUERIES.get(0)));
            assertEquals(ErrorCode.SERVICO_INDISPONIVEL, e.code());

            IndexFollower.Round round = follower.poll().orElseThrow();
            assertEquals(1, round.generation());
            assertEquals(localBytes, round.fetched());
            assertEquals(0, round.reused());
            assertEquals(built.documents(), followed.published().documents());
            assertEquals(built.checksum(), followed.published().checksum());
            assertEquals("month one", followed.published().sourceLabel());
            assertEquals(answers(local, rows), answers(followed, rows));
            assertEquals("gen-1", Files.readString(tmp.resolve("cache/CURRENT")).strip());
            // The pointer did not move: nothing to do.
            assertEquals(Optional.empty(), follower.poll());
        }
        // A restart on the same cache opens the generation it holds without downloading it again.
        try (IndexFollower again = IndexFollower.start(tmp.resolve("cache"), store, "register/", MANUAL, NO_TIMER)) {
            assertEquals(1, again.register().published().generation());
            assertEquals(Optional.empty(), again.poll());
        }
    }

    @Test
    void aNewGenerationIsSwappedInAndOldOnesLeaveTheCacheAndTheStore(@TempDir Path tmp) throws IOException {
        Path build = tmp.resolve("build");
        List<Establishment> first = rows(1, 3_000);
        List<Establishment> second = rows(2, 4_000);
        build(build, first, "month one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(build, store, "", PUBLISH.withKeepGenerations(2));
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL, NO_TIMER)) {
            LuceneRegister r = follower.register();
            follower.poll().orElseThrow();
            assertTrue(r.lookup(first.get(0).cnpj()).isPresent());

            build(build, second, "month two");
            IndexPublisher.Publication p2 = IndexPublisher.publish(build, store, "", PUBLISH.withKeepGenerations(2));
            assertEquals(2, p2.generation());
            assertEquals(List.of(), p2.deleted());
            assertEquals(1, r.published().generation(), "the pointer moved, the follower has not polled yet");
            IndexFollower.Round round = follower.poll().orElseThrow();
            assertEquals(2, round.generation());
            assertEquals(2, r.published().generation());
            assertEquals(4_000, r.published().documents());
            assertTrue(r.lookup(second.get(0).cnpj()).isPresent());
            // No query holds generation 1 any more: its folder is gone from the cache.
            assertFalse(Files.exists(tmp.resolve("cache/gen-1")));
            assertEquals(Set.of("CURRENT", "gen-2"), names(tmp.resolve("cache")));

            build(build, first, "month three");
            IndexPublisher.Publication p3 = IndexPublisher.publish(build, store, "", PUBLISH.withKeepGenerations(2));
            assertEquals(3, p3.generation());
            assertEquals(List.of(1L), p3.deleted());
            Set<String> inStore = new HashSet<>();
            for (FileStore.Entry e : store.list("")) {
                inStore.add(e.key().split("/")[0]);
            }
            assertEquals(Set.of("CURRENT", "gen-2", "gen-2.manifest", "gen-3", "gen-3.manifest"), inStore);
            follower.poll().orElseThrow();
            assertEquals(3, r.published().generation());
        }
    }

    /**
     * The filters the serving generation had cached are built in the next one before it is swapped in,
     * so its first queries under load do not each read postings; the answers are those of a cold open.
     */
    @Test
    void aNewGenerationIsWarmedWithTheOldOnesFilterBitsetsBeforeItIsSwappedIn(@TempDir Path tmp) throws IOException {
        Path build = tmp.resolve("build");
        List<Establishment> second = rows(22, 6_000);
        build(build, rows(21, 5_000), "month one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(build, store, "", PUBLISH);
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL, NO_TIMER)) {
            LuceneRegister r = follower.register();
            follower.poll().orElseThrow();
            assertEquals(0, r.cachedBitsetBytes());
            r.search(QUERIES.get(0));
            r.search(QUERIES.get(2));
            assertTrue(r.cachedBitsetBytes() > 0);

            build(build, second, "month two");
            IndexPublisher.publish(build, store, "", PUBLISH);
            assertEquals(2, follower.poll().orElseThrow().generation());
            assertTrue(r.cachedBitsetBytes() > 0, "no query has reached generation 2 yet, its filters are built");
            try (LuceneRegister cold = LuceneRegister.open(build, NO_TIMER)) {
                assertEquals(0, cold.cachedBitsetBytes());
                assertEquals(answers(cold, second), answers(r, second));
            }
        }
    }

    @Test
    void aBuilderStartingFromAnEmptyRootStillPublishesUpward(@TempDir Path tmp) throws IOException {
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        build(tmp.resolve("a"), rows(1, 1_000), "a");
        build(tmp.resolve("a"), rows(1, 1_000), "a");
        assertEquals(
                2, IndexPublisher.publish(tmp.resolve("a"), store, "", PUBLISH).generation());
        build(tmp.resolve("b"), rows(2, 1_000), "b"); // generation 1 of its own root
        assertEquals(
                3, IndexPublisher.publish(tmp.resolve("b"), store, "", PUBLISH).generation());
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL, NO_TIMER)) {
            follower.poll().orElseThrow();
            assertEquals(3, follower.lastRound().orElseThrow().generation());
            assertEquals("b", follower.register().published().sourceLabel());
            // The fleet sees the store's number, whatever the builder's root numbered it.
            assertEquals(3, follower.register().published().generation());
            assertEquals("gen-3", Files.readString(tmp.resolve("cache/CURRENT")).strip());
        }
    }

    /** Builds a generation under {@code root} and returns the changes its publication computed, if any. */
    private static Optional<ChangeSummary> buildComparing(Path root, List<Establishment> rows) {
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            rows.forEach(b::add);
            b.publish("month");
            return b.changes();
        }
    }

    @Test
    void aBuilderWithAnEmptyRootComparesTheNextMonthWithTheFetchedGeneration(@TempDir Path tmp) throws IOException {
        List<Establishment> first = rows(7, 3_000);
        // The next month: 200 openings, 25 CNPJs gone.
        List<Establishment> next = new ArrayList<>(rows(7, 3_200).subList(25, 3_200));
        build(tmp.resolve("a"), first, "month one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(tmp.resolve("a"), store, "register", PUBLISH);
        assertEquals(Optional.of(1L), IndexFollower.publishedGeneration(store, "register"));

        IndexFollower.Round round = IndexFollower.fetchCurrent(tmp.resolve("b"), store, "register", MANUAL)
                .orElseThrow();
        assertEquals(1, round.generation());
        assertEquals(round.bytes(), round.fetched());
        assertEquals("gen-1", Files.readString(tmp.resolve("b/CURRENT")).strip());
        ChangeSummary fromStore = buildComparing(tmp.resolve("b"), next).orElseThrow();
        ChangeSummary local = buildComparing(tmp.resolve("a"), next).orElseThrow();
        assertEquals(200, local.perType().get(dev.cadastro.core.register.ChangeType.ABERTURA));
        assertEquals(25, local.removed());
        assertEquals(local.entries(), fromStore.entries());
        assertEquals(local.perType(), fromStore.perType());
        assertEquals(local.removed(), fromStore.removed());
        assertEquals(local.bytes(), fromStore.bytes());
    }

    @Test
    void aFolderOfTheWantedGenerationThatCurrentDoesNotNameIsFetchedAgainNotAdopted(@TempDir Path tmp)
            throws IOException {
        build(tmp.resolve("a"), rows(10, 1_000), "published month");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(tmp.resolve("a"), store, "", PUBLISH);
        // Root b holds a gen-1 of its own, another month, which CURRENT does not name (a crash between the
        // folder's rename and the pointer).
        Path root = tmp.resolve("b");
        build(root, rows(11, 500), "another month");
        Files.delete(root.resolve("CURRENT"));

        IndexFollower.Round round =
                IndexFollower.fetchCurrent(root, store, "", MANUAL).orElseThrow();
        assertEquals(1, round.generation());
        assertEquals(round.bytes(), round.fetched(), "every byte read from the store, none adopted");
        assertEquals(
                1_000,
                LuceneRegister.currentGeneration(root).orElseThrow().documents(),
                "the published generation, not the folder that had its number");
    }

    @Test
    void aFetchIsRefusedWhileAnotherBuildHoldsTheRoot(@TempDir Path tmp) throws IOException {
        build(tmp.resolve("a"), rows(9, 1_000), "month one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(tmp.resolve("a"), store, "", PUBLISH);
        Path root = Files.createDirectories(tmp.resolve("b"));
        // Another load of the same root, building: it holds the root's build lock.
        try (RegisterIndexBuilder other =
                RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            IllegalStateException e = assertThrows(
                    IllegalStateException.class, () -> IndexFollower.fetchCurrent(root, store, "", MANUAL));
            assertTrue(e.getMessage().contains("another build of"), e.getMessage());
            assertFalse(Files.exists(root.resolve("CURRENT")), "the fetch moved nothing");
        }
        // Once the other build is gone, the fetch runs.
        assertEquals(
                1,
                IndexFollower.fetchCurrent(root, store, "", MANUAL)
                        .orElseThrow()
                        .generation());
    }

    @Test
    void aFetchedGenerationThatCannotBeReadNeverBecomesTheBuildersPrevious(@TempDir Path tmp) throws IOException {
        PublishedIndex built = build(tmp.resolve("a"), rows(8, 1_000), "month one");
        // Published without its CNPJ map, as a release before the map wrote it: it verifies, it cannot be read.
        Files.delete(built.path().resolve("cnpj.map"));
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(tmp.resolve("a"), store, "", PUBLISH);
        IOException e =
                assertThrows(IOException.class, () -> IndexFollower.fetchCurrent(tmp.resolve("b"), store, "", MANUAL));
        assertTrue(e.getMessage().contains("generation 1 was fetched into"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot be read"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("b/CURRENT")), "CURRENT never names it");
        assertTrue(LuceneRegister.currentGeneration(tmp.resolve("b")).isEmpty());
    }

    @Test
    void aVerifiedGenerationThatCannotBeReadIsNotDownloadedAgainByTheNextAttempt(@TempDir Path tmp) throws IOException {
        PublishedIndex built = build(tmp.resolve("a"), rows(8, 1_000), "month one");
        // Verifies, cannot be read (as in the test above).
        Files.delete(built.path().resolve("cnpj.map"));
        Breaking store = new Breaking(new LocalFolderFileStore(tmp.resolve("bucket")));
        IndexPublisher.Publication published = IndexPublisher.publish(tmp.resolve("a"), store, "", PUBLISH);
        assertThrows(IOException.class, () -> IndexFollower.fetchCurrent(tmp.resolve("b"), store, "", MANUAL));
        long first = store.served.get();
        assertTrue(first >= published.bytes(), first + " of " + published.bytes());

        // The load says "the parts verified so far are kept for the next attempt": every part of this
        // generation was verified by the attempt above, so the next one must not read them all again.
        IOException again =
                assertThrows(IOException.class, () -> IndexFollower.fetchCurrent(tmp.resolve("b"), store, "", MANUAL));
        assertTrue(again.getMessage().contains("cannot be read"), again.getMessage());
        long second = store.served.get() - first;
        assertTrue(
                second < published.bytes() / 10,
                "the second attempt read " + second + " of the generation's " + published.bytes() + " bytes again");
    }

    @Test
    void aFollowerRenumberingAGenerationKeepsItsReferenceMonth(@TempDir Path tmp) throws IOException {
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        build(tmp.resolve("a"), rows(1, 1_000), "a");
        IndexPublisher.publish(tmp.resolve("a"), store, "", PUBLISH);
        // A builder starting from an empty root each month: its generation 1 becomes the store's 2.
        try (RegisterIndexBuilder b =
                RegisterIndexBuilder.create(tmp.resolve("b"), SyntheticRegister.lookups(), SMALL, CLOCK)) {
            rows(2, 1_000).forEach(b::add);
            b.publish("b", false, Optional.of(java.time.YearMonth.of(2026, 11)));
        }
        assertEquals(
                2, IndexPublisher.publish(tmp.resolve("b"), store, "", PUBLISH).generation());
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL, NO_TIMER)) {
            follower.poll().orElseThrow();
            assertEquals(2, follower.register().published().generation());
            assertEquals(
                    Optional.of(java.time.YearMonth.of(2026, 11)),
                    follower.register().published().referenceMonth(),
                    "the renumbered generation still names its dump's month (X-Dados-Referencia)");
        }
    }

    /** Files this process holds open under {@code dir} (Linux: the links of /proc/self/fd). */
    private static List<Path> openUnder(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        Path real = dir.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(real)) {
                        out.add(target);
                    }
                } catch (IOException closedMeanwhile) {
                    // the listing's own descriptor, or one closed since
                }
            }
        }
        return out;
    }

    @Test
    void aRoundThatFailsBeforeItsFirstFetchClosesTheFilesItOpened(@TempDir Path tmp) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "Linux only");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        build(tmp.resolve("a"), rows(1, 1_000), "a");
        IndexPublisher.publish(tmp.resolve("a"), store, "", PUBLISH);
        List<String> files = new ArrayList<>();
        for (FileStore.Entry e : store.list("gen-1/")) {
            files.add(e.key().substring("gen-1/".length()));
        }
        assertTrue(files.size() > 1, files.toString());
        // The last file of the manifest cannot be written: its partial file's name is taken by a folder.
        Path download = tmp.resolve("cache/download-1");
        Files.createDirectories(download.resolve(files.getLast() + ".partial"));
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL, NO_TIMER)) {
            for (int i = 0; i < 3; i++) {
                assertThrows(IOException.class, follower::poll);
            }
            assertEquals(List.of(), openUnder(download), "the failed rounds left files open");
        }
    }

    @Test
    void anInterruptedDownloadKeepsServingAndResumesWithoutFetchingVerifiedFilesAgain(@TempDir Path tmp)
            throws IOException {
        Path build = tmp.resolve("build");
        List<Establishment> first = rows(1, 3_000);
        build(build, first, "month one");
        LocalFolderFileStore folder = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(build, folder, "", PUBLISH);
        Breaking store = new Breaking(folder);
        try (IndexFollower follower =
                IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL.withParallelism(2), NO_TIMER)) {
            LuceneRegister r = follower.register();
            follower.poll().orElseThrow();

            build(build, rows(2, 30_000), "month two");
            IndexPublisher.Publication p2 = IndexPublisher.publish(build, folder, "", PUBLISH);
            assertTrue(p2.bytes() > 3 << 20, "a generation of several parts: " + p2.bytes());
            store.requests.clear();
            store.budget.set(p2.bytes() / 2); // the connection breaks halfway
            assertThrows(IOException.class, follower::poll);
            assertTrue(follower.lastFailure().isPresent());
            // Still serving the open generation, which is still the current one.
            assertEquals(1, r.published().generation());
            assertTrue(r.lookup(first.get(0).cnpj()).isPresent());
            assertEquals("gen-1", Files.readString(tmp.resolve("cache/CURRENT")).strip());
            assertFalse(Files.exists(tmp.resolve("cache/gen-2")));
            Set<String> complete = new HashSet<>();
            for (String n : names(tmp.resolve("cache/download-2"))) {
                if (!n.endsWith(".partial") && !n.endsWith(".parts")) {
                    complete.add(n);
                }
            }
            assertFalse(
                    complete.isEmpty(),
                    "some files were verified before the break: " + names(tmp.resolve("cache/download-2")));
            long fetchedBefore = store.served.get();

            store.requests.clear();
            store.budget.set(Long.MAX_VALUE);
            IndexFollower.Round round = follower.poll().orElseThrow();
            assertEquals(2, r.published().generation());
            assertEquals(30_000, r.published().documents());
            assertTrue(follower.lastFailure().isEmpty());
            for (String req : store.requests) {
                String name = req.substring(req.indexOf('/') + 1, req.indexOf(' '));
                assertFalse(complete.contains(name), "fetched again a file already verified: " + req);
            }
            assertTrue(round.reused() > 0);
            assertEquals(p2.bytes(), round.reused() + round.fetched(), "every byte fetched once: " + round);
            // How much of what was served before the break was in parts that completed depends on where
            // the break fell among the parts in flight; only those are kept, so the bound is loose.
            assertTrue(round.fetched() < p2.bytes(), round + " after " + fetchedBefore);
            assertEquals(Set.of("CURRENT", "gen-2"), names(tmp.resolve("cache")));
        }
    }

    @Test
    void aCorruptedObjectIsRefusedByItsChecksumAndTheGenerationNeverOpened(@TempDir Path tmp) throws IOException {
        Path build = tmp.resolve("build");
        List<Establishment> rows = rows(3, 20_000);
        build(build, rows, "month one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(build, store, "", PUBLISH);
        Path largest;
        try (Stream<Path> s = Files.list(tmp.resolve("bucket/gen-1"))) {
            largest = s.filter(Files::isRegularFile)
                    .max((a, b) -> Long.compare(a.toFile().length(), b.toFile().length()))
                    .orElseThrow();
        }
        long at = largest.toFile().length() / 2;
        int original;
        try (RandomAccessFile f = new RandomAccessFile(largest.toFile(), "rw")) {
            f.seek(at);
            original = f.read();
            f.seek(at);
            f.write(original ^ 0x10);
        }
        try (IndexFollower follower =
                IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL.withAttempts(2), NO_TIMER)) {
            IOException refused = assertThrows(IOException.class, follower::poll);
            assertTrue(refused instanceof IndexFollower.ChecksumException, refused.toString());
            assertTrue(refused.getMessage().contains(largest.getFileName().toString()), refused.getMessage());
            assertThrows(IllegalStateException.class, () -> follower.register().published());
            assertFalse(Files.exists(tmp.resolve("cache/CURRENT")));
            assertFalse(Files.exists(tmp.resolve("cache/gen-1")));
            assertFalse(Files.exists(tmp.resolve("cache/download-2")));

            // Repaired in the store: the next attempt fetches the refused part (and what it had not
            // reached) and opens the generation.
            try (RandomAccessFile f = new RandomAccessFile(largest.toFile(), "rw")) {
                f.seek(at);
                f.write(original);
            }
            IndexFollower.Round round = follower.poll().orElseThrow();
            assertTrue(round.reused() > 0, round.toString());
            assertEquals(20_000, follower.register().published().documents());
            assertTrue(follower.register().lookup(rows.get(0).cnpj()).isPresent());
        }
    }

    /**
     * The per-part check is a CRC32C (ADR 0050): one byte flipped anywhere in a part of the next
     * generation (its first byte, its last, or one inside a later part) is refused, and the server stays
     * on the generation it serves: the register, the cache's {@code CURRENT} and its folders do not move.
     */
    @Test
    void aFlippedByteInAPartOfTheNextGenerationIsRefusedAndTheOpenGenerationKeepsServing(@TempDir Path tmp)
            throws IOException {
        Path build = tmp.resolve("build");
        List<Establishment> first = rows(11, 3_000);
        List<Establishment> second = rows(12, 20_000);
        build(build, first, "month one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(build, store, "", PUBLISH);
        try (IndexFollower follower =
                IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL.withAttempts(2), NO_TIMER)) {
            LuceneRegister r = follower.register();
            follower.poll().orElseThrow();
            List<Object> before = answers(r, first);
            String pointerBefore = Files.readString(tmp.resolve("cache/CURRENT"));

            build(build, second, "month two");
            IndexPublisher.publish(build, store, "", PUBLISH);
            Path largest;
            try (Stream<Path> s = Files.list(tmp.resolve("bucket/gen-2"))) {
                largest = s.filter(Files::isRegularFile)
                        .max((a, b) ->
                                Long.compare(a.toFile().length(), b.toFile().length()))
                        .orElseThrow();
            }
            long size = largest.toFile().length();
            int part = PUBLISH.partSize();
            assertTrue(size > 2L * part, "the largest file spans at least three parts: " + size);
            for (long at : new long[] {0, part - 1, part + 12_345, size - 1}) {
                int original = flip(largest, at);
                IOException refused = assertThrows(IOException.class, follower::poll, "byte " + at);
                assertTrue(refused instanceof IndexFollower.ChecksumException, refused.toString());
                assertTrue(
                        refused.getMessage().contains(largest.getFileName().toString())
                                && refused.getMessage().contains("CRC32C"),
                        refused.getMessage());
                assertEquals(1, r.published().generation(), "byte " + at);
                assertEquals(before, answers(r, first));
                assertEquals(pointerBefore, Files.readString(tmp.resolve("cache/CURRENT")));
                assertFalse(Files.exists(tmp.resolve("cache/gen-2")), "byte " + at);
                assertTrue(Files.isDirectory(tmp.resolve("cache/gen-1")));
                restore(largest, at, original);
                // The next flip is fetched afresh: the parts this attempt verified would be kept, not read again.
                deleteTree(tmp.resolve("cache/download-2"));
            }
            assertEquals(2, follower.poll().orElseThrow().generation());
            assertEquals(20_000, r.published().documents());
            assertTrue(r.lookup(second.get(0).cnpj()).isPresent());
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static int flip(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int original = f.read();
            f.seek(at);
            f.write(original ^ 0x40);
            return original;
        }
    }

    private static void restore(Path file, long at, int original) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            f.write(original);
        }
    }

    /**
     * A manifest of the format before CRC32C parts (version 1, a SHA-256 per part; never released) is
     * refused with a message that says what to do, and nothing is fetched.
     */
    @Test
    void aVersionOneManifestIsRefusedWithAMessageThatSaysToPublishAgain(@TempDir Path tmp) throws Exception {
        build(tmp.resolve("build"), rows(13, 1_000), "one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(tmp.resolve("build"), store, "", PUBLISH);
        Path manifest = tmp.resolve("bucket/gen-1.manifest");
        String v1 = Files.readString(manifest)
                .replace("cadastro-register-manifest=2", "cadastro-register-manifest=1")
                .replaceAll("(?m)^part=([0-9a-f]{8})$", "part=$1$1$1$1$1$1$1$1");
        Files.writeString(manifest, v1);
        String sha = java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(v1.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Files.writeString(tmp.resolve("bucket/CURRENT"), "generation=1\nmanifestSha256=" + sha + "\n");
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL, NO_TIMER)) {
            IOException refused = assertThrows(IOException.class, follower::poll);
            assertTrue(
                    refused.getMessage().contains("version-1 manifest")
                            && refused.getMessage().contains("publish the generation again"),
                    refused.getMessage());
            assertFalse(Files.exists(tmp.resolve("cache/download-1")));
            assertThrows(IllegalStateException.class, () -> follower.register().published());
        }
    }

    @Test
    void aPointerWhoseManifestDoesNotMatchIsRefused(@TempDir Path tmp) throws IOException {
        build(tmp.resolve("build"), rows(4, 1_000), "one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(tmp.resolve("build"), store, "", PUBLISH);
        Path manifest = tmp.resolve("bucket/gen-1.manifest");
        Files.writeString(manifest, Files.readString(manifest).replace("documents=1000", "documents=1001"));
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "", MANUAL, NO_TIMER)) {
            IOException refused = assertThrows(IndexFollower.ChecksumException.class, follower::poll);
            assertTrue(refused.getMessage().contains("gen-1.manifest"), refused.getMessage());
            assertNotEquals(Optional.empty(), follower.lastFailure());
        }
    }

    @Test
    void thePublisherRefusesAFileNameAFollowerWouldRefuseBeforeUploadingAnything(@TempDir Path tmp) throws IOException {
        Path build = tmp.resolve("build");
        build(build, rows(5, 300), "one");
        Path gen = build.resolve(Files.readString(build.resolve("CURRENT")).strip());
        for (String bad : List.of(".hidden", "sub/.dot", "with space", "bell\u0007", "tab\tname", "sub/x y")) {
            Path file = gen.resolve(bad);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "x");
            LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket-" + Math.abs(bad.hashCode())));
            IOException refused =
                    assertThrows(IOException.class, () -> IndexPublisher.publish(build, store, "register", PUBLISH));
            assertTrue(refused.getMessage().contains("a name a follower refuses"), refused.getMessage());
            assertEquals(List.of(), store.list(""), "nothing uploaded, the pointer least of all, for " + bad);
            Files.delete(file);
        }
        // Without the bad names the same generation publishes, and a follower takes it.
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(build, store, "register", PUBLISH);
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), store, "register", MANUAL, NO_TIMER)) {
            assertEquals(1, follower.poll().orElseThrow().generation());
        }
    }

    @Test
    void thePublisherRefusesAGenerationNumberAFollowerCannotRead(@TempDir Path tmp) throws IOException {
        Path build = tmp.resolve("build");
        build(build, rows(6, 300), "one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        // The highest number a follower reads is taken: the next one would have 19 digits.
        try (FileStore.Upload up = store.create("gen-999999999999999999.manifest")) {
            up.stream().write(new byte[] {1});
            up.commit();
        }
        IOException refused = assertThrows(IOException.class, () -> IndexPublisher.publish(build, store, "", PUBLISH));
        assertTrue(refused.getMessage().contains("outside 1..999999999999999999"), refused.getMessage());
        assertEquals(
                List.of("gen-999999999999999999.manifest"),
                store.list("").stream().map(FileStore.Entry::key).toList(),
                "no file and no pointer uploaded");
    }

    @Test
    void aFollowerRefusesAManifestNamingAFileOutsideItsGenerationFolder(@TempDir Path tmp) throws Exception {
        build(tmp.resolve("build"), rows(7, 300), "one");
        LocalFolderFileStore store = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(tmp.resolve("build"), store, "", PUBLISH);
        String manifest = Files.readString(tmp.resolve("bucket/gen-1.manifest"));
        String first = manifest.lines()
                .filter(l -> l.startsWith("file="))
                .findFirst()
                .orElseThrow()
                .substring("file=".length())
                .split(" ")[0];
        Path cache = tmp.resolve("cache");
        for (String outside : List.of("../" + first, "../../escaped", "/etc/passwd", "sub/../../x", "", "a\u0001b")) {
            String forged = manifest.replace("file=" + first + " ", "file=" + outside + " ");
            byte[] bytes = forged.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            Files.write(tmp.resolve("bucket/gen-1.manifest"), bytes);
            // The pointer vouches for the forged manifest: only the names can refuse it.
            Files.writeString(
                    tmp.resolve("bucket/CURRENT"),
                    "generation=1\nmanifestSha256="
                            + java.util.HexFormat.of()
                                    .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                            .digest(bytes))
                            + "\n");
            try (IndexFollower follower = IndexFollower.start(cache, store, "", MANUAL, NO_TIMER)) {
                IOException refused = assertThrows(IOException.class, follower::poll, outside);
                assertTrue(refused.getMessage().contains("gen-1.manifest"), refused.getMessage());
            }
            assertFalse(Files.exists(tmp.resolve("escaped")), outside);
            assertFalse(Files.exists(cache.resolve("x")), outside);
            assertFalse(Files.exists(cache.resolve("gen-1")), "never opened: " + outside);
        }
    }

    @Test
    void aPublicationThatFailsHalfwayLeavesThePointerOnThePreviousGeneration(@TempDir Path tmp) throws IOException {
        Path build = tmp.resolve("build");
        List<Establishment> first = rows(1, 2_000);
        build(build, first, "month one");
        LocalFolderFileStore folder = new LocalFolderFileStore(tmp.resolve("bucket"));
        IndexPublisher.publish(build, folder, "", PUBLISH);
        String pointer = Files.readString(tmp.resolve("bucket/CURRENT"));
        build(build, rows(2, 20_000), "month two");
        FailingUploads store = new FailingUploads(folder, 1 << 20);
        assertThrows(IOException.class, () -> IndexPublisher.publish(build, store, "", PUBLISH));
        assertEquals(pointer, Files.readString(tmp.resolve("bucket/CURRENT")));
        assertFalse(Files.exists(tmp.resolve("bucket/gen-2.manifest")));
        try (IndexFollower follower = IndexFollower.start(tmp.resolve("cache"), folder, "", MANUAL, NO_TIMER)) {
            assertEquals(1, follower.poll().orElseThrow().generation());
            assertTrue(follower.register().lookup(first.get(0).cnpj()).isPresent());
        }
        // The next publication numbers past any file the failed one left, and deletes them with generation 1.
        IndexPublisher.Publication p = IndexPublisher.publish(build, folder, "", PUBLISH.withKeepGenerations(1));
        assertTrue(p.deleted().contains(1L), p.toString());
        Set<String> inStore = new HashSet<>();
        for (FileStore.Entry e : folder.list("")) {
            inStore.add(e.key().split("/")[0]);
        }
        String g = "gen-" + p.generation();
        assertEquals(Set.of("CURRENT", g, g + ".manifest"), inStore);
    }

    /** The store, refusing uploads once {@code budget} bytes were written (a publisher whose link dies). */
    private static final class FailingUploads implements FileStore {
        final FileStore inner;
        final AtomicLong budget;

        FailingUploads(FileStore inner, long budget) {
            this.inner = inner;
            this.budget = new AtomicLong(budget);
        }

        @Override
        public Upload create(String key) throws IOException {
            Upload up = inner.create(key);
            java.io.OutputStream out = new java.io.FilterOutputStream(up.stream()) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    if (budget.addAndGet(-len) < 0) {
                        throw new IOException("connection reset (test)");
                    }
                    out.write(b, off, len);
                }
            };
            return new Upload() {
                @Override
                public java.io.OutputStream stream() {
                    return out;
                }

                @Override
                public long commit() throws IOException {
                    return up.commit();
                }

                @Override
                public void close() throws IOException {
                    up.close();
                }
            };
        }

        @Override
        public Optional<Download> open(String key) throws IOException {
            return inner.open(key);
        }

        @Override
        public boolean delete(String key) throws IOException {
            return inner.delete(key);
        }

        @Override
        public List<Entry> list(String prefix) throws IOException {
            return inner.list(prefix);
        }

        @Override
        public Optional<Download> open(String key, long offset, long length) throws IOException {
            return inner.open(key, offset, length);
        }
    }

    /** The store, through a connection that breaks once {@link #budget} bytes were served; it logs each read. */
    private static final class Breaking implements FileStore {
        final FileStore inner;
        final AtomicLong budget = new AtomicLong(Long.MAX_VALUE);
        final AtomicLong served = new AtomicLong();
        final ConcurrentLinkedQueue<String> requests = new ConcurrentLinkedQueue<>();

        Breaking(FileStore inner) {
            this.inner = inner;
        }

        @Override
        public Upload create(String key) throws IOException {
            return inner.create(key);
        }

        @Override
        public Optional<Download> open(String key) throws IOException {
            return open(key, 0, Long.MAX_VALUE);
        }

        @Override
        public boolean delete(String key) throws IOException {
            return inner.delete(key);
        }

        @Override
        public List<Entry> list(String prefix) throws IOException {
            return inner.list(prefix);
        }

        @Override
        public Optional<Download> open(String key, long offset, long length) throws IOException {
            requests.add(key + " " + offset + "+" + length);
            Optional<Download> d = inner.open(key, offset, length);
            if (d.isEmpty()) {
                return d;
            }
            Download download = d.get();
            InputStream in = new FilterInputStream(download.stream()) {
                @Override
                public int read() throws IOException {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    long left = budget.get();
                    if (left <= 0) {
                        throw new IOException("connection reset (test)");
                    }
                    int n = super.read(b, off, (int) Math.min(len, left));
                    if (n > 0) {
                        budget.addAndGet(-n);
                        served.addAndGet(n);
                    }
                    return n;
                }
            };
            return Optional.of(new Download() {
                @Override
                public long size() {
                    return download.size();
                }

                @Override
                public InputStream stream() {
                    return in;
                }

                @Override
                public void close() throws IOException {
                    download.close();
                }
            });
        }
    }
}
