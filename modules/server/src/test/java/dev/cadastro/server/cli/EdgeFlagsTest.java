package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.jetty.RuntimeOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

/** The edge flags of serve and demo: their defaults are the runtime's, and each reaches its knob. */
class EdgeFlagsTest {
    @Command(name = "edge")
    static final class Holder {
        @Mixin
        EdgeFlags edge;
    }

    private static RuntimeOptions parse(String... args) {
        Holder holder = new Holder();
        CommandLine line = new CommandLine(holder);
        line.parseArgs(args);
        return holder.edge.options(Duration.ofSeconds(3), m -> new ParameterException(line, m));
    }

    @Test
    void theDefaultsAreTheRuntimes() {
        RuntimeOptions parsed = parse();
        RuntimeOptions defaults = RuntimeOptions.defaults().toBuilder()
                .drain(Duration.ofSeconds(3))
                .build();
        assertEquals(defaults.toString(), parsed.toString());
    }

    @Test
    void eachFlagReachesItsKnob() {
        RuntimeOptions o = parse(
                "--max-connections", "100",
                "--max-connections-per-address", "7",
                "--idle-timeout-seconds", "11",
                "--head-timeout-seconds", "2",
                "--body-timeout-seconds", "9",
                "--max-body-bytes", "2048");
        assertEquals(100, o.maxConnections());
        assertEquals(7, o.maxConnectionsPerAddress());
        assertEquals(Duration.ofSeconds(11), o.idleTimeout());
        assertEquals(Duration.ofSeconds(2), o.headTimeout());
        assertEquals(Duration.ofSeconds(9), o.bodyTimeout());
        assertEquals(2048, o.limits().maxBodyBytes());
    }

    @Test
    void aValueOutOfRangeIsAUsageErrorNamingTheFlag() {
        ParameterException e = assertThrows(ParameterException.class, () -> parse("--head-timeout-seconds", "0"));
        assertTrue(e.getMessage().contains("--head-timeout-seconds 0"), e.getMessage());
    }
}
