package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** How many segments {@code ./cadastro load} leaves in a new generation: four unless told otherwise. */
class LoadSegmentsTest {
    private static LoadCommand parsed(String... args) {
        LoadCommand command = new LoadCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void mergesIntoAtMostFourSegmentsByDefault() {
        assertEquals(4, parsed("--dump", "d", "--index", "i").maxSegments());
    }

    @Test
    void zeroKeepsTheSegmentsAsBuiltAndOneGivesTheGlobalOrder() {
        assertEquals(0, parsed("--dump", "d", "--index", "i", "--segments", "0").maxSegments());
        assertEquals(1, parsed("--dump", "d", "--index", "i", "--segments", "1").maxSegments());
    }

    @Test
    void outOfRangeIsAUsageErrorNamingTheOptionAndItsBounds() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        List.of("load", "--dump", "d", "--index", "i", "--segments", "2000"),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, message);
        assertTrue(message.contains("--segments 2000 must be between 0 and 1024"), message);
    }

    @Test
    void theHelpStatesTheDefault() {
        String help = new CommandLine(new LoadCommand()).getUsageMessage();
        assertTrue(help.contains("(default: 4)"), help);
    }
}
