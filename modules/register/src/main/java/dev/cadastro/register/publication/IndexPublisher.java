package dev.cadastro.register.publication;

import dev.cadastro.core.files.FileStore;
import dev.cadastro.core.internal.Texts;
import dev.cadastro.register.PublishedIndex;
import dev.cadastro.register.internal.Generations;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Publishes a generation of a local index root to a {@link FileStore}, for servers that follow it
 * ({@link IndexFollower}): the generation's files go to {@code gen-<n>/}, then its manifest (every
 * file's size and SHA-256, and the CRC32C of each of its parts) to {@code gen-<n>.manifest}, and only then does the
 * {@code CURRENT} pointer move to it, so a reader never sees a generation half published. The files of
 * a generation never change once uploaded; a publication that fails before the pointer moves leaves the
 * previous generation current, and its partial upload is deleted by the next one. One publisher at a
 * time per prefix.
 */
public final class IndexPublisher {
    private static final System.Logger LOG = System.getLogger(IndexPublisher.class.getName());
    private static final int BUFFER = 1 << 20;

    /**
     * What a publication did.
     *
     * @param generation the generation's number in the store
     * @param files files uploaded
     * @param bytes their bytes
     * @param took from the first upload to the pointer's move
     * @param deleted generations deleted from the store afterwards (older than the kept ones, or left
     *     half-uploaded)
     */
    public record Publication(long generation, int files, long bytes, Duration took, List<Long> deleted) {
        public Publication {
            deleted = List.copyOf(deleted);
        }
    }

    private IndexPublisher() {}

