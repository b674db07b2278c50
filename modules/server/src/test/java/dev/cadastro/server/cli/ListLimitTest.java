package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The listings' one {@code --limit}: each keeps its own default, and its own most, named when exceeded. */
class ListLimitTest {
    @Test
    void eachListingKeepsItsOwnDefault() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        CommandLine admin =
                Cli.standard().commandLine(quiet, quiet).getSubcommands().get("admin");
        Map<String, String> defaults = Map.of(
                "statement", "50",
                "audit", "100000",
                "jobs", "50",
                "sms-inbox", "10");
        defaults.forEach((listing, expected) -> assertEquals(
                expected,
                admin.getSubcommands()
                        .get(listing)
                        .getCommandSpec()
                        .findOption("--limit")
                        .defaultValueString(),
                listing));
        CommandLine deliveries =
                admin.getSubcommands().get("calls-push").getSubcommands().get("deliveries");
        assertEquals("50", deliveries.getCommandSpec().findOption("--limit").defaultValueString());
    }

    @Command(name = "listing")
    static final class Listing implements Runnable {
        @Mixin
        ListLimit limit = new ListLimit(50, 10_000);

        int value;

        @Override
        public void run() {
            value = limit.value();
        }
    }

    @Test
    void aLimitOutsideOneToTheMostIsAUsageErrorNamingTheRange() {
        Listing byDefault = new Listing();
        assertEquals(0, new CommandLine(byDefault).execute());
        assertEquals(50, byDefault.value);

        Listing most = new Listing();
        assertEquals(0, new CommandLine(most).execute("--limit", "10000"));
        assertEquals(10_000, most.value);

        for (String bad : new String[] {"0", "10001"}) {
            StringWriter err = new StringWriter();
            CommandLine cli = new CommandLine(new Listing());
            cli.setErr(new PrintWriter(err));
            assertEquals(2, cli.execute("--limit", bad), bad);
            assertTrue(err.toString().contains("--limit " + bad + " must be between 1 and 10000"), err.toString());
        }
    }
}
