package dev.cadastro.server.cli;

import dev.cadastro.core.files.FileStore;
import dev.cadastro.s3.S3Connection;

/** The S3 file store of a bucket, through the object-store adapter. */
final class ObjectStores {
    private ObjectStores() {}

    static FileStore open(S3Connection connection, String bucket) {
        throw new UnsupportedOperationException(
                "s3:// locations need the S3 file store of modules/s3, not merged into this build yet");
    }
}
