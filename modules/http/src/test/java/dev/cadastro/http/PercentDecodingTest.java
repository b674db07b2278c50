package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PercentDecodingTest {

    @Test
    void keepsTextAHostAlreadyDecodedWhateverItsLength() {
        // Each char above U+007F takes two or more bytes: the buffer once overflowed on what followed.
        assertEquals("São Paulo", PercentDecoding.decode("municipios", "São+Paulo", true));
        assertEquals("ÃÃÃÃÃÃ plain tail", PercentDecoding.decode("m", "ÃÃÃÃÃÃ+plain+tail", true));
        assertEquals("€ and 😀 and %", PercentDecoding.decode("m", "€ and 😀 and %25", false));
    }

    @Test
    void rejectsALoneSurrogateAndNonAsciiHexDigits() {
        assertThrows(InvalidParameterException.class, () -> PercentDecoding.decode("m", "a\uD800b", false));
        // Character.digit reads fullwidth digits as hex digits; a percent-escape takes ASCII only.
        assertThrows(InvalidParameterException.class, () -> PercentDecoding.decode("m", "%\uFF11\uFF12", false));
    }

    @Test
    void decodesUtf8AndPlusAsSpaceInQueries() {
        assertEquals("São Paulo", PercentDecoding.decode("municipios", "S%C3%A3o+Paulo", true));
        assertEquals("a+b", PercentDecoding.decode("cnpj", "a+b", false));
        assertEquals("12.345.678/0001-95", PercentDecoding.decode("cnpj", "12.345.678%2F0001-95", false));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "%C3%28", // invalid continuation byte
                "%C3", // truncated sequence
                "%E0%80%80", // overlong encoding
                "%ED%A0%80", // UTF-16 surrogate encoded in UTF-8
                "%FF",
                "%C0%AF" // overlong '/'
            })
    void rejectsMalformedUtf8(String raw) {
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> PercentDecoding.decode("ufs", raw, true));
        assertEquals(ErrorCode.PARAMETRO_INVALIDO, e.code());
        assertEquals("ufs", e.violation().field());
        assertEquals("utf-8", e.violation().rule());
    }

    @ParameterizedTest
    @ValueSource(strings = {"%", "%Z1", "%1", "abc%", "%g0"})
    void rejectsPercentNotFollowedByTwoHexDigits(String raw) {
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> PercentDecoding.decode("bairros", raw, true));
        assertEquals("percent-encoding", e.violation().rule());
        assertTrue(e.getMessage().startsWith("bairros "), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"%00", "a%0Ab", "%7F", "%0D"})
    void rejectsControlCharacters(String raw) {
        InvalidParameterException e =
                assertThrows(InvalidParameterException.class, () -> PercentDecoding.decode("cnaes", raw, true));
        assertEquals("control-character", e.violation().rule());
    }
}
