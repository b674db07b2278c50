package dev.cadastro.server.cli;

import dev.cadastro.core.files.FileStore;
import dev.cadastro.files.LocalFolderFileStore;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Function;
import picocli.CommandLine.ParameterException;

/**
 * Where a register is published for servers to follow ({@code load --publish}, {@code serve --index}
 * with {@code --index-cache}): an object store ({@code s3://BUCKET[/PREFIX]}, reached as {@link
 * ObjectStoreFlags} say) or a local folder (a shared mount), seen through the core's file-store port.
 *
 * @param store the file store
 * @param prefix the keys' prefix in it (empty for a folder)
 * @param name the location as given, for messages
 */
record PublishedRegister(FileStore store, String prefix, String name) implements AutoCloseable {

    static boolean isObjectStore(String value) {
        return S3Location.isObjectStore(value);
    }

    /** Opens the location given to {@code option}; a bad value is a usage error naming the option and the rule. */
    static PublishedRegister open(
            String option, String value, ObjectStoreFlags objectStore, Function<String, ParameterException> usage) {
        if (value == null || value.isBlank()) {
            throw usage.apply(option + " must name s3://BUCKET[/PREFIX] or a folder");
        }
        if (isObjectStore(value)) {
            S3Location location = ObjectStoreFlags.location(option, value, usage);
            // The store applies the location's prefix to every key.
            return new PublishedRegister(
                    S3FileStore.open(objectStore.connection(usage), location), "", location.toString());
        }
        try {
            return new PublishedRegister(new LocalFolderFileStore(Path.of(value)), "", value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the folder " + value + " given to " + option, e);
        }
    }

    /** Closes an object store's client; a folder holds nothing open. */
    @Override
    public void close() {
        if (store instanceof S3FileStore s3) {
            s3.close();
        }
    }
}
