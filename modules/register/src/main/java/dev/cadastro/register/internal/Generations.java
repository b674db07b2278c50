package dev.cadastro.register.internal;

import dev.cadastro.register.PublishedIndex;
import java.io.IOException;
import java.io.StringReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The layout of an index root: {@code CURRENT} names the published generation directory ({@code
 * gen-<n>}); a build writes {@code staging-<n>} and renames it to {@code gen-<n>} once verified, then
 * replaces {@code CURRENT} atomically; {@code build.lock} keeps builds one at a time.
 */
public final class Generations {
    public static final String CURRENT = "CURRENT";
    public static final String LOCK = "build.lock";

    /**
     * Takes the root's build lock through {@code channel} (a channel on {@link #LOCK}): one build, or one
     * fetch of a published generation into it, at a time per root. Released when the channel closes.
     *
     * @throws IllegalStateException when another build of the root holds it
     */
    public static FileLock lockBuilds(FileChannel channel, Path root) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            throw new IllegalStateException("another build of " + root + " is running (it holds " + root.resolve(LOCK)
                    + "); builds of one root run one at a time");
        }
        return lock;
    }

    /**
     * Opens {@code root/}{@value #LOCK} and takes the build lock through it ({@link #lockBuilds}); closing the
     * returned channel releases the lock.
     *
     * @throws IllegalStateException when another build of the root holds it
     */
    public static FileChannel holdBuildLock(Path root) throws IOException {
        FileChannel channel = FileChannel.open(root.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            lockBuilds(channel, root);
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    public static final String META = "generation.properties";
    private static final String GEN = "gen-";
    private static final String STAGING = "staging-";

    private Generations() {}

    public static Path generationDir(Path root, long generation) {
        return root.resolve(GEN + generation);
    }

    public static Path stagingDir(Path root, long generation) {
        return root.resolve(STAGING + generation);
    }

    /** The generation directory {@code CURRENT} names, if any. */
    public static Optional<Path> current(Path root) throws IOException {
        Path pointer = root.resolve(CURRENT);
        if (!Files.exists(pointer)) {
            return Optional.empty();
        }
        String name = Files.readString(pointer, StandardCharsets.UTF_8).strip();
        if (!name.startsWith(GEN) || generationOf(name) < 0) {
            throw new IOException(pointer + " names " + name + ", not a generation directory");
        }
        return Optional.of(root.resolve(name));
    }

    /** Publishes: {@code CURRENT} is replaced atomically by the name of {@code genDir}. */
    public static void point(Path root, Path genDir) throws IOException {
        Durable.replace(
                root.resolve(CURRENT), (genDir.getFileName().toString() + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** One more than every generation or staging number under the root. */
    public static long nextGeneration(Path root) throws IOException {
        long max = 0;
        for (Path p : list(root)) {
            max = Math.max(max, generationOf(p.getFileName().toString()));
        }
        return max + 1;
    }

    /** Staging directories left by crashed or abandoned builds. */
    public static List<Path> stagingDirs(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path p : list(root)) {
            if (p.getFileName().toString().startsWith(STAGING)) {
                out.add(p);
            }
        }
        return out;
    }

    /** Published generation directories by number. */
    public static TreeMap<Long, Path> generationDirs(Path root) throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        for (Path p : list(root)) {
            String n = p.getFileName().toString();
            if (n.startsWith(GEN) && generationOf(n) >= 0) {
                out.put(generationOf(n), p);
            }
        }
        return out;
    }

    /** The number in {@code gen-<n>} or {@code staging-<n>}; -1 for other names. */
    public static long generationOf(String name) {
        String digits = name.startsWith(GEN)
                ? name.substring(GEN.length())
                : name.startsWith(STAGING) ? name.substring(STAGING.length()) : "";
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(digits);
    }

    /** Version of {@link #META}: 2 added {@code debtData}; only the current version is read. */
    static final int META_VERSION = 2;

    /**
     * The optional key of the dump's reference month ({@code 2026-11}). Added without a new version: a
     * reader of version 2 that predates it ignores it, and a generation without it has no reference
     * month (the API then sends no {@code X-Dados-Referencia}).
     */
    static final String REFERENCE_MONTH = "referenceMonth";

    public static void writeMeta(
            Path dir, long generation, long documents, long checksum, String label, Instant at, boolean debtData)
            throws IOException {
        writeMeta(dir, generation, documents, checksum, label, at, debtData, Optional.empty());
    }

    public static void writeMeta(
            Path dir,
            long generation,
            long documents,
            long checksum,
            String label,
            Instant at,
            boolean debtData,
            Optional<YearMonth> referenceMonth)
            throws IOException {
        String text = "version=" + META_VERSION + "\ngeneration=" + generation + "\ndocuments=" + documents
                + "\nchecksum=" + Long.toHexString(checksum) + "\npublishedAt=" + at + "\nsourceLabel="
                + escape(label) + "\ndebtData=" + debtData + "\n"
                + referenceMonth.map(m -> REFERENCE_MONTH + "=" + m + "\n").orElse("");
        Durable.write(dir.resolve(META), text.getBytes(StandardCharsets.UTF_8));
    }

    public static PublishedIndex readMeta(Path dir) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(Files.readString(dir.resolve(META), StandardCharsets.UTF_8)));
        int version = Integer.parseInt(p.getProperty("version", "1"));
        if (version < META_VERSION) {
            throw new OutdatedFormatException(dir, META + " version " + version);
        }
        if (version > META_VERSION) {
            throw new IOException(dir.resolve(META) + " has version " + version + ", this code reads " + META_VERSION);
        }
        return new PublishedIndex(
                dir,
                Long.parseLong(p.getProperty("generation")),
                Long.parseLong(p.getProperty("documents")),
                Long.parseUnsignedLong(p.getProperty("checksum"), 16),
                p.getProperty("sourceLabel"),
                Instant.parse(p.getProperty("publishedAt")),
                Boolean.parseBoolean(p.getProperty("debtData")),
                referenceMonth(p.getProperty(REFERENCE_MONTH)));
    }

    /** A malformed month is no month: freshness is information, never a reason to refuse a generation. */
    private static Optional<YearMonth> referenceMonth(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(YearMonth.parse(text.strip()));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '\\' || c == '\n' || c == '\r' || c == '=' || c == ':' || c == '#' || c == '!' || c > 0x7e) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static List<Path> list(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
            for (Path p : ds) {
                out.add(p);
            }
        }
        return out;
    }
}
