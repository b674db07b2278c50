package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Limits are validated when built, and their messages name the knob. */
class OptionsTest {

    @Test
    void rejectsLimitsBelowTheirMinimumNamingTheKnob() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Limits.builder().maxUriLength(10).build());
        assertTrue(e.getMessage().contains("maxUriLength 10"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Limits.builder().maxHeaderBytes(100).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> Limits.builder().maxHeaderCount(2).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> Limits.builder().maxBodyBytes(-1).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> Limits.builder().maxQueryParameters(0).build());
    }

    @Test
    void keepsWhatWasBuiltAndCopiesThroughToBuilder() {
        Limits l = Limits.builder().maxUriLength(4096).maxBodyBytes(0).build();
        assertEquals(4096, l.maxUriLength());
        assertEquals(0, l.maxBodyBytes());
        assertEquals(l.toString(), l.toBuilder().build().toString());
    }
}
