package dev.cadastro.core.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Port: where export files and recordings are kept, named by a relative key such as {@code
 * mailing/42.zip}. A file becomes visible only when its upload is committed whole (written to a
 * temporary name and moved into place), so a reader never sees half a file, and a crash leaves at most
 * an orphan temporary. Several server instances need a store they share (an S3-compatible adapter is
 * planned); the key is not a file system path.
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
    }

    /**
     * Starts writing the file under {@code key}.
     *
     * @throws IllegalArgumentException when the key is not relative segments of {@code [A-Za-z0-9._-]}
     */
    Upload create(String key) throws IOException;

    /** The committed file under {@code key}, when there is one. */
    Optional<Download> open(String key) throws IOException;

    /** Deletes the file; returns whether there was one. */
    boolean delete(String key) throws IOException;
}
