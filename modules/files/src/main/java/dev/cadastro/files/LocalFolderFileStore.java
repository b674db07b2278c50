package dev.cadastro.files;

import dev.cadastro.core.files.FileStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The default {@link FileStore}: a folder on the local disk (under the server's home). An upload is
 * written to {@code .tmp-<uuid>} beside its target, forced to disk, and renamed atomically into place;
 * temporaries a crash left behind are removed by {@link #removeOrphans}.
 */
public final class LocalFolderFileStore implements FileStore {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*");
    private static final String TEMPORARY = ".tmp-";

    private final Path root;

    public LocalFolderFileStore(Path root) throws IOException {
        this.root =
                Files.createDirectories(Objects.requireNonNull(root, "root")).toAbsolutePath();
    }

    public Path root() {
        return root;
    }

    @Override
    public Upload create(String key) throws IOException {
        Path target = resolve(key);
        Files.createDirectories(target.getParent());
        Path temporary = target.resolveSibling(TEMPORARY + UUID.randomUUID());
        FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        // The writer may close what it was given (a ZIP does); only commit or abort closes the channel.
        OutputStream out =
                new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel), 1 << 16) {
                    @Override
                    public void close() throws IOException {
                        flush();
                    }
                };
        return new Upload() {
            private boolean done;

            @Override
            public OutputStream stream() {
                return out;
            }

            @Override
            public long commit() throws IOException {
                if (done) {
                    throw new IllegalStateException("upload of " + key + " already ended");
                }
                out.flush();
                channel.force(true);
                long size = channel.size();
                channel.close();
                try {
                    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
                }
                done = true;
                return size;
            }

            @Override
            public void close() throws IOException {
                if (!done) {
                    done = true;
                    try {
                        channel.close();
                    } finally {
                        Files.deleteIfExists(temporary);
                    }
                }
            }
        };
    }

    @Override
    public Optional<Download> open(String key, long offset, long length) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("range " + offset + "+" + length + " of " + key + " is negative");
        }
        Path file = resolve(key);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        long start = Math.min(offset, channel.size());
        long size = Math.min(length, channel.size() - start);
        channel.position(start);
        InputStream in = new java.io.FilterInputStream(java.nio.channels.Channels.newInputStream(channel)) {
            private long left = size;

            @Override
            public int read() throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int b = super.read();
                if (b >= 0) {
                    left--;
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int off, int len) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int n = super.read(buffer, off, (int) Math.min(len, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = super.skip(Math.min(n, left));
                left -= skipped;
                return skipped;
            }

            @Override
            public int available() throws IOException {
                return (int) Math.min(super.available(), left);
            }
        };
        return Optional.of(Download.of(size, in));
    }

    @Override
    public Optional<java.time.Instant> modifiedAt(String key) throws IOException {
        try {
            return Optional.of(Files.getLastModifiedTime(resolve(key)).toInstant());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean delete(String key) throws IOException {
        return Files.deleteIfExists(resolve(key));
    }

    @Override
    public java.util.List<Entry> list(String prefix) throws IOException {
        Objects.requireNonNull(prefix, "prefix");
        java.util.List<Entry> entries = new java.util.ArrayList<>();
        // Only the folder the prefix names (up to its last slash): "mailing/" walks mailing/ alone, not the
        // register's generations beside it. A folder no key could lie in ("..", "a//") holds nothing listed.
        int slash = prefix.lastIndexOf('/');
        String folder = slash < 0 ? "" : prefix.substring(0, slash);
        if (!folder.isEmpty() && (!KEY.matcher(folder).matches() || folder.contains(".."))) {
            return entries;
        }
        Path start = folder.isEmpty() ? root : root.resolve(folder);
        if (!Files.isDirectory(start)) {
            return entries;
        }
        try (var files = Files.walk(start)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (!Files.isRegularFile(p) || p.getFileName().toString().startsWith(TEMPORARY)) {
                    continue;
                }
                String key = root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                if (key.startsWith(prefix)) {
                    try {
                        entries.add(new Entry(key, Files.size(p)));
                    } catch (NoSuchFileException deletedMeanwhile) {
                        // gone between the walk and the size: not listed
                    }
                }
            }
        } catch (java.io.UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e.getCause();
            }
        }
        entries.sort(java.util.Comparator.comparing(Entry::key));
        return entries;
    }

    /**
     * Deletes temporaries left by a crash: those last modified before {@code cutoff} (pick one older
     * than any upload still running).
     */
    public int removeOrphans(java.time.Instant cutoff) throws IOException {
        int[] removed = {0};
        try (var files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                try {
                    if (p.getFileName().toString().startsWith(TEMPORARY)
                            && Files.getLastModifiedTime(p).toInstant().isBefore(cutoff)
                            && Files.deleteIfExists(p)) {
                        removed[0]++;
                    }
                } catch (NoSuchFileException committedMeanwhile) {
                    // Another server sharing the folder committed (renamed) its upload after the walk saw it.
                }
            }
        } catch (java.io.UncheckedIOException e) {
            // A folder removed during the walk: what it held is gone already.
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e.getCause();
            }
        }
        return removed[0];
    }

    private Path resolve(String key) {
        Objects.requireNonNull(key, "key");
        if (!KEY.matcher(key).matches() || key.contains("..")) {
            throw new IllegalArgumentException("file key '" + key + "' is not relative segments of [A-Za-z0-9._-]");
        }
        Path p = root.resolve(key).normalize();
        if (!p.startsWith(root)) {
            throw new IllegalArgumentException("file key '" + key + "' leaves the store");
        }
        return p;
    }
}
