package dev.cadastro.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** The byte-level parsers against the JDK's own as reference. */
class ValuesProperties {
    @Provide
    Arbitrary<String> eightDigits() {
        return Arbitraries.oneOf(
                Arbitraries.strings().numeric().ofLength(8),
                Arbitraries.integers().between(18_500_101, 21_001_231).map(String::valueOf));
    }

    @Property(tries = 3000)
    void readsAnEightDigitDateExactlyWhenTheCalendarHasIt(@ForAll("eightDigits") String text) {
        int expected;
        try {
            LocalDate d = LocalDate.of(
                    Integer.parseInt(text.substring(0, 4)),
                    Integer.parseInt(text.substring(4, 6)),
                    Integer.parseInt(text.substring(6)));
            expected = d.getYear() >= Values.MIN_YEAR && d.getYear() <= Values.MAX_YEAR
                    ? (int) d.toEpochDay()
                    : Values.NO_DATE;
        } catch (DateTimeException e) {
            expected = Values.NO_DATE;
        }
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        assertEquals(expected, Values.epochDay(b, 0, b.length), text);
    }

    @Property(tries = 2000)
    void readsCapitalWithADecimalCommaAsBigDecimalWould(
            @ForAll @LongRange(min = 0, max = 999_999_999_998L) long reais,
            @ForAll @IntRange(min = 0, max = 99) int cents) {
        String text = reais + "," + (cents < 10 ? "0" : "") + cents;
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        long expected = new BigDecimal(text.replace(',', '.')).movePointRight(2).longValueExact();
        assertEquals(expected, Values.capitalCentavos(b, 0, b.length), text);
    }
}
