package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.register.RegisterIndexBuilder.PublishStep;
import dev.cadastro.register.internal.RecordCodec;
import dev.cadastro.register.internal.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a failed or interrupted publication leaves behind. The generation's verification is made to
 * fail for real (its committed index is changed on disk before it is verified), and a crash between
 * moving a generation into place and switching {@code CURRENT} is a real halt of a child JVM at that
 * step, through {@link RegisterIndexBuilder#publishHook} (see {@link CrashBeforePoint}).
 */
class PublicationFailureTest {
    private static final SearchOptions NO_TIMER =
            SearchOptions.builder().refreshInterval(Duration.ZERO).build();

    @AfterEach
    void resetHook() {
        RegisterIndexBuilder.publishHook = (step, dir) -> {};
    }

    private static List<Establishment> rows(long seed, int n) {
        return CrashBeforePoint.rows(seed, n);
    }

    private static PublishedIndex build(Path root, List<Establishment> rows, String label) {
        return CrashBeforePoint.build(root, rows, label);
    }

    private static String current(Path root) throws IOException {
        return Files.readString(root.resolve("CURRENT")).strip();
    }

    /** Changes the committed staging index before verification, with a writer of the same sort. */
    private static void changeBeforeVerify(Consumer<IndexWriter> change) {
        RegisterIndexBuilder.publishHook = (step, dir) -> {
            if (step != PublishStep.BEFORE_VERIFY) {
                return;
            }
            IndexWriterConfig config = new IndexWriterConfig();
            Schema.configure(config);
            config.setOpenMode(IndexWriterConfig.OpenMode.APPEND);
            try (FSDirectory d = FSDirectory.open(dir);
                    IndexWriter w = new IndexWriter(d, config)) {
                change.accept(w);
                w.commit();
            }
        };
    }

    private static void assertNothingPublishedOver(Path root, List<Establishment> first) throws IOException {
        assertEquals("gen-1", current(root));
        assertFalse(Files.exists(root.resolve("gen-2")), "the refused generation is not moved into place");
        assertFalse(Files.exists(root.resolve("staging-2")), "the refused generation's staging is deleted");
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            assertEquals(1, r.published().generation());
            assertEquals(first.size(), r.published().documents());
            assertTrue(r.lookup(first.get(3).cnpj()).isPresent());
        }
    }

    @Test
    void verificationRefusesAGenerationHoldingADocumentThatWasNotAdded(@TempDir Path root) throws IOException {
        List<Establishment> first = rows(1, 500);
        build(root, first, "first");
        Establishment stranger = rows(99, 1).get(0);
        changeBeforeVerify(w -> {
            try {
                w.addDocument(
                        Schema.document(stranger, new RecordCodec(SyntheticRegister.lookups()).encode(stranger, 1)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> build(root, rows(2, 400), "second"));
        assertTrue(
                e.getMessage().contains("holds 401 documents after commit, expected 400; not published"),
                e.getMessage());
        assertNothingPublishedOver(root, first);
    }

    @Test
    void verificationRefusesAGenerationWhoseRecordsDifferFromTheOnesAdded(@TempDir Path root) throws IOException {
        List<Establishment> first = rows(1, 500);
        build(root, first, "first");
        List<Establishment> second = rows(2, 400);
        Establishment replaced = second.get(7);
        Establishment stranger = rows(99, 1).get(0);
        // The same number of documents, one of them not the one that was added: only the checksum can tell.
        changeBeforeVerify(w -> {
            try {
                w.deleteDocuments(org.apache.lucene.document.NumericDocValuesField.newSlowExactQuery(
                        Schema.CNPJ_KEY, Schema.cnpjKey(replaced.cnpj().value())));
                w.addDocument(
                        Schema.document(stranger, new RecordCodec(SyntheticRegister.lookups()).encode(stranger, 8)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> build(root, second, "second"));
        assertTrue(e.getMessage().contains("fails its content checksum"), e.getMessage());
        assertTrue(e.getMessage().endsWith("not published"), e.getMessage());
        assertNothingPublishedOver(root, first);
    }

    @Test
    void aCrashBetweenMovingTheGenerationAndSwitchingCurrentKeepsServingThePreviousOne(
            @TempDir Path root, @TempDir Path work) throws Exception {
        List<Establishment> first = rows(1, 500);
        build(root, first, "first");
        Path log = work.resolve("child.log");
        Process child = startHaltingBuild(root, log);
        assertTrue(child.waitFor(3, TimeUnit.MINUTES), "the child build ends");
        String output = Files.readString(log);
        assertEquals(CrashBeforePoint.HALTED, child.exitValue(), "the child halts at the step: " + output);
        assertTrue(output.contains("halting after moving " + root.resolve("gen-2")), output);

        // The on-disk state of that crash: the new generation in place, CURRENT still naming the old one.
        assertTrue(Files.exists(root.resolve("gen-2").resolve("generation.properties")), "gen-2 was moved into place");
        assertEquals("gen-1", current(root));
        List<Establishment> second = CrashBeforePoint.rows();
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            assertEquals(1, r.published().generation(), "the previous generation is what serves");
            assertEquals(first.size(), r.published().documents());
            assertTrue(r.lookup(first.get(3).cnpj()).isPresent());
            Establishment onlyInSecond = second.stream()
                    .filter(e -> first.stream().noneMatch(f -> f.cnpj().equals(e.cnpj())))
                    .findFirst()
                    .orElseThrow();
            assertTrue(r.lookup(onlyInSecond.cnpj()).isEmpty(), "nothing of the unpointed generation is served");
        }

        // The crash released the build lock, and the next build takes a number never used.
        PublishedIndex next = build(root, rows(3, 300), "after the crash");
        assertEquals(3, next.generation());
        assertEquals("gen-3", current(root));
        try (LuceneRegister r = LuceneRegister.open(root, NO_TIMER)) {
            assertEquals(300, r.published().documents());
        }
    }

    private static Process startHaltingBuild(Path root, Path log) throws IOException {
        String modulePath = System.getProperty("jdk.module.path");
        assertNotNull(modulePath, "tests run on the module path");
        Path testClasses = Path.of("target", "test-classes").toAbsolutePath();
        assertTrue(Files.isDirectory(testClasses), testClasses.toString());
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "--module-path",
                modulePath,
                "--patch-module",
                "dev.cadastro.register=" + testClasses,
                "-m",
                "dev.cadastro.register/" + CrashBeforePoint.class.getName(),
                root.toString());
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}
