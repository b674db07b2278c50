package dev.cadastro.core.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.ErrorCode;
import java.time.Instant;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class CallCursorsProperties {
    private final CallCursors cursors = new CallCursors(Keys.one());

    @Provide
    Arbitrary<CallPosition> positions() {
        // Microseconds from 1970 to 2100, and ids of the accepted alphabet and lengths.
        Arbitrary<Instant> at = Arbitraries.longs()
                .between(0, 4_102_444_800_000_000L)
                .map(us -> Instant.ofEpochSecond(us / 1_000_000L, (us % 1_000_000L) * 1_000L));
        Arbitrary<String> id = Arbitraries.strings()
                .withChars("ABCXYZabcxyz0123456789._-")
                .ofMinLength(1)
                .ofMaxLength(CallRecord.MAX_ID_LENGTH)
                .filter(CallRecord::validId);
        return Combinators.combine(at, id).as(CallPosition::new);
    }

    @Provide
    Arbitrary<CallFilter> filters() {
        Arbitrary<Optional<Instant>> t = Arbitraries.longs()
                .between(0, 4_000_000_000L)
                .map(Instant::ofEpochSecond)
                .optional();
        Arbitrary<Optional<String>> text = Arbitraries.strings().ofMaxLength(12).optional();
        return Combinators.combine(t, t, text, text, text).as(CallFilter::new);
    }

    @Property
    void decodesWhatItEncoded(
            @ForAll("positions") CallPosition position,
            @ForAll("filters") CallFilter filter,
            @ForAll @LongRange(min = 1, max = 1_000_000) long integration) {
        String cursor = cursors.encode(integration, filter, position);
        assertTrue(cursor.matches("[A-Za-z0-9_-]+"), cursor);
        assertEquals(position, cursors.decode(integration, filter, cursor));
    }

    @Property
    void refusesAnyChangedCharacter(
            @ForAll("positions") CallPosition position,
            @ForAll("filters") CallFilter filter,
            @ForAll @IntRange(min = 0, max = 10_000) int where,
            @ForAll @IntRange(min = 1, max = 63) int shift) {
        String cursor = cursors.encode(7, filter, position);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        int i = where % cursor.length();
        char other = alphabet.charAt((alphabet.indexOf(cursor.charAt(i)) + shift) % 64);
        String tampered = cursor.substring(0, i) + other + cursor.substring(i + 1);
        assertRefused(() -> cursors.decode(7, filter, tampered));
    }

    @Property
    void refusesAnyFlippedBit(
            @ForAll("positions") CallPosition position,
            @ForAll("filters") CallFilter filter,
            @ForAll @IntRange(min = 0, max = 100_000) int bit) {
        String cursor = cursors.encode(7, filter, position);
        byte[] bytes = java.util.Base64.getUrlDecoder().decode(cursor);
        int b = bit % (bytes.length * 8);
        bytes[b / 8] ^= (byte) (1 << (b % 8));
        String tampered = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        assertRefused(() -> cursors.decode(7, filter, tampered));
    }

    @Property
    void refusesEveryTruncation(
            @ForAll("positions") CallPosition position,
            @ForAll("filters") CallFilter filter,
            @ForAll @IntRange(min = 0, max = 10_000) int cut) {
        String cursor = cursors.encode(7, filter, position);
        String truncated = cursor.substring(0, cut % cursor.length());
        assertRefused(() -> cursors.decode(7, filter, truncated));
    }

    @Property
    void refusesAnotherIntegrationOrOtherFilters(
            @ForAll("positions") CallPosition position,
            @ForAll("filters") CallFilter filter,
            @ForAll("filters") CallFilter other) {
        String cursor = cursors.encode(7, filter, position);
        assertRefused(() -> cursors.decode(8, filter, cursor));
        if (!other.canonical().equals(filter.canonical())) {
            assertRefused(() -> cursors.decode(7, other, cursor));
        }
    }

    @Property(tries = 50)
    void keepsWorkingAfterRotationUntilTheKeyIsDropped(@ForAll("positions") CallPosition position) {
        String cursor = cursors.encode(7, CallFilter.NONE, position);
        CallCursors rotated = new CallCursors(Keys.ring("k2", Keys.key("k1", 1), Keys.key("k2", 2)));
        assertEquals(position, rotated.decode(7, CallFilter.NONE, cursor));
        CallCursors dropped = new CallCursors(Keys.ring("k2", Keys.key("k2", 2)));
        assertRefused(() -> dropped.decode(7, CallFilter.NONE, cursor));
    }

    private static void assertRefused(org.junit.jupiter.api.function.Executable decode) {
        CallParameterException e = assertThrows(CallParameterException.class, decode);
        assertEquals(ErrorCode.PARAMETRO_INVALIDO_LIGACOES, e.code());
        assertEquals("cursor", e.parameter());
        assertTrue(e.getMessage().startsWith("cursor "), e.getMessage());
    }
}
