package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the repository's files for the tests that read its documents. */
final class RepositoryFiles {
    private RepositoryFiles() {}

    /** The folder with the parent {@code pom.xml}, {@code mvnw} and {@code README.md}, above this module. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("mvnw")))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "the repository root is above " + Path.of("").toAbsolutePath());
        return dir;
    }
}
