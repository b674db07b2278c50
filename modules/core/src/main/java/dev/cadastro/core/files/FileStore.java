package dev.cadastro.core.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Port: where export files and recordings are kept, named by a relative key such as {@code
 * mailing/42.zip}. A file becomes visible only when its upload is committed whole (written to a
 * temporary name and moved into place), so a reader never sees half a file, and a crash leaves at most
 * an orphan temporary. Several server instances need a store they share (an object store); the key is
 * not a file system path.
 */
public interface FileStore {

    /** A file being written. Exactly one of {@link #commit()} or {@link #close()} without commit ends it. */
    interface Upload extends AutoCloseable {
        /** Where to write the bytes. */
        OutputStream stream();

        /** Makes the written bytes the file under the key, replacing any earlier one; returns its size. */
        long commit() throws IOException;

        /** Discards an upload that was not committed. */
        @Override
        void close() throws IOException;
    }

    /** A committed file, opened for reading. */
    interface Download extends AutoCloseable {
        long size();

        InputStream stream();

        @Override
        void close() throws IOException;

        /** The download of {@code size} bytes that {@code in} gives; closing it closes {@code in}. */
        static Download of(long size, InputStream in) {
            return new Download() {
                @Override
                public long size() {
                    return size;
                }

                @Override
                public InputStream stream() {
                    return in;
                }

                @Override
                public void close() throws IOException {
                    in.close();
                }
            };
        }
    }

    /**
     * Starts writing the file under {@code key}.
     *
     * @throws IllegalArgumentException when the key is not relative segments of {@code [A-Za-z0-9._-]}
     */
    Upload create(String key) throws IOException;

    /** The committed file under {@code key}, when there is one: {@code open(key, 0, Long.MAX_VALUE)}. */
    default Optional<Download> open(String key) throws IOException {
        return open(key, 0, Long.MAX_VALUE);
    }

    /** Deletes the file; returns whether there was one. */
    boolean delete(String key) throws IOException;

    /**
     * When the committed file under {@code key} was last written, as the store records it; empty when
     * there is no such file, or the store cannot say (then a sweep by age leaves the file alone).
     */
    default Optional<java.time.Instant> modifiedAt(String key) throws IOException {
        return Optional.empty();
    }

    /** A committed file as {@link #list} gives it. */
    record Entry(String key, long size) {}

    /**
     * The committed files whose keys start with {@code prefix} (a plain string prefix, such as {@code
     * register/gen-3/}), in key order. Uploads not yet committed are not listed.
     */
    List<Entry> list(String prefix) throws IOException;

    /**
     * The bytes {@code [offset, offset + length)} of the committed file under {@code key}, clipped at its
     * end; {@link Download#size()} is the number of bytes the stream gives. Lets a reader fetch one file
     * in parallel parts, or resume a download that stopped.
     *
     * @throws IllegalArgumentException when {@code offset} or {@code length} is negative
     */
    Optional<Download> open(String key, long offset, long length) throws IOException;

    /**
     * A link on the store's own host that serves the committed file without credentials for {@code
     * validity}, minted now; empty where the store cannot mint one (a local folder), and then the caller
     * serves the bytes itself. The link does not check that the file exists.
     */
    default Optional<URI> temporaryLink(String key, Duration validity) {
        return Optional.empty();
    }
}
