package dev.cadastro.register.publication;

import dev.cadastro.core.files.FileStore;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.register.SearchOptions;
import dev.cadastro.register.internal.Durable;
import dev.cadastro.register.internal.GenerationReader;
import dev.cadastro.register.internal.Generations;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

/**
 * A server's side of a published register ({@link IndexPublisher}): keeps a local index root (the
 * cache) on the generation the store's {@code CURRENT} pointer names, and a {@link LuceneRegister} over
 * it.
 *
 * <p>A generation is fetched into {@code download-<n>/} beside the open one, by ranged reads of its
 * parts, {@link FollowOptions#parallelism()} at a time over several files ({@link FollowOptions#backgroundParallelism()} while a generation serves); every part's CRC32C is
 * checked as it arrives, and a part that does not match is refused and read again (the manifest
 * itself is checked against the SHA-256 the pointer gives; ADR 0050 says why a part needs no more). A file whose parts
 * are all verified gets its final name; once every file has it, the folder becomes {@code gen-<n>},
 * the local {@code CURRENT} names it and the register swaps it in (queries in flight finish on the old
 * one, which is deleted when its last query ends). A download that fails or is interrupted leaves the
 * open generation serving and its verified files and parts in place: the next attempt fetches only
 * the rest. A generation that did not verify is never opened.
 */
