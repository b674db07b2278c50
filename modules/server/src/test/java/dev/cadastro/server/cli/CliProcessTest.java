package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.server.cli.CliRuns.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a separate {@code java} process, as the launcher runs it: exit codes and bytes. */
class CliProcessTest {
    @TempDir
    static Path tmp;

    private static String index;

    @BeforeAll
    static void buildASmallIndex() {
        Run generated = CliRuns.inProcess(
                "generate", "--out", tmp.resolve("dump").toString(), "--establishments", "1_500", "--seed", "11");
        assertEquals(0, generated.status(), generated.err());
        index = tmp.resolve("index").toString();
        Run loaded = CliRuns.inProcess("load", "--dump", tmp.resolve("dump").toString(), "--index", index);
        assertEquals(0, loaded.status(), loaded.err());
    }

    @Test
    void exitStatusIsZeroOneTwoOrThreeAsDocumented() throws Exception {
        Run version = CliRuns.process("--version");
        assertEquals(0, version.status(), version.err());
        assertTrue(version.out().startsWith("cadastro "), version.out());

        assertEquals(1, CliRuns.process("validate", "123").status());
        Run usage = CliRuns.process("frobnicate");
        assertEquals(2, usage.status());
        assertEquals(1, usage.err().lines().count(), usage.err());

        Path empty = Files.createDirectories(tmp.resolve("empty-home"));
        Run failure = CliRuns.process("admin", "list-accounts", "--home", empty.toString());
        assertEquals(3, failure.status(), failure.err());
        assertEquals("", failure.out());
        assertEquals(1, failure.err().lines().count(), failure.err());
        try (var files = Files.list(empty)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void rawUtf8InTheQueryIsReadAsTheServerReadsIt() {
        Run accented = CliRuns.process("search", "--index", index, "municipios=Não Existe Aqui&apenas_total=true");
        assertEquals(2, accented.status(), accented.err());
        // The name comes back intact: decoded as UTF-8, not as Latin-1 ('NÃ£o').
        assertTrue(accented.err().contains("'Não Existe Aqui' is not a known municipality"), accented.err());

        Run counted = CliRuns.process("search", "--index", index, "ufs=SP&apenas_total=true");
        assertEquals(0, counted.status(), counted.err());
        // Quiet by default: not even Lucene's advice about the Vector API.
        assertEquals("", counted.err());
        Run informed = CliRuns.process("search", "--log", "info", "--index", index, "ufs=SP&apenas_total=true");
        assertEquals(0, informed.status(), informed.err());
        assertTrue(informed.err().contains("jdk.incubator.vector"), informed.err());
    }

    @Test
    void bytesThatAreNotUtf8AreAUsageErrorNamingTheParameter() {
        // The shell hands the JVM the byte 0xE9 (Latin-1 'é'), which is not UTF-8 on its own.
        List<String> command =
                new ArrayList<>(List.of("sh", "-c", "exec \"$@\" \"$(printf 'municipios=S\\351o')\"", "sh"));
        command.addAll(CliRuns.javaCommand(List.of("search", "--index", index)));
        Run run = CliRuns.process(command);
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("municipios is not well-formed UTF-8"), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }
}
