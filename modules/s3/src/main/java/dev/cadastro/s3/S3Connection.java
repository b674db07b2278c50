package dev.cadastro.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * How to reach an object store: its endpoint (AWS when absent; an S3-compatible store such as MinIO,
 * Ceph, Garage or s3proxy when given, then addressed path-style), its region, and where credentials come
 * from. Credentials come from the SDK's default chain (environment, system properties, profile, container
 * or instance role) and never from a flag; {@link #withCredentials} exists for tests and hosts that
 * embed the library.
 *
 * @param endpoint the store's URL, empty for AWS itself
 * @param region the signing region
 */
public record S3Connection(Optional<URI> endpoint, String region, AwsCredentialsProvider credentials) {
    /** The region assumed for an S3-compatible endpoint when none is given (most ignore it). */
    public static final String ENDPOINT_DEFAULT_REGION = "us-east-1";

    /** How long one request may take, connection included, before it fails. */
    static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);

    public S3Connection {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(credentials, "credentials");
        endpoint.ifPresent(S3Connection::checkEndpoint);
    }

    /**
     * The connection the flags {@code --s3-endpoint} and {@code --s3-region} describe, with {@code env}'s
     * {@code AWS_REGION} when the region flag is absent, and {@value #ENDPOINT_DEFAULT_REGION} when neither
     * is given but an endpoint is.
     *
     * @param endpoint the value of {@code --s3-endpoint}, or null
     * @param region the value of {@code --s3-region}, or null
     * @throws IllegalArgumentException naming the flag and the rule
     */
    public static S3Connection of(String endpoint, String region, Map<String, String> env) {
        Optional<URI> url = Optional.empty();
        if (endpoint != null) {
            try {
                url = Optional.of(checkEndpoint(URI.create(endpoint)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "--s3-endpoint " + endpoint + " must be an http or https URL such as http://127.0.0.1:9000");
            }
        }
        String chosen = region != null ? region : env.get("AWS_REGION");
        if (chosen == null || chosen.isBlank()) {
            if (url.isEmpty()) {
                throw new IllegalArgumentException("an s3:// location needs a region: give --s3-region REGION or set"
                        + " AWS_REGION (with --s3-endpoint the default is " + ENDPOINT_DEFAULT_REGION + ")");
            }
            chosen = ENDPOINT_DEFAULT_REGION;
        }
        if (!chosen.matches("[a-z0-9-]{1,64}")) {
            throw new IllegalArgumentException("--s3-region " + chosen
                    + " must be a region name such as sa-east-1 (lower-case letters, digits, -)");
        }
        return new S3Connection(
                url, chosen, DefaultCredentialsProvider.builder().build());
    }

    /** This connection with other credentials (tests, embedding hosts). */
    public S3Connection withCredentials(AwsCredentialsProvider credentials) {
        return new S3Connection(endpoint, region, credentials);
    }

    /** A new synchronous client on the JDK's HttpURLConnection; the caller closes it. */
    public S3Client client() {
        var builder = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(10))
                        .socketTimeout(Duration.ofSeconds(60))
                        .build())
                .region(Region.of(region))
                .credentialsProvider(credentials)
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(CALL_TIMEOUT)
                        .build())
                .serviceConfiguration(configuration());
        endpoint.ifPresent(url -> builder.endpointOverride(url)
                // S3-compatible stores (s3proxy, older MinIO and Ceph) do not all take the SDK's default
                // CRC32 trailers (aws-chunked bodies, x-amz-checksum-mode): send and check checksums only
                // where S3 requires them; the payload is still signed with its SHA-256.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
        return builder.build();
    }

    /** A new presigner minting GET links on the same endpoint and credentials; the caller closes it. */
    public S3Presigner presigner() {
        var builder = S3Presigner.builder()
                .region(Region.of(region))
                .credentialsProvider(credentials)
                .serviceConfiguration(configuration());
        endpoint.ifPresent(builder::endpointOverride);
        return builder.build();
    }

    private S3Configuration configuration() {
        // S3-compatible stores are reached as http://host/bucket/key: their buckets have no DNS names.
        return S3Configuration.builder()
                .pathStyleAccessEnabled(endpoint.isPresent())
                .build();
    }

    private static URI checkEndpoint(URI uri) {
        if (uri.getScheme() == null
                || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                || uri.getHost() == null) {
            throw new IllegalArgumentException("endpoint " + uri + " must be an http or https URL");
        }
        return uri;
    }

    @Override
    public String toString() {
        return "S3Connection[" + endpoint.map(URI::toString).orElse("AWS") + ", " + region + "]";
    }
}
