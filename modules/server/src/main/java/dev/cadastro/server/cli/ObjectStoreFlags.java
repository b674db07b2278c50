package dev.cadastro.server.cli;

import dev.cadastro.s3.S3Connection;
import dev.cadastro.s3.S3Location;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The flags that say how to reach an object store, shared by every command that takes an {@code
 * s3://BUCKET[/PREFIX]} location ({@code serve} and {@code demo --files}). Credentials are never a flag:
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

    /** A flag of this group given without an {@code s3://} location to apply it to is a usage error. */
    void requireLocation(boolean objectStore, String option, Function<String, ParameterException> usage) {
        if (given() && !objectStore) {
            throw usage.apply((endpoint != null ? "--s3-endpoint" : "--s3-region") + " needs " + option
                    + " s3://BUCKET[/PREFIX]");
        }
    }
}