public final class IndexFollower implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(IndexFollower.class.getName());
    private static final String DOWNLOAD = "download-";
    private static final String PARTIAL = ".partial";
    private static final String DONE_PARTS = ".parts";
    private static final int BUFFER = 256 << 10;
    private static final String NONE = "no generation yet";

    /**
     * One generation fetched and swapped in.
     *
     * @param generation its number in the store
     * @param files files it holds
     * @param bytes its bytes
     * @param fetched bytes read from the store in this round (parts read twice count twice)
     * @param reused bytes already verified on disk by an earlier, interrupted round
     * @param took from reading the manifest to the swap
     */
    public record Round(long generation, int files, long bytes, long fetched, long reused, Duration took) {}

    private final Path cache;
    private final StoreLayout layout;
    private final FollowOptions options;
    private final LuceneRegister register;
    private final ScheduledExecutorService poller;
    private final AtomicReference<Throwable> lastFailure = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Object roundLock = new Object();
    private volatile Round lastRound;
    private static final java.util.Map<LuceneRegister, IndexFollower> FOLLOWERS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private IndexFollower(Path cache, StoreLayout layout, FollowOptions options, LuceneRegister register) {
        this.cache = cache;
        this.layout = layout;
        this.options = options;
        this.register = register;
        this.poller = options.poll().isZero()
                ? null
                : Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                        .daemon()
                        .name("register-follow " + cache)
                        .factory());
    }

    /**
     * Follows the register published under {@code prefix} of {@code store} into the index root {@code
     * cache}: the register opens at once on the generation the cache already holds, if any, and otherwise
     * has none until the first download completes ({@link LuceneRegister#awaiting}). With a non-zero
     * {@link FollowOptions#poll()}, the pointer is read now and then every poll; closing the register
     * stops the follower.
     */
    public static IndexFollower start(
            Path cache, FileStore store, String prefix, FollowOptions options, SearchOptions search)
            throws IOException {
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(search, "search");
        Files.createDirectories(cache);
        LuceneRegister register = LuceneRegister.awaiting(cache, search);
        IndexFollower follower = new IndexFollower(cache, new StoreLayout(store, prefix), options, register);
        FOLLOWERS.put(register, follower);
        register.onClose(follower::close);
        if (follower.poller != null) {
            follower.poller.execute(follower::pollAndReschedule);
        }
        return follower;
    }

    /**
     * The generation the pointer under {@code prefix} of {@code store} names, or empty when nothing is
     * published there (read without fetching anything else).
     *
     * @throws IOException when the store cannot be read or the pointer is malformed
     */
    public static Optional<Long> publishedGeneration(FileStore store, String prefix) throws IOException {
        return new StoreLayout(Objects.requireNonNull(store, "store"), Objects.requireNonNull(prefix, "prefix"))
                .pointer()
                .map(Pointer::generation);
    }

    /**
     * Fetches the generation the store's pointer names into the index root {@code root}, verified as a
     * follower verifies it (the manifest against the pointer's SHA-256, every part against its CRC32C),
     * and points {@code root/CURRENT} at it, without opening it: for a builder that starts from an empty
     * root and needs the published generation to compare the new one with. The parts verified before a
     * failure stay in {@code root/download-<n>/}, so a second attempt fetches only the rest. The
     * generation is opened once before {@code CURRENT} names it, as the builder opens it to compare.
     *
     * @return the round, or empty when nothing is published under {@code prefix} (or {@code root/CURRENT}
     *     already names the published generation)
     * @throws IOException when the store, the root, a checksum or the generation's format fails; {@code
     *     CURRENT} is then unchanged
     */
    public static Optional<Round> fetchCurrent(Path root, FileStore store, String prefix, FollowOptions options)
            throws IOException {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(options, "options");
        Files.createDirectories(root);
        // The builder's lock for the whole fetch: the fetch removes stale folders and moves CURRENT, which a
        // build of the same root (another load, or a retry) must not do at the same time.
        try (FileChannel lock = Generations.holdBuildLock(root)) {
            IndexFollower once =
                    new IndexFollower(root, new StoreLayout(store, prefix), options.withPoll(Duration.ZERO), null);
            try {
                return once.pollOnce();
            } finally {
                once.close();
            }
        }
    }

    /**
     * Deletes the download folders a failed {@link #fetchCurrent} left under {@code root} (their verified
     * parts are kept for a retry otherwise), under the root's build lock; returns how many.
     */
    public static int discardDownloads(Path root) throws IOException {
        Objects.requireNonNull(root, "root");
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (FileChannel lock = Generations.holdBuildLock(root)) {
            List<Path> downloads = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, DOWNLOAD + "*")) {
                ds.forEach(downloads::add);
            }
            for (Path p : downloads) {
                Durable.deleteTree(p);
            }
            return downloads.size();
        }
    }

    /**
     * The follower that keeps {@code register} on a published generation, when it is one's (a server's
     * register opened with {@code --index-cache}): for its state and to poll it now.
     */
    public static Optional<IndexFollower> of(LuceneRegister register) {
        return Optional.ofNullable(FOLLOWERS.get(register));
    }

    /** The register over the cache: the generation followed so far. Closing it closes the follower. */
    public LuceneRegister register() {
        return register;
    }

    /** The failure of the last attempt, if it failed; cleared by the next one that succeeds. */
    public Optional<Throwable> lastFailure() {
        return Optional.ofNullable(lastFailure.get());
    }

    /** The last generation fetched and swapped in, if any since the start. */
    public Optional<Round> lastRound() {
        return Optional.ofNullable(lastRound);
    }

    /**
     * Reads the pointer now; when it names a generation other than the open one, fetches, verifies and
     * swaps it in before returning.
     *
     * @return the round when a generation was swapped in; empty when the pointer names the open one or
     *     nothing is published yet
     * @throws IOException when the store, the cache or a checksum fails: the open generation still serves
     */
    public Optional<Round> poll() throws IOException {
        synchronized (roundLock) {
            if (closed.get()) {
                throw new IllegalStateException("the follower of " + cache + " is closed");
            }
            try {
                Optional<Round> r = pollOnce();
                lastFailure.set(null);
                return r;
            } catch (IOException | RuntimeException e) {
                lastFailure.set(e);
                throw e;
            }
        }
    }

    private Optional<Round> pollOnce() throws IOException {
        Optional<Pointer> pointer = layout.pointer();
        if (pointer.isEmpty()) {
            return Optional.empty();
        }
        long generation = pointer.get().generation();
        Optional<Path> local = Generations.current(cache);
        Path target = Generations.generationDir(cache, generation);
        if (local.isPresent() && local.get().equals(target)) {
            // Already current locally (a restart): the register opened it, or opens it now.
            refresh();
            return Optional.empty();
        }
        long started = System.nanoTime();
        removeStale(generation);
        byte[] manifestBytes = layout.readSmall(layout.manifestKey(generation))
                .orElseThrow(() -> new NoSuchFileException(
                        layout.manifestKey(generation), null, "the pointer names a generation without a manifest"));
        String digest = Manifest.hex(IndexPublisher.sha256().digest(manifestBytes));
        if (!digest.equals(pointer.get().manifestSha256())) {
            throw new ChecksumException(layout.manifestKey(generation) + " has SHA-256 " + digest
                    + ", the pointer says " + pointer.get().manifestSha256() + ": refused");
        }
        Manifest manifest =
                Manifest.parse(new String(manifestBytes, StandardCharsets.UTF_8), layout.manifestKey(generation));
        if (manifest.generation() != generation) {
            throw new IOException(layout.manifestKey(generation) + " describes generation " + manifest.generation());
        }
        long[] counts = {0, 0};
        if (!Files.isDirectory(target)) {
            Path folder = cache.resolve(DOWNLOAD + generation);
            Files.createDirectories(folder);
            counts = download(manifest, folder);
            for (Manifest.FileEntry f : manifest.files()) {
                if (Files.size(folder.resolve(f.name())) != f.size()) {
                    throw new IOException(folder.resolve(f.name()) + " is not " + f.size() + " bytes");
                }
            }
            // Verified as published; the local copy then carries the store's number, the one the fleet
            // sees (the builder's own number may be lower: it may build from an empty root each month).
            PublishedIndex built = Generations.readMeta(folder);
            if (built.generation() != generation) {
                Generations.writeMeta(
                        folder,
                        generation,
                        built.documents(),
                        built.checksum(),
                        built.sourceLabel(),
                        built.publishedAt(),
                        built.debtData(),
                        built.referenceMonth());
            }
            if (register == null) {
                // Opened while still the download folder: one that verified but cannot be read stays there,
                // its parts kept for the next attempt (removeStale deletes a gen-N that CURRENT does not name).
                requireReadable(folder, generation);
            }
            Durable.syncDirectory(folder);
            Files.move(folder, target, StandardCopyOption.ATOMIC_MOVE);
            Durable.syncDirectory(cache);
        }
        Generations.point(cache, target);
        refresh();
        Round round = new Round(
                generation,
                manifest.files().size(),
                manifest.totalBytes(),
                counts[0],
                counts[1],
                Duration.ofNanos(System.nanoTime() - started));
        lastRound = round;
        LOG.log(
                Level.INFO,
                "register generation {0} fetched ({1} bytes, {2} read from the store, {3} kept from an earlier"
                        + " attempt) and " + (register == null ? "made current" : "opened") + " in {4} ms",
                generation,
                round.bytes(),
                round.fetched(),
                round.reused(),
                round.took().toMillis());
        return Optional.of(round);
    }

    /**
     * Opens the fetched generation as a builder opens the generation it compares the new one with, and
     * closes it: one that verified but cannot be read (written by a release whose format this one does not
     * read) must not become the previous generation, or the new one would be published without changes.
     */
    private static void requireReadable(Path generationDir, long generation) throws IOException {
        try {
            GenerationReader.open(generationDir, 0, false, () -> {}).release();
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    "generation " + generation + " was fetched into " + generationDir
                            + " and verified, but cannot be read: " + e.getMessage(),
                    e);
        }
    }

    /** Opens what the local {@code CURRENT} names; a builder's one-off fetch has no register to open. */
    private void refresh() {
        if (register != null) {
            register.refresh();
        }
    }

    /** Downloads of other generations and generations neither current nor open: left by a crash or a swap. */
    private void removeStale(long keepDownload) throws IOException {
        Optional<Path> local = Generations.current(cache);
        Path open;
        try {
            open = register == null ? null : register.published().path();
        } catch (IllegalStateException none) {
            open = null;
        }
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(cache)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                if (name.startsWith(DOWNLOAD) && !name.equals(DOWNLOAD + keepDownload)) {
                    stale.add(p);
                } else if (name.startsWith("gen-")
                        && Generations.generationOf(name) >= 0
                        && !p.equals(open)
                        && !local.map(p::equals).orElse(false)) {
                    // The wanted generation's own folder too, when CURRENT does not name it: a crash between a
                    // rename and the pointer, or a build of this root that took the number, is not known to
                    // hold the published files, so it is fetched again rather than adopted unverified.
                    stale.add(p);
                }
            }
        }
        for (Path p : stale) {
            Durable.deleteTree(p);
            LOG.log(Level.INFO, "deleted stale {0}", p);
        }
    }

    /** One file being fetched: its partial file, the parts verified so far (recorded in a side file). */
    private final class FileState {
        final Manifest.FileEntry entry;
        final Path target;
        final Path partial;
        final Path doneFile;
        final BitSet done = new BitSet();
        final int parts;
        FileChannel channel;

        FileState(Manifest.FileEntry entry, Path folder, int partSize) {
            this.entry = entry;
            this.target = folder.resolve(entry.name());
            this.partial = folder.resolve(entry.name() + PARTIAL);
            this.doneFile = folder.resolve(entry.name() + DONE_PARTS);
            this.parts = Manifest.partsOf(entry.size(), partSize);
        }

        synchronized void markDone(int part) throws IOException {
            done.set(part);
            Files.writeString(
                    doneFile,
                    part + "\n",
                    StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            if (done.cardinality() == parts) {
                channel.force(true);
                channel.close();
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                Files.deleteIfExists(doneFile);
            }
        }

        synchronized void closeQuietly() {
            if (channel != null && channel.isOpen()) {
                try {
                    channel.close();
                } catch (IOException e) {
                    // The parts written are recorded; a resume re-verifies them anyway.
                }
            }
        }
    }

    /** Fetches what the folder lacks; returns {bytes read from the store, bytes already verified on disk}. */
    private long[] download(Manifest manifest, Path folder) throws IOException {
        int partSize = manifest.partSize();
        AtomicLong fetched = new AtomicLong();
        long reused = 0;
        List<FileState> states = new ArrayList<>();
        AtomicBoolean abort = new AtomicBoolean();
        List<Task> work = new ArrayList<>();
        ExecutorService pool = null;
        // Everything from the first file opened on is inside the try: a round that fails while it opens or
        // re-verifies files (a full disk, a name taken) closes what it opened, as one that fails fetching.
        try {
            for (Manifest.FileEntry f : manifest.files()) {
                FileState s = new FileState(f, folder, partSize);
                Files.createDirectories(s.target.getParent());
                if (Files.isRegularFile(s.target) && Files.size(s.target) == f.size()) {
                    reused += f.size(); // renamed only once every part was verified
                    continue;
                }
                s.channel = FileChannel.open(
                        s.partial, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                states.add(s);
                reused += resumeParts(s, partSize);
                if (s.done.cardinality() == s.parts) {
                    s.markDone(s.parts - 1);
                    continue;
                }
                for (int p = s.done.nextClearBit(0); p < s.parts; p = s.done.nextClearBit(p + 1)) {
                    work.add(new Task(s, p));
                }
            }
            if (work.isEmpty()) {
                return new long[] {0, reused};
            }
            // While a generation serves, the download leaves most of the cores to the requests.
            int parallelism = openGeneration().equals(NONE) ? options.parallelism() : options.backgroundParallelism();
            pool = Executors.newFixedThreadPool(
                    Math.min(parallelism, work.size()),
                    Thread.ofPlatform().daemon().name("register-fetch-", 0).factory());
            List<Future<?>> futures = new ArrayList<>();
            for (Task t : work) {
                futures.add(pool.submit(() -> {
                    fetchPart(manifest, t.state, t.part, fetched, abort);
                    return null;
                }));
            }
            IOException failure = null;
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    abort.set(true);
                    if (failure == null) {
                        failure = e.getCause() instanceof IOException io
                                ? io
                                : new IOException("fetching " + manifest.generation() + " failed", e.getCause());
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        } catch (InterruptedException e) {
            abort.set(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(
                    "the download of generation " + manifest.generation() + " was interrupted");
        } finally {
            abort.set(true);
            if (pool != null) {
                pool.shutdown();
                try {
                    // The parts in flight stop at their next buffer; none writes after this returns.
                    pool.awaitTermination(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            for (FileState s : states) {
                s.closeQuietly();
            }
        }
        return new long[] {fetched.get(), reused};
    }

    private record Task(FileState state, int part) {}

    /** Parts an earlier round recorded as verified, verified again from disk (cheap, and safe after a crash). */
    private long resumeParts(FileState s, int partSize) throws IOException {
        if (!Files.exists(s.doneFile)) {
            return 0;
        }
        long reused = 0;
        BitSet recorded = new BitSet();
        for (String line : Files.readAllLines(s.doneFile, StandardCharsets.US_ASCII)) {
            try {
                int p = Integer.parseInt(line.strip());
                if (p >= 0 && p < s.parts) {
                    recorded.set(p);
                }
            } catch (NumberFormatException torn) {
                // a line cut by a crash: that part is fetched again
            }
        }
        Files.delete(s.doneFile);
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        for (int p = recorded.nextSetBit(0); p >= 0; p = recorded.nextSetBit(p + 1)) {
            long offset = s.entry.partOffset(p, partSize);
            long length = s.entry.partLength(p, partSize);
            CRC32C crc = new CRC32C();
            long pos = offset;
            while (pos < offset + length) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), offset + length - pos));
                int n = s.channel.read(buffer, pos);
                if (n < 0) {
                    break;
                }
                buffer.flip();
                crc.update(buffer);
                pos += n;
            }
            if (pos == offset + length
                    && Manifest.crcHex(crc.getValue()).equals(s.entry.parts().get(p))) {
                s.done.set(p);
                Files.writeString(
                        s.doneFile,
                        p + "\n",
                        StandardCharsets.US_ASCII,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
                reused += length;
            }
        }
        return reused;
    }

    private void fetchPart(Manifest manifest, FileState s, int part, AtomicLong fetched, AtomicBoolean abort)
            throws IOException {
        int partSize = manifest.partSize();
        long offset = s.entry.partOffset(part, partSize);
        long length = s.entry.partLength(part, partSize);
        String key = layout.fileKey(manifest.generation(), s.entry.name());
        String expected = s.entry.parts().get(part);
        IOException last = null;
        byte[] bytes = new byte[BUFFER];
        for (int attempt = 1; attempt <= options.attempts(); attempt++) {
            if (abort.get() || closed.get()) {
                throw new InterruptedIOException("the download of " + key + " was stopped");
            }
            CRC32C crc = new CRC32C();
            long pos = offset;
            try {
                Optional<FileStore.Download> d = layout.store().open(key, offset, length);
                if (d.isEmpty()) {
                    throw new NoSuchFileException(key, null, "named by the manifest but not in the store");
                }
                try (FileStore.Download download = d.get();
                        InputStream in = download.stream()) {
                    for (int n;
                            pos < offset + length
                                    && (n = in.read(bytes, 0, (int) Math.min(bytes.length, offset + length - pos)))
                                            > 0; ) {
                        if (abort.get() || closed.get()) {
                            throw new InterruptedIOException("the download of " + key + " was stopped");
                        }
                        crc.update(bytes, 0, n);
                        ByteBuffer b = ByteBuffer.wrap(bytes, 0, n);
                        long at = pos;
                        while (b.hasRemaining()) {
                            at += s.channel.write(b, at);
                        }
                        pos += n;
                        fetched.addAndGet(n);
                    }
                }
                if (pos != offset + length) {
                    throw new IOException(
                            key + " part " + part + " ended after " + (pos - offset) + " of " + length + " bytes");
                }
                String actual = Manifest.crcHex(crc.getValue());
                if (!actual.equals(expected)) {
                    last = new ChecksumException(key + " bytes " + offset + "-" + (offset + length - 1)
                            + " have CRC32C " + actual + ", the manifest says " + expected + ": refused");
                    LOG.log(
                            Level.WARNING,
                            last.getMessage() + " (attempt " + attempt + " of " + options.attempts() + ")");
                    continue;
                }
                s.markDone(part);
                return;
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                last = e;
                LOG.log(
                        Level.WARNING,
                        "reading " + key + " part " + part + " failed (attempt " + attempt + " of " + options.attempts()
                                + "): " + e);
            }
        }
        throw last;
    }

    /** A part whose CRC32C is not the one its manifest gives, or a manifest whose SHA-256 is not the pointer's. */
    public static final class ChecksumException extends IOException {
        ChecksumException(String message) {
            super(message);
        }
    }

    private void pollAndReschedule() {
        if (closed.get()) {
            return;
        }
        Duration next = options.poll();
        try {
            poll();
        } catch (IOException | RuntimeException e) {
            if (closed.get()) {
                return;
            }
            next = options.retry().compareTo(next) < 0 ? options.retry() : next;
            LOG.log(
                    Level.WARNING,
                    "following the register at " + layout.pointerKey() + " failed; still serving " + openGeneration()
                            + ", trying again in " + next.toSeconds() + " s: " + e);
        }
        if (!closed.get()) {
            try {
                poller.schedule(this::pollAndReschedule, next.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                // closed meanwhile
            }
        }
    }

    private String openGeneration() {
        if (register == null) {
            return NONE;
        }
        try {
            return register.published().path().toString();
        } catch (IllegalStateException none) {
            return NONE;
        }
    }

    /** Stops polling; a download in flight stops at its next buffer, keeping what it verified. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (register != null) {
            FOLLOWERS.remove(register, this);
        }
        if (poller != null) {
            poller.shutdownNow();
            try {
                poller.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
