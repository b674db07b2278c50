package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadersTest {

    @Test
    void comparesNamesCaseInsensitively() {
        Headers h = Headers.copyOf(Map.of("x-api-key", List.of("k1")));
        assertEquals("k1", h.first("X-API-Key").orElseThrow());
        assertTrue(h.contains("X-Api-Key"));
        assertFalse(h.contains("Authorization"));
    }

    @Test
    void keepsTheOrderOfRepeatedValues() {
        Headers h = Headers.builder().add("Via", "a").add("via", "b").build();
        assertEquals(List.of("a", "b"), h.all("VIA"));
        assertEquals(2, h.lineCount());
    }

    @Test
    void replacesAFieldWhenMergedAndKeepsTheOthers() {
        Headers h = Headers.of("A", "1", "B", "2").with("a", "3");
        assertEquals(List.of("3"), h.all("A"));
        assertEquals(List.of("2"), h.all("B"));
    }

    @Test
    void refusesHeaderInjectionAndNamesThatAreNotTokens() {
        assertThrows(IllegalArgumentException.class, () -> Headers.of("X-A", "v\r\nSet-Cookie: x"));
        assertThrows(IllegalArgumentException.class, () -> Headers.of("X A", "v"));
        assertThrows(IllegalArgumentException.class, () -> Headers.of("", "v"));
        assertThrows(IllegalArgumentException.class, () -> Headers.of("X-A"));
    }

    @Test
    void measuresTheWireSizeOfItsFields() {
        assertEquals(
                "Ab: cd\r\n".length() * 2L, Headers.of("Ab", "cd", "Ef", "gh").wireSize());
    }
}
