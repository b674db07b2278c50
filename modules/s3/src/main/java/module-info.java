/**
 * The core's {@code FileStore} port on an S3-compatible object store ({@link dev.cadastro.s3.S3FileStore}),
 * so that several servers on one database share export files and recordings: streamed multipart uploads
 * that appear only when complete, ranged reads, listing by prefix and presigned links. {@link
 * dev.cadastro.s3.S3Connection} (endpoint, region, the SDK's default credentials chain) and {@link
 * dev.cadastro.s3.S3Location} ({@code s3://BUCKET[/PREFIX]}) are shared by every use of the bucket.
 */
module dev.cadastro.s3 {
    requires transitive dev.cadastro.core;
    // The AWS SDK for Java v2 (automatic modules); its client types are part of S3Connection's API.
    requires transitive software.amazon.awssdk.services.s3;
    requires transitive software.amazon.awssdk.core;
    requires transitive software.amazon.awssdk.auth;
    requires transitive software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http.urlconnection;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.identity.spi;
    requires software.amazon.awssdk.utils;

    exports dev.cadastro.s3;
}
