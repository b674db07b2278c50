package dev.cadastro.s3;

import dev.cadastro.core.files.FileStore;
import dev.cadastro.files.LocalFolderFileStore;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The file-store contract on the local folder: the reference the object store is held to. */
class LocalFolderFileStoreContractTest extends FileStoreContract {
    @TempDir
    Path root;

    private FileStore store;

    @BeforeEach
    void open() throws IOException {
        store = new LocalFolderFileStore(root);
    }

    @Override
    FileStore store() {
        return store;
    }
}
