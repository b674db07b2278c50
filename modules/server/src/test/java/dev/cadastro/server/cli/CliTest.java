package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Cli.standard()
                .run(
                        List.of(args),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void helpAfterACommandPrintsItsUsageAndSucceeds() {
        assertEquals(0, run("generate", "--help"));
        assertTrue(
                out.toString(StandardCharsets.UTF_8).startsWith("usage: ./cadastro generate --out DIR"), out::toString);
    }

    @Test
    void helpListsEveryCommand() {
        assertEquals(0, run("help"));
        String listing = out.toString(StandardCharsets.UTF_8);
        for (String name : List.of("validate", "generate", "load", "lookup", "search", "serve", "demo", "admin")) {
            assertTrue(listing.contains("  " + name + " "), () -> name + " missing from\n" + listing);
        }
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertEquals(2, run("frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'frobnicate'"));
    }
}
