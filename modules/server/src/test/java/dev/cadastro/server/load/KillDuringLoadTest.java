package dev.cadastro.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.testing.DumpFixture;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.server.DumpLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A loader killed at a random moment (a real child JVM, destroyed forcibly) never damages the
 * published index: it still opens, with its full count, and answers lookups; a later load then
 * publishes normally.
 */
class KillDuringLoadTest {
    @TempDir
    Path tmp;

    private Process startLoad(Path dump, Path index, int attempt) throws IOException {
        String modulePath = System.getProperty("jdk.module.path");
        assertNotNull(modulePath, "tests run on the module path");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "--enable-native-access=ALL-UNNAMED",
                "--module-path",
                modulePath,
                "--add-modules",
                "ALL-MODULE-PATH",
                "-m",
                "dev.cadastro.server/dev.cadastro.server.internal.LoadMain",
                dump.toString(),
                index.toString(),
                tmp.resolve("rejects-" + attempt + ".tsv").toString()));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("child-" + attempt + ".log").toFile())
                .start();
    }

    @Test
    void killingTheLoaderAtRandomMomentsLeavesThePublishedIndexIntact() throws Exception {
        Path index = tmp.resolve("index");
        GeneratedDump first = DumpGenerator.generate(
                tmp.resolve("first"), GeneratorOptions.builder(5_000).seed(1).build());
        DumpLoader.load(
                DumpFixture.options(first.dir(), tmp).build(),
                index,
                BuildOptions.builder().ramBufferMb(32).indexingThreads(1).build());
        Cnpj known = firstCnpj(first);
        GeneratedDump second = DumpGenerator.generate(
                tmp.resolve("second"), GeneratorOptions.builder(30_000).seed(2).build());

        // How long a whole child load takes here, so kills land anywhere in it (start-up, read, merge, publish).
        long t0 = System.nanoTime();
        Process timing = startLoad(second.dir(), tmp.resolve("timing-index"), 0);
        assertTrue(timing.waitFor(5, TimeUnit.MINUTES), "a child load finishes");
        assertEquals(0, timing.exitValue(), "the child load succeeds when left alone");
        long fullMillis = (System.nanoTime() - t0) / 1_000_000;

        SplittableRandom random = new SplittableRandom(20261120);
        int published = 0;
        for (int attempt = 1; attempt <= 6; attempt++) {
            long generationBefore;
            long documentsBefore;
            try (LuceneRegister register = LuceneRegister.open(index)) {
                generationBefore = register.published().generation();
                documentsBefore = register.published().documents();
            }
            Process child = startLoad(second.dir(), index, attempt);
            long delay = random.nextLong(Math.max(1, fullMillis));
            boolean exited = child.waitFor(delay, TimeUnit.MILLISECONDS);
            if (!exited) {
                child.destroyForcibly();
                child.waitFor(1, TimeUnit.MINUTES);
            }
            try (LuceneRegister register = LuceneRegister.open(index)) {
                if (register.published().generation() != generationBefore) {
                    // The child published before the kill: the new generation is complete.
                    published++;
                    assertEquals(
                            second.establishments(),
                            register.published().documents(),
                            "attempt " + attempt + " after " + delay + " ms");
                } else {
                    // Killed before publishing: the generation published before is untouched.
                    assertEquals(documentsBefore, register.published().documents(), "attempt " + attempt);
                    if (documentsBefore == first.establishments()) {
                        assertTrue(register.lookup(known).isPresent(), "the previous index answers lookups");
                    }
                }
            }
        }
        Process last = startLoad(second.dir(), index, 99);
        assertTrue(last.waitFor(5, TimeUnit.MINUTES));
        assertEquals(0, last.exitValue(), "a load after the kills publishes");
        try (LuceneRegister register = LuceneRegister.open(index)) {
            assertEquals(second.establishments(), register.published().documents());
        }
        assertTrue(published < 6, "at least one kill landed before publication");
    }

    private static Cnpj firstCnpj(GeneratedDump dump) throws IOException {
        try (var zip = new java.util.zip.ZipFile(
                dump.dir().resolve("Estabelecimentos0.zip").toFile())) {
            var entry = zip.entries().nextElement();
            try (var in = zip.getInputStream(entry)) {
                String line = new String(in.readNBytes(64), java.nio.charset.StandardCharsets.ISO_8859_1);
                String[] f = line.split(";");
                return Cnpj.of(f[0].replace("\"", "") + f[1].replace("\"", "") + f[2].replace("\"", ""));
            }
        }
    }
}
