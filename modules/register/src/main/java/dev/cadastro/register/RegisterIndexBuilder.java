package dev.cadastro.register;

import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.Partner;
import dev.cadastro.register.internal.ChangeSet;
import dev.cadastro.register.internal.CnpjMap;
import dev.cadastro.register.internal.CnpjOrder;
import dev.cadastro.register.internal.Durable;
import dev.cadastro.register.internal.GenerationReader;
import dev.cadastro.register.internal.Generations;
import dev.cadastro.register.internal.LookupsFile;
import dev.cadastro.register.internal.PartnerIndex;
import dev.cadastro.register.internal.RecordCodec;
import dev.cadastro.register.internal.Rollup;
import dev.cadastro.register.internal.Schema;
import dev.cadastro.register.internal.SeenKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Writes one new generation of the register index and publishes it atomically.
 *
 * <p>{@link #create} starts the generation in a staging directory ({@code root/staging-<n>}) beside the
 * published ones; {@link #add} may be called from several threads; {@link #publish} commits, drops
 * duplicate CNPJs (the establishment whose {@code add} call came last wins), force-merges when the
 * options say so, verifies the committed index (document count, and a checksum over every record in the record store
 * recomputed from the index and compared with the one summed while adding), renames the staging
 * directory to {@code root/gen-<n>} and only then replaces {@code root/CURRENT} by the atomic rename of a
 * fsynced temporary file. {@link #close()} without {@link #publish} abandons the build and deletes its
 * staging directory; a crash leaves {@code CURRENT} and its generation untouched (the next build
 * removes the stale staging directory). One build at a time per root ({@code root/build.lock}).
 *
 * <p>{@link #addPartners} writes the generation's partner structure (the dump's Socios rows) into a
 * second index inside the same staging directory ({@code partners/}), committed and checked by {@link
 * #publish} before the directory is renamed: the partners are published with the establishments of the
 * same generation, by the same rename, or not at all.
 */
public final class RegisterIndexBuilder implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RegisterIndexBuilder.class.getName());

    private final Path root;
    private final long generation;
    private final Path staging;
    private final BuildOptions options;
    private final Clock clock;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final IndexWriter writer;
    private final IndexWriter partnerWriter;
    private final RecordCodec codec;
    private final AtomicLong sequence = new AtomicLong();
    /** The keys added so far, to store a sequence only in a record whose CNPJ may be a repeat; guarded by itself. */
    private final SeenKeys seen = new SeenKeys();

    private final AtomicLong partnerRuns = new AtomicLong();
    private final LongAdder partnerRows = new LongAdder();
    private final LongAdder checksum = new LongAdder();
    private volatile State state = State.OPEN;

    /**
     * Test-only seam, package-private and never set by production code: called at the named steps of
     * {@link #publish} with the directory at hand, so that tests can damage a committed generation
     * before it is verified, or halt the JVM between moving a generation into place and switching
     * {@code CURRENT} (a real crash at that exact point). Does nothing unless a test replaces it.
     */
    static volatile PublishHook publishHook = (step, dir) -> {};

    /** The steps of {@link #publish} that {@link #publishHook} sees. */
    enum PublishStep {
        /** The staging index is committed and closed; verification comes next. */
        BEFORE_VERIFY,
        /** The generation was moved to {@code gen-<n>}; {@code CURRENT} still names the previous one. */
        BEFORE_POINT
    }

    @FunctionalInterface
    interface PublishHook {
        void at(PublishStep step, Path dir) throws IOException;
    }

    private enum State {
        OPEN,
        PUBLISHED,
        CLOSED
    }

    private RegisterIndexBuilder(
            Path root,
            long generation,
            Path staging,
            BuildOptions options,
            Clock clock,
            FileChannel lockChannel,
            FileLock lock,
            IndexWriter writer,
            IndexWriter partnerWriter,
            RecordCodec codec) {
        this.root = root;
        this.generation = generation;
        this.staging = staging;
        this.options = options;
        this.clock = clock;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.writer = writer;
        this.partnerWriter = partnerWriter;
        this.codec = codec;
    }

    /** Starts a new generation under {@code root} (created when absent); publication time from the UTC clock. */
    public static RegisterIndexBuilder create(Path root, Lookups lookups, BuildOptions options) {
        return create(root, lookups, options, Clock.systemUTC());
    }

    /**
     * Starts a new generation under {@code root}.
     *
     * @throws IllegalStateException when another build holds the root's lock
     * @throws UncheckedIOException when the root cannot be written
     */
    public static RegisterIndexBuilder create(Path root, Lookups lookups, BuildOptions options, Clock clock) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(lookups, "lookups");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(clock, "clock");
        FileChannel channel = null;
        FileLock lock = null;
        try {
            Files.createDirectories(root);
            channel = FileChannel.open(
                    root.resolve(Generations.LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = Generations.lockBuilds(channel, root);
            // Numbered before stale staging directories go, so a number is never used twice.
            long generation = Generations.nextGeneration(root);
            for (Path stale : Generations.stagingDirs(root)) {
                LOG.log(Level.INFO, "removing {0}, left by an abandoned or crashed build", stale);
                Durable.deleteTree(stale);
            }
            Path staging = Generations.stagingDir(root, generation);
            Files.createDirectories(staging);
            LookupsFile.write(staging.resolve(LookupsFile.NAME), lookups);
            IndexWriterConfig config = new IndexWriterConfig();
            Schema.configure(config);
            config.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
            config.setRAMBufferSizeMB(options.ramBufferMb());
            config.setCommitOnClose(false);
            ConcurrentMergeScheduler cms = new ConcurrentMergeScheduler();
            cms.setMaxMergesAndThreads(options.indexingThreads() + 5, options.indexingThreads());
            config.setMergeScheduler(cms);
            TieredMergePolicy merges = new TieredMergePolicy();
            // After duplicates are dropped from a one-segment build, forceMergeDeletes must rewrite the
            // segment even for a few deletions (the default waits for 10%), or it keeps them and loses
            // the direct document-frequency counts.
            merges.setForceMergeDeletesPctAllowed(0);
            config.setMergePolicy(merges);
            IndexWriter writer = new IndexWriter(FSDirectory.open(staging), config);
            IndexWriter partnerWriter;
            try {
                partnerWriter = partnerWriter(staging.resolve(PartnerIndex.DIR), options);
            } catch (IOException | RuntimeException e) {
                writer.rollback();
                throw e;
            }
            return new RegisterIndexBuilder(
                    root,
                    generation,
                    staging,
                    options,
                    clock,
                    channel,
                    lock,
                    writer,
                    partnerWriter,
                    new RecordCodec(lookups));
        } catch (IOException e) {
            release(channel, lock);
            throw new UncheckedIOException("cannot start a register build under " + root, e);
        } catch (RuntimeException e) {
            release(channel, lock);
            throw e;
        }
    }

    /**
     * The partner index: no index sort (a lookup reads one root's few documents), a small RAM buffer (its
     * rows are a fraction of the establishments' bytes) and one merge thread, so it takes little of the
     * heap and the cores the establishments need.
     */
    private static IndexWriter partnerWriter(Path dir, BuildOptions options) throws IOException {
        Files.createDirectories(dir);
        IndexWriterConfig config = new IndexWriterConfig();
        config.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
        config.setRAMBufferSizeMB(Math.max(16, options.ramBufferMb() / 4));
        config.setCommitOnClose(false);
        ConcurrentMergeScheduler cms = new ConcurrentMergeScheduler();
        cms.setMaxMergesAndThreads(3, 1);
        config.setMergeScheduler(cms);
        return new IndexWriter(FSDirectory.open(dir), config);
    }

    /**
     * Adds partner rows of one company root, in the dump's order; several calls for one root add to its
     * rows. Thread-safe. The description fields of the partners are not stored: they are resolved on read
     * through the generation's lookup tables.
     */
    public void addPartners(CnpjRoot root, List<Partner> partners) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(partners, "partners");
        ensureOpen();
        try {
            for (int from = 0; from < partners.size(); from += PartnerIndex.MAX_ROWS_PER_RUN) {
                List<Partner> run =
                        partners.subList(from, Math.min(partners.size(), from + PartnerIndex.MAX_ROWS_PER_RUN));
                partnerWriter.addDocument(PartnerIndex.document(root, partnerRuns.incrementAndGet(), run));
                partnerRows.add(run.size());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot add the partners of " + root + " to " + staging, e);
        }
    }

    /** Partner rows added so far. */
    public long partnersAdded() {
        return partnerRows.sum();
    }

    /** Adds one establishment. Thread-safe. */
    public void add(Establishment establishment) {
        Objects.requireNonNull(establishment, "establishment");
        ensureOpen();
        long key = Schema.cnpjKey(establishment.cnpj().value());
        long seq;
        synchronized (seen) {
            // Decided under one lock with the sequence: of two copies of a CNPJ, the one added later always
            // gets the larger number (the first copy of a CNPJ stores 0, any later one its sequence).
            seq = sequence.incrementAndGet();
            if (!seen.addAndCheck(key)) {
                seq = 0;
            }
        }
        byte[] record = codec.encode(establishment, seq);
        try {
            writer.addDocument(Schema.document(establishment, record));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot add " + establishment.cnpj() + " to " + staging, e);
        }
        checksum.add(RecordCodec.hash(record, 0, record.length));
    }

    /** Establishments added so far (duplicates included). */
    public long added() {
        return sequence.get();
    }

    /** The staging directory of this build (renamed to {@code gen-<n>} by {@link #publish}). */
    public Path stagingDirectory() {
        return staging;
    }

    /**
     * Commits, deduplicates, merges, verifies and publishes the generation; the builder is done afterwards.
     * On failure nothing is published and the staging directory is deleted.
     *
     * @param sourceLabel what the generation was built from (for example {@code dump 2026-08})
     */
    public PublishedIndex publish(String sourceLabel) {
        return publish(sourceLabel, true);
    }

    /**
     * {@link #publish(String)}, recording whether the records' {@code divida} flags are data: false when
     * the source had no debt data, so a search with {@code divida} is refused rather than answered
     * with flags that are all false ({@link PublishedIndex#debtData()}).
     */
    public PublishedIndex publish(String sourceLabel, boolean debtData) {
        return publish(sourceLabel, debtData, Optional.empty());
    }

    /**
     * {@link #publish(String, boolean)}, recording the reference month of the dump the generation was
     * built from ({@link PublishedIndex#referenceMonth()}), which the API answers in {@code
     * X-Dados-Referencia}.
     */
    public synchronized PublishedIndex publish(
            String sourceLabel, boolean debtData, Optional<YearMonth> referenceMonth) {
        Objects.requireNonNull(sourceLabel, "sourceLabel");
        Objects.requireNonNull(referenceMonth, "referenceMonth");
        ensureOpen();
        try {
            long docs = sequence.get();
            long sum = checksum.sum();
            synchronized (seen) {
                seen.release();
            }
            long t0 = System.nanoTime();
            writer.commit();
            long t1 = System.nanoTime();
            if (options.maxSegments() > 0) {
                writer.forceMerge(options.maxSegments());
            }
            long t2 = System.nanoTime();
            long[] dropped = dropDuplicates();
            docs -= dropped[0];
            sum -= dropped[1];
            if (dropped[0] > 0 && options.maxSegments() > 0) {
                writer.forceMergeDeletes(true);
            }
            writer.commit();
            writer.close();
            long runs = partnerRuns.get();
            long rows = partnerRows.sum();
            partnerWriter.setLiveCommitData(
                    Map.of(PartnerIndex.RUNS, Long.toString(runs), PartnerIndex.ROWS, Long.toString(rows))
                            .entrySet());
            partnerWriter.commit();
            partnerWriter.close();
            long t3 = System.nanoTime();
            publishHook.at(PublishStep.BEFORE_VERIFY, staging);
            verify(docs, sum);
            verifyPartners(runs, rows);
            long t4 = System.nanoTime();
            // The changes first: the rollup's pass counts them too (the changes rollup, ADR 0055).
            writeChanges(referenceMonth);
            long t45 = System.nanoTime();
            Rollup.Built rollup = writeRollup();
            long t5 = System.nanoTime();
            long mapped = writeCnpjMap(docs);
            long t6 = System.nanoTime();
            LOG.log(
                    Level.INFO,
                    "generation {0}: CNPJ map of {1} entries in {2} ms",
                    generation,
                    mapped,
                    (t6 - t5) / 1_000_000);
            LOG.log(
                    Level.INFO,
                    "generation {0}: commit {1} ms, force merge {2} ms, duplicates ({3} dropped) {4} ms, verification {5} ms",
                    generation,
                    (t1 - t0) / 1_000_000,
                    (t2 - t1) / 1_000_000,
                    dropped[0],
                    (t3 - t2) / 1_000_000,
                    (t4 - t3) / 1_000_000);
            LOG.log(
                    Level.INFO,
                    "generation {0}: rollup of {1} combinations ({2} KB) in {3} ms",
                    generation,
                    rollup.register().tuples(),
                    rollup.register().bytes() / 1024,
                    (t5 - t45) / 1_000_000);
            if (rollup.changes() != null) {
                LOG.log(
                        Level.INFO,
                        "generation {0}: changes rollup of {1} changed documents, {2} combinations ({3} KB)",
                        generation,
                        rollup.changes().documents(),
                        rollup.changes().tuples(),
                        rollup.changes().bytes() / 1024);
            }
            Generations.writeMeta(
                    staging, generation, docs, sum, sourceLabel, clock.instant(), debtData, referenceMonth);
            Durable.syncDirectory(staging);
            Path published = Generations.generationDir(root, generation);
            Files.move(staging, published, StandardCopyOption.ATOMIC_MOVE);
            Durable.syncDirectory(root);
            publishHook.at(PublishStep.BEFORE_POINT, published);
            Generations.point(root, published);
            state = State.PUBLISHED;
            LOG.log(Level.INFO, "published {0}: {1} establishments from {2}", published, docs, sourceLabel);
            return Generations.readMeta(published);
        } catch (IOException e) {
            abandon();
            throw new UncheckedIOException("publishing generation " + generation + " under " + root + " failed", e);
        } catch (RuntimeException e) {
            abandon();
            throw e;
        } finally {
            release(lockChannel, lock);
        }
    }

    /** Abandons an unpublished build and deletes its staging directory; after publish, does nothing. */
    @Override
    public synchronized void close() {
        if (state == State.OPEN) {
            abandon();
            release(lockChannel, lock);
        }
    }

    private void abandon() {
        state = State.CLOSED;
        for (IndexWriter w : List.of(writer, partnerWriter)) {
            try {
                w.rollback();
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.DEBUG, "rollback of an abandoned build failed", e);
            }
        }
        try {
            Durable.deleteTree(staging);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot delete abandoned staging directory " + staging, e);
        }
    }

    private void ensureOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException(
                    "this build was already " + state.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /**
     * Deletes all but the last-added document of each duplicated CNPJ; returns {count, hash sum} dropped.
     * The documents are walked in CNPJ order from their keys' doc values, so a CNPJ's copies come together.
     */
    private long[] dropDuplicates() throws IOException {
        // Counted over every attempt: a deletion made before a merge moved the documents stays made.
        long[] dropped = {0, 0};
        for (int attempt = 0; ; attempt++) {
            boolean failed = false;
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                List<Integer> copies = new ArrayList<>();
                long[] current = {-1};
                CnpjOrder.walk(reader, (key, doc) -> {
                    if (key != current[0]) {
                        if (!keepLastAdded(reader, copies, dropped)) {
                            throw new MovedByMerge();
                        }
                        copies.clear();
                        current[0] = key;
                    }
                    copies.add(doc);
                });
                failed = !keepLastAdded(reader, copies, dropped);
            } catch (MovedByMerge e) {
                // The rest of the walk would be wasted (seconds at 70 M): stop here and walk again.
                failed = true;
            }
            if (!failed) {
                return dropped;
            }
            if (attempt >= 3) {
                throw new IOException("could not delete duplicate CNPJs while segments kept merging");
            }
            // A merge moved the documents: the deletions made so far are kept (and counted); walk again.
            writer.commit();
        }
    }

    /** Stops a duplicate walk whose documents a merge has moved. */
    private static final class MovedByMerge extends RuntimeException {
        MovedByMerge() {
            super(null, null, false, false);
        }
    }

    /**
     * Of the live documents of one CNPJ, deletes all but the one added last, adding each deleted one to
     * {@code dropped} ({count, hash sum}); false when a merge had moved a document (nothing more is tried).
     */
    private boolean keepLastAdded(DirectoryReader reader, List<Integer> copies, long[] dropped) throws IOException {
        if (copies.size() < 2) {
            return true;
        }
        int keep = -1;
        long best = Long.MIN_VALUE;
        for (int d : copies) {
            BytesRef rec = record(reader, d);
            long seq = RecordCodec.sequence(rec.bytes, rec.offset);
            if (seq > best) {
                best = seq;
                keep = d;
            }
        }
        for (int d : copies) {
            if (d == keep) {
                continue;
            }
            BytesRef rec = record(reader, d);
            if (writer.tryDeleteDocument(reader, d) < 0) {
                return false;
            }
            dropped[0]++;
            dropped[1] += RecordCodec.hash(rec.bytes, rec.offset, rec.length);
        }
        return true;
    }

    /** The record of a document of {@code reader} (top-level doc id); a fresh iterator per call (duplicates are few). */
    private static BytesRef record(DirectoryReader reader, int doc) throws IOException {
        List<LeafReaderContext> leaves = reader.leaves();
        LeafReaderContext leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(doc, leaves));
        org.apache.lucene.index.BinaryDocValues values = leaf.reader().getBinaryDocValues(Schema.RECORD);
        if (values == null || !values.advanceExact(doc - leaf.docBase)) {
            throw new IOException("document " + doc + " has no record");
        }
        return BytesRef.deepCopyOf(values.binaryValue());
    }

    /** Writes the CNPJ-to-document map of the committed generation and checks it holds every live document. */
    private long writeCnpjMap(long docs) throws IOException {
        try (FSDirectory dir = FSDirectory.open(staging);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            long n = CnpjMap.write(reader, dir);
            CnpjMap.verify(dir);
            if (n != docs) {
                throw new IllegalStateException("generation " + generation + ": the CNPJ map holds " + n + " CNPJs for "
                        + docs + " documents; not published");
            }
            return n;
        }
    }

    /**
     * When a generation is current under the root (and the options do not say otherwise, {@link
     * BuildOptions#compareWithCurrent()}), writes this one's changes against it ({@link ChangeSet}); a
     * current generation that cannot be read (an older format, a damaged file) leaves the new one without
     * changes, with a warning, rather than failing the load.
     */
    private void writeChanges(Optional<YearMonth> referenceMonth) throws IOException {
        Optional<Path> current = Generations.current(root);
        if (current.isEmpty() || !options.compareWithCurrent()) {
            return;
        }
        GenerationReader previous;
        try {
            previous = GenerationReader.open(current.get(), 0, false, () -> {});
        } catch (IOException | RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "generation {0}: the current generation {1} cannot be read ({2}); published without its changes",
                    generation,
                    current.get(),
                    e.getMessage());
            return;
        }
        try (FSDirectory dir = FSDirectory.open(staging);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            changes = ChangeSet.compute(previous, reader, codec, referenceMonth, dir);
            LOG.log(
                    Level.INFO,
                    "generation {0}: {1} changes against {2} ({3} bytes, {4} CNPJs removed) in {5} ms",
                    generation,
                    changes.entries(),
                    current.get().getFileName(),
                    changes.bytes(),
                    changes.removed(),
                    changes.nanos() / 1_000_000);
        } finally {
            previous.release();
        }
    }

    /** The changes the publication computed against the previous generation, or empty. */
    public Optional<ChangeSummary> changes() {
        ChangeSet.Stats c = changes;
        if (c == null) {
            return Optional.empty();
        }
        Map<dev.cadastro.core.register.ChangeType, Long> perType =
                new java.util.EnumMap<>(dev.cadastro.core.register.ChangeType.class);
        for (dev.cadastro.core.register.ChangeType t : dev.cadastro.core.register.ChangeType.values()) {
            perType.put(t, c.count(t));
        }
        return Optional.of(
                new ChangeSummary(c.entries(), perType, c.removed(), c.bytes(), java.time.Duration.ofNanos(c.nanos())));
    }

    private volatile ChangeSet.Stats changes;

    /** Precomputes the generation's counts over its low-cardinality filters, beside the index. */
    private Rollup.Built writeRollup() throws IOException {
        try (FSDirectory dir = FSDirectory.open(staging);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            return Rollup.write(reader, dir);
        }
    }

    /**
     * The committed partner index must open and hold one document per run added (checked on open). The
     * row count is recorded in the commit but not re-counted here: the loader checks the rows the
     * builder received against the rows it read.
     */
    private void verifyPartners(long runs, long rows) {
        try {
            PartnerIndex.open(staging).close();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "generation " + generation + ": the partner index (" + runs + " documents, " + rows
                            + " rows added) fails its check: " + e.getMessage() + "; not published",
                    e);
        }
    }

    private void verify(long expectedDocs, long expectedChecksum) throws IOException {
        try (FSDirectory dir = FSDirectory.open(staging);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            if (reader.numDocs() != expectedDocs) {
                throw new IllegalStateException("generation " + generation + " holds " + reader.numDocs()
                        + " documents after commit, expected " + expectedDocs + "; not published");
            }
            long sum = checksum(reader, options.indexingThreads());
            if (sum != expectedChecksum) {
                throw new IllegalStateException("generation " + generation + " fails its content checksum (index "
                        + Long.toHexString(sum) + ", built " + Long.toHexString(expectedChecksum) + "); not published");
            }
            GenerationReader.checkLayout(reader);
        }
    }

    /**
     * The sum of the hashes of every live document's record, read from the record store in doc-id slices
     * by {@code threads} threads (each with its own doc-values iterator, reading its slice in order).
     */
    private static long checksum(DirectoryReader reader, int threads) throws IOException {
        List<java.util.concurrent.Callable<Long>> slices = new ArrayList<>();
        for (LeafReaderContext leaf : reader.leaves()) {
            int maxDoc = leaf.reader().maxDoc();
            int per = Math.max(1 << 16, (maxDoc + threads - 1) / threads);
            for (int from = 0; from < maxDoc; from += per) {
                int start = from;
                int end = Math.min(maxDoc, from + per);
                slices.add(() -> sliceChecksum(leaf.reader(), start, end));
            }
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            long sum = 0;
            for (java.util.concurrent.Future<Long> f : pool.invokeAll(slices)) {
                sum += f.get();
            }
            return sum;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while verifying", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("verification failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static long sliceChecksum(org.apache.lucene.index.LeafReader leaf, int from, int to) throws IOException {
        org.apache.lucene.index.BinaryDocValues values = leaf.getBinaryDocValues(Schema.RECORD);
        if (values == null) {
            throw new IOException("segment " + leaf + " has no record store");
        }
        Bits live = leaf.getLiveDocs();
        long sum = 0;
        for (int d = from; d < to; d++) {
            if (live == null || live.get(d)) {
                if (!values.advanceExact(d)) {
                    throw new IOException("document " + d + " has no record");
                }
                BytesRef rec = values.binaryValue();
                sum += RecordCodec.hash(rec.bytes, rec.offset, rec.length);
            }
        }
        return sum;
    }

    private static void release(FileChannel channel, FileLock lock) {
        try {
            if (lock != null && lock.isValid()) {
                lock.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot release the build lock", e);
        }
    }
}
