/**
 * The default adapter of the core's {@code FileStore} port: {@link dev.cadastro.files.LocalFolderFileStore},
 * a folder on the local disk where export files and recordings are written under a temporary name and
 * moved into place whole. It depends on the JDK alone; an object store is the other adapter
 * ({@code dev.cadastro.s3}).
 */
module dev.cadastro.files {
    requires transitive dev.cadastro.core;

    exports dev.cadastro.files;
}
