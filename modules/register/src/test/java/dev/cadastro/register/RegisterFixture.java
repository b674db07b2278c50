package dev.cadastro.register;

import dev.cadastro.core.register.Establishment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A generated register: the rows in memory and a published index of them in a temporary root. */
final class RegisterFixture implements AutoCloseable {
    final Path root;
    final List<Establishment> rows;
    final SyntheticRegister generator;
    final PublishedIndex published;

    private RegisterFixture(
            Path root, List<Establishment> rows, SyntheticRegister generator, PublishedIndex published) {
        this.root = root;
        this.rows = rows;
        this.generator = generator;
        this.published = published;
    }

    static RegisterFixture build(int count, long seed) {
        try {
            Path root = Files.createTempDirectory("register-fixture");
            SyntheticRegister g = new SyntheticRegister(seed);
            List<Establishment> rows = new ArrayList<>(count);
            try (RegisterIndexBuilder b = RegisterIndexBuilder.create(
                    root,
                    SyntheticRegister.lookups(),
                    BuildOptions.builder().indexingThreads(2).ramBufferMb(64).build())) {
                for (int i = 0; i < count; i++) {
                    Establishment e = g.next();
                    rows.add(e);
                    b.add(e);
                }
                PublishedIndex p = b.publish("synthetic seed " + seed);
                return new RegisterFixture(root, rows, g, p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        deleteTree(root);
    }

    static void deleteTree(Path root) {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