    /**
     * Publishes the generation {@code indexRoot/CURRENT} names under {@code prefix} of {@code store}.
     * Its number in the store is its local number, or one more than any generation already in the store
     * when that is larger (a builder that starts from an empty root each month still publishes upward).
     *
     * @param prefix a key prefix such as {@code register/} (empty: the store's root)
     * @throws IllegalStateException when nothing is published under {@code indexRoot}
     * @throws IOException when the store or the local files fail; the pointer has not moved then
     */
    public static Publication publish(Path indexRoot, FileStore store, String prefix, PublishOptions options)
            throws IOException {
        Objects.requireNonNull(indexRoot, "indexRoot");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(options, "options");
        Path dir = Generations.current(indexRoot)
                .orElseThrow(() -> new IllegalStateException("no generation is published under " + indexRoot));
        PublishedIndex meta = Generations.readMeta(dir);
        StoreLayout layout = new StoreLayout(store, prefix);
        TreeSet<Long> existing = layout.generations();
        Optional<Pointer> before = layout.pointer();
        long highest = Math.max(
                existing.isEmpty() ? 0 : existing.last(),
                before.map(Pointer::generation).orElse(0L));
        long generation = Math.max(meta.generation(), highest + 1);
        if (generation < 1 || generation > Pointer.MAX_GENERATION) {
            throw new IOException("generation " + generation + " of " + dir + " is outside 1.." + Pointer.MAX_GENERATION
                    + ", the numbers a follower reads; nothing was uploaded");
        }
        long started = System.nanoTime();

        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(files::add);
        }
        // Every name before any upload: a follower refuses a manifest with one it does not accept, so the
        // pointer must never move to it (and nothing may land outside the generation's folder).
        for (Path f : files) {
            String name = nameIn(dir, f);
            if (!Manifest.acceptsName(name)) {
                throw new IOException("the file " + Texts.quote(name) + " of " + dir
                        + " has a name a follower refuses (relative segments of letters, digits, '.', '_' and"
                        + " '-', none starting with '.'); nothing was uploaded");
            }
        }
        // Largest first, so the parallel uploads end together.
        files.sort(Comparator.comparingLong(IndexPublisher::sizeOf).reversed());
        List<Manifest.FileEntry> entries = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(
                Math.min(options.threads(), Math.max(1, files.size())),
                Thread.ofPlatform().daemon().name("register-publish-", 0).factory());
        try {
            List<Future<Manifest.FileEntry>> uploads = new ArrayList<>();
            for (Path f : files) {
                String name = nameIn(dir, f);
                uploads.add(pool.submit(
                        () -> upload(f, name, layout.fileKey(generation, name), options.partSize(), store)));
            }
            for (Future<Manifest.FileEntry> u : uploads) {
                entries.add(u.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("publication of generation " + generation + " was interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io
                    ? io
                    : new IOException("publication of generation " + generation + " failed: " + cause, cause);
        } finally {
            pool.shutdownNow();
        }
        entries.sort(Comparator.comparing(Manifest.FileEntry::name));
        Manifest manifest = new Manifest(
                generation,
                meta.generation(),
                meta.documents(),
                meta.checksum(),
                meta.sourceLabel(),
                meta.publishedAt(),
                meta.debtData(),
                options.partSize(),
                entries);
        byte[] manifestBytes = manifest.bytes();
        layout.write(layout.manifestKey(generation), manifestBytes);
        // Last: from here on followers see the new generation, every byte of which is in the store.
        layout.write(
                layout.pointerKey(), new Pointer(generation, Manifest.hex(sha256().digest(manifestBytes))).bytes());
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        long bytes = manifest.totalBytes();
        LOG.log(
                Level.INFO,
                "published register generation {0} ({1} files, {2} bytes) to {3}",
                generation,
                entries.size(),
                bytes,
                layout.pointerKey());
        List<Long> deleted = deleteOld(layout, generation, options.keepGenerations());
        return new Publication(generation, entries.size(), bytes, took, deleted);
    }

    /**
     * Deletes every generation but {@code current} and the {@code keep - 1} newest others that are whole
     * (have a manifest): older ones and any left half-uploaded by a failed publication.
     */
    static List<Long> deleteOld(StoreLayout layout, long current, int keep) throws IOException {
        TreeSet<Long> all = layout.generations();
        TreeSet<Long> whole = new TreeSet<>();
        for (FileStore.Entry e : layout.store().list(layout.prefix() + "gen-")) {
            for (long g : all) {
                if (e.key().equals(layout.manifestKey(g))) {
                    whole.add(g);
                }
            }
        }
        List<Long> kept = new ArrayList<>();
        kept.add(current);
        for (long g : whole.descendingSet()) {
            if (kept.size() >= keep) {
                break;
            }
            if (g < current) {
                kept.add(g);
            }
        }
        List<Long> deleted = new ArrayList<>();
        for (long g : all) {
            if (kept.contains(g) || g > current) {
                continue;
            }
            // The manifest first: a generation without one is never followed, so a follower that reads the
            // pointer of an older publication meanwhile fails cleanly instead of fetching missing files.
            layout.store().delete(layout.manifestKey(g));
            for (FileStore.Entry e : layout.store().list(layout.prefix() + "gen-" + g + "/")) {
                layout.store().delete(e.key());
            }
            deleted.add(g);
        }
        if (!deleted.isEmpty()) {
            LOG.log(Level.INFO, "deleted register generations {0} from the store", deleted);
        }
        return deleted;
    }

    /** The file's name in the manifest: its path under the generation folder, with {@code /}. */
    private static String nameIn(Path dir, Path file) {
        return dir.relativize(file).toString().replace(java.io.File.separatorChar, '/');
    }

    private static Manifest.FileEntry upload(Path file, String name, String key, int partSize, FileStore store)
            throws IOException {
        MessageDigest whole = sha256();
        CRC32C part = new CRC32C();
        List<String> parts = new ArrayList<>();
        long size = 0;
        long inPart = 0;
        byte[] buffer = new byte[BUFFER];
        try (FileStore.Upload up = store.create(key);
                InputStream in = Files.newInputStream(file)) {
            OutputStream out = up.stream();
            for (int n; (n = in.read(buffer, 0, (int) Math.min(buffer.length, partSize - inPart))) > 0; ) {
                out.write(buffer, 0, n);
                whole.update(buffer, 0, n);
                part.update(buffer, 0, n);
                size += n;
                inPart += n;
                if (inPart == partSize) {
                    parts.add(Manifest.crcHex(part.getValue()));
                    part.reset();
                    inPart = 0;
                }
            }
            if (inPart > 0 || size == 0) {
                parts.add(Manifest.crcHex(part.getValue()));
            }
            long stored = up.commit();
            if (stored != size) {
                throw new IOException(key + " was stored with " + stored + " bytes instead of " + size);
            }
        }
        return new Manifest.FileEntry(name, size, Manifest.hex(whole.digest()), parts);
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }
}
