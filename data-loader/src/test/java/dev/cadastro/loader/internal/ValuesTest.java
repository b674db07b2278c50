package dev.cadastro.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValuesTest {
    private static int day(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return Values.epochDay(b, 0, b.length);
    }

    private static long capital(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return Values.capitalCentavos(b, 0, b.length);
    }

    @Test
    void readsYyyymmddDates() {
        assertEquals(LocalDate.of(1967, 6, 30).toEpochDay(), day("19670630"));
        assertEquals(LocalDate.of(2024, 2, 29).toEpochDay(), day("20240229"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "00000000", "2021221", "02020315", "41000101", "20230229", "20231301", "2023013A"})
    void treatsEmptyAndInvalidDatesAsAbsent(String text) {
        assertEquals(Values.NO_DATE, day(text));
    }

    @Test
    void readsCapitalWithADecimalCommaIntoCentavos() {
        assertEquals(106_100_482_923L, capital("1061004829,23"));
        assertEquals(0, capital("0,00"));
        assertEquals(150_000, capital("1500"));
        assertEquals(150_050, capital("1500,5"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"999999999999", "999999999999,00", "", "1.500,00", "abc", ",50", "12,345"})
    void treatsThePlaceholderAndMalformedCapitalAsAbsent(String text) {
        assertEquals(Values.NO_CAPITAL, capital(text));
    }
}
