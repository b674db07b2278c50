package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class PercentDecodingProperties {

    /** The JDK's form encoder is the reference: whatever it encodes, we decode back exactly. */
    @Property(tries = 2000)
    void decodesWhatTheJdkEncoderWrites(@ForAll String text) {
        Assume.that(text.chars().noneMatch(c -> c < 0x20 || c == 0x7f));
        Assume.that(isWellFormedUtf16(text));
        String encoded = URLEncoder.encode(text, StandardCharsets.UTF_8);
        assertEquals(text, PercentDecoding.decode("q", encoded, true));
    }

    private static boolean isWellFormedUtf16(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
