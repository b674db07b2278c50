package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.server.cli.CliRuns.Run;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The command line as a whole, through {@link Cli#run}: help, version, mistakes, failures, logging. */
class CliTest {

    /** Every command and subcommand, as the words that select it, found by walking the model. */
    private static List<List<String>> allCommands() {
        CommandLine root = Cli.standard()
                .commandLine(
                        new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
        List<List<String>> found = new ArrayList<>();
        walk(root, List.of(), found);
        return found;
    }

    private static void walk(CommandLine cl, List<String> words, List<List<String>> found) {
        found.add(words);
        cl.getSubcommands().forEach((name, sub) -> {
            List<String> next = new ArrayList<>(words);
            next.add(name);
            walk(sub, next, found);
        });
    }

    @Test
    void everyCommandAndSubcommandAnswersBothHelpFlagsWithEveryOptionAndItsDefault() {
        CommandLine root = Cli.standard()
                .commandLine(
                        new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
        List<List<String>> commands = allCommands();
        assertTrue(commands.size() > 20, () -> "the walk found only " + commands);
        for (List<String> words : commands) {
            CommandLine cl = root;
            for (String w : words) {
                cl = cl.getSubcommands().get(w);
            }
            for (String flag : List.of("-h", "--help")) {
                List<String> args = new ArrayList<>(words);
                args.add(flag);
                Run run = CliRuns.inProcess(args);
                String where = String.join(" ", args);
                assertEquals(0, run.status(), () -> where + ": " + run.err());
                String qualified = String.join(" ", cl.getCommandSpec().qualifiedName());
                assertTrue(run.out().contains("Usage: " + qualified + " "), () -> where + ":\n" + run.out());
                for (OptionSpec option : cl.getCommandSpec().options()) {
                    assertTrue(
                            run.out().contains(option.longestName()), () -> where + " lacks " + option.longestName());
                    String defaultValue = option.defaultValue();
                    if (defaultValue != null && !defaultValue.isEmpty()) {
                        assertTrue(
                                run.out().replaceAll("\\s+", "").contains("default" + defaultValue),
                                () -> where + " does not show the default " + defaultValue + " of "
                                        + option.longestName() + ":\n" + run.out());
                    }
                }
            }
        }
    }

    @Test
    void helpListsEveryCommand() {
        Run run = CliRuns.inProcess("help");
        assertEquals(0, run.status());
        for (String name :
                List.of("validate", "generate", "load", "lookup", "search", "serve", "demo", "admin", "completion")) {
            assertTrue(run.out().contains("  " + name + " "), () -> name + " missing from\n" + run.out());
        }
    }

    @Test
    void versionNamesTheBuildAndTheRuntime() {
        Run run = CliRuns.inProcess("--version");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().matches("(?s)cadastro \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\RJava \\d+.*"), run.out());
    }

    @Test
    void aMistypedCommandOrOptionGetsTheNearestSuggestion() {
        Run command = CliRuns.inProcess("serv", "--index", "x");
        assertEquals(2, command.status());
        assertTrue(command.err().contains("unknown command 'serv'; did you mean serve?"), command.err());
        Run option = CliRuns.inProcess("serve", "--idnex", "x");
        assertEquals(2, option.status());
        assertTrue(option.err().contains("unknown option '--idnex'; did you mean --index?"), option.err());
        Run sub = CliRuns.inProcess("admin", "lst-keys");
        assertEquals(2, sub.status());
        assertTrue(sub.err().contains("did you mean list-keys?"), sub.err());
        for (Run r : List.of(command, option, sub)) {
            assertEquals(1, r.err().lines().count(), r.err());
        }
    }

    @Test
    void withoutACommandTheListGoesToTheErrorStreamAsAUsageError() {
        Run run = CliRuns.inProcess();
        assertEquals(2, run.status());
        assertTrue(run.err().contains("Commands:") && run.err().contains("admin"), run.err());
        assertEquals("", run.out());
    }

    @Test
    void aFailureIsOneLineWithoutClassNamesAndVerboseAddsTheTrace(@TempDir Path empty) throws Exception {
        Path notAnIndex = Files.createDirectories(empty.resolve("not-an-index"));
        Run run = CliRuns.inProcess("lookup", "--index", notAnIndex.toString(), "11222333000181");
        assertEquals(3, run.status(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("cadastro lookup: "), run.err());
        assertFalse(run.err().matches("(?s).*\\b(java|dev|org)\\.[a-z.]+[A-Z]\\w*(Exception|Error).*"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());

        Run verbose = CliRuns.inProcess("lookup", "--verbose", "--index", notAnIndex.toString(), "11222333000181");
        assertEquals(3, verbose.status());
        assertTrue(verbose.err().contains("\tat "), verbose.err());
    }

    @Test
    void aWrappedMessageLosesItsClassNamePrefix() {
        var e = new java.io.UncheckedIOException(new java.io.IOException("No space left on device"));
        assertEquals("No space left on device", Cli.oneLine(e));
        assertEquals(
                "account 99 does not exist",
                Cli.oneLine(
                        new RuntimeException("dev.cadastro.core.error.NotFoundException: account 99 does not exist")));
    }

    @Test
    void wholeNumbersFollowOneRuleInEveryCommand() {
        assertEquals(1_000_000L, WholeNumber.parse("1_000_000"));
        assertEquals(-5L, WholeNumber.parse("-5"));
        assertEquals(5L, WholeNumber.parse("0005"));
        for (String bad : List.of("+5", "0x10", "#10", " 5", "5 ", "1__0", "_1", "1_", "1e3", "", "٣")) {
            Run run = CliRuns.inProcess("generate", "--out", "never-written", "--establishments", bad);
            assertEquals(2, run.status(), bad);
            assertTrue(run.err().contains("is not a whole number"), () -> bad + ": " + run.err());
            Run port = CliRuns.inProcess("demo", "--port", bad);
            assertEquals(2, port.status(), bad);
            assertTrue(port.err().contains("is not a whole number"), () -> bad + ": " + port.err());
        }
        assertFalse(Files.exists(Path.of("never-written")));
    }

    @Test
    void completionPrintsABashScriptCoveringSubcommandsAndFlags() {
        Run run = CliRuns.inProcess("completion");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("complete -F _complete_cadastro"), run.out());
        assertTrue(run.out().contains("list-keys") && run.out().contains("--embedded-db"), "admin covered");
    }

    @Test
    void librariesLogWarningsOnlyUnlessLogSaysOtherwise() {
        assertEquals(
                0, CliRuns.inProcess("validate", "52998224725", "--log", "info").status());
        assertEquals(Level.INFO, Logger.getLogger("").getLevel());
        assertEquals(
                0,
                CliRuns.inProcess("--log", "debug", "validate", "52998224725").status());
        assertEquals(Level.FINE, Logger.getLogger("").getLevel());
        assertEquals(0, CliRuns.inProcess("validate", "52998224725").status());
        assertEquals(Level.WARNING, Logger.getLogger("").getLevel());
        Run bad = CliRuns.inProcess("validate", "52998224725", "--log", "loud");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("warning, info, debug"), bad.err());
    }
}
