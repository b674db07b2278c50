package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DddTest {

    /** Anatel's 67 area codes in service. */
    private static final int[] IN_SERVICE = {
        11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46,
        47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85,
        86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99
    };

    @Test
    void knowsExactlyTheAreaCodesInService() {
        assertEquals(67, IN_SERVICE.length);
        assertArrayEquals(IN_SERVICE, Ddd.all());
        for (int code = -1; code <= 100; code++) {
            int c = code;
            boolean expected = IntStream.of(IN_SERVICE).anyMatch(x -> x == c);
            assertEquals(expected, Ddd.isValid(code), "ddd " + code);
        }
    }

    @Test
    void rejectsUnassignedCodes() {
        for (int code : new int[] {10, 20, 23, 25, 26, 29, 30, 36, 39, 40, 50, 52, 56, 60, 70, 72, 76, 78, 80, 90}) {
            assertFalse(Ddd.isValid(code), "ddd " + code);
        }
    }

    @Test
    void namesTheStateEachCodeServes() {
        assertEquals("SP", Ddd.uf(11));
        assertEquals("RJ", Ddd.uf(21));
        assertEquals("DF", Ddd.uf(61));
        assertEquals("RS", Ddd.uf(55));
        assertEquals("AM", Ddd.uf(97));
        assertEquals("MA", Ddd.uf(99));
        assertTrue(Ddd.isValid(99));
        assertThrows(IllegalArgumentException.class, () -> Ddd.uf(20));
    }
}
