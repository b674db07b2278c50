package dev.cadastro.server.cli;

import dev.cadastro.s3.S3Connection;
import dev.cadastro.s3.S3FileStore;
import dev.cadastro.s3.S3Location;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The flags that say how to reach an object store, shared by every command that takes an {@code
 * s3://BUCKET[/PREFIX]} location ({@code serve} and {@code demo --files}; other commands mix it in for their
 * own {@code s3://} flags). Credentials are never a flag:
 * they come from the AWS SDK's default chain (docs/deploy.md).
 */
final class ObjectStoreFlags {
    @Option(
            names = "--s3-endpoint",
            paramLabel = "URL",
            description = "With an s3:// location: the URL of an S3-compatible store (MinIO, Ceph, Garage,"
                    + " s3proxy), addressed path-style (default: AWS S3 itself).")
    String endpoint;

    @Option(
            names = "--s3-region",
            paramLabel = "REGION",
            description = "With an s3:// location: the bucket's region (default: AWS_REGION; us-east-1 when"
                    + " --s3-endpoint is given and neither is set).")
    String region;

    /** Whether either flag was given. */
    boolean given() {
        return endpoint != null || region != null;
    }

    /** The connection these flags and the process environment describe. */
    S3Connection connection(Function<String, ParameterException> usage) {
        return connection(System.getenv(), usage);
    }

    S3Connection connection(Map<String, String> env, Function<String, ParameterException> usage) {
        try {
            return S3Connection.of(endpoint, region, env);
        } catch (IllegalArgumentException e) {
            throw usage.apply(e.getMessage());
        }
    }

    /** {@code value} of {@code option} as an {@code s3://BUCKET[/PREFIX]} location. */
    static S3Location location(String option, String value, Function<String, ParameterException> usage) {
        try {
            return S3Location.parse(option, value);
        } catch (IllegalArgumentException e) {
            throw usage.apply(e.getMessage());
        }
    }

    /**
     * The object store {@code value} of {@code option} names, opened (the bucket checked), or empty when
     * it is a folder; the caller closes it after the server. A flag of this group without an {@code s3://}
     * value is a usage error.
     *
     * @throws IllegalStateException naming the location and the endpoint when the bucket does not answer
     */
    Optional<S3FileStore> fileStore(String option, String value, Function<String, ParameterException> usage) {
        boolean objectStore = S3Location.isObjectStore(value);
        requireLocation(objectStore, option, usage);
        if (!objectStore) {
            return Optional.empty();
        }
        S3Location location = location(option, value, usage);
        return Optional.of(S3FileStore.open(connection(usage), location));
    }

    /** A flag of this group given without an {@code s3://} location to apply it to is a usage error. */
    void requireLocation(boolean objectStore, String option, Function<String, ParameterException> usage) {
        if (given() && !objectStore) {
            throw usage.apply((endpoint != null ? "--s3-endpoint" : "--s3-region") + " needs " + option
                    + " s3://BUCKET[/PREFIX]");
        }
    }
}
