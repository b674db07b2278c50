package dev.cadastro.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The runtime's options are validated when built, and their messages name the knob. */
class RuntimeOptionsTest {
    @Test
    void rejectsRuntimeOptionsOutOfRangeNamingTheKnob() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> RuntimeOptions.builder()
                        .headTimeout(Duration.ofMillis(10))
                        .build());
        assertTrue(e.getMessage().contains("headTimeout"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> RuntimeOptions.builder().maxConnectionsPerAddress(0).build());
        assertTrue(e.getMessage().contains("maxConnectionsPerAddress 0"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> RuntimeOptions.builder().maxConnections(0).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> RuntimeOptions.builder().backlog(0).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> RuntimeOptions.builder().stopGrace(Duration.ofSeconds(-1)).build());
    }

    @Test
    void copiesThroughToBuilder() {
        RuntimeOptions o = RuntimeOptions.builder()
                .maxConnections(10)
                .bodyTimeout(Duration.ofSeconds(3))
                .build();
        assertEquals(10, o.maxConnections());
        assertEquals(o.toString(), o.toBuilder().build().toString());
    }
}
