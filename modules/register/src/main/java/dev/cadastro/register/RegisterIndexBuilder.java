package dev.cadastro.register;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Writes one new generation of the register index and publishes it atomically.
 *
 * <p>{@link #create} starts the generation in a staging directory beside the published ones under
 * {@code root}; {@link #add} may be called from several threads; {@link #publish} commits, drops
 * duplicate CNPJs (the establishment added last wins), force-merges when the options say so, verifies
 * the committed index (document count and content checksum) and only then replaces {@code root/CURRENT}
 * by an atomic rename. {@link #close()} without {@link #publish} abandons the build and deletes its
 * staging directory; a crash leaves {@code CURRENT} and its generation untouched.
 */
public final class RegisterIndexBuilder implements AutoCloseable {

    private RegisterIndexBuilder() {
        throw new UnsupportedOperationException("being implemented");
    }

    /** Starts a new generation under {@code root} (created when absent). */
    public static RegisterIndexBuilder create(Path root, Lookups lookups, BuildOptions options) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** Adds one establishment. Thread-safe. */
    public void add(dev.cadastro.core.register.Establishment establishment) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** Establishments added so far (duplicates included). */
    public long added() {
        throw new UnsupportedOperationException("being implemented");
    }

    /** Commits, verifies and publishes the generation; the builder is done afterwards. */
    public PublishedIndex publish(String sourceLabel) {
        throw new UnsupportedOperationException("being implemented");
    }

    /** Abandons an unpublished build and deletes its staging directory. */
    @Override
    public void close() {
        throw new UncheckedIOException(new IOException("being implemented"));
    }

    static void unused(Establishment e) {}
}
