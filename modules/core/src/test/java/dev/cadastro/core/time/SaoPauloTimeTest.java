package dev.cadastro.core.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;

class SaoPauloTimeTest {

    @Test
    void writesTheSaoPauloWallClockWithItsOffsetToTheSecond() {
        assertEquals("2026-11-24T10:15:30-03:00", SaoPauloTime.format(Instant.parse("2026-11-24T13:15:30Z")));
    }

    @Test
    void cutsFractionsInsteadOfRoundingThem() {
        assertEquals("2026-11-24T10:15:30-03:00", SaoPauloTime.format(Instant.parse("2026-11-24T13:15:30.999999Z")));
    }

    @Test
    void keepsZeroSecondsSoEveryTimeHasTheSameWidth() {
        String midnight = SaoPauloTime.format(Instant.parse("2026-11-25T03:00:00Z"));
        assertEquals("2026-11-25T00:00:00-03:00", midnight);
        assertEquals(SaoPauloTime.WIDTH, midnight.length());
    }

    @Test
    void anOldSummerInstantIsWrittenAtTheContractsFixedOffsetAsTheSameMoment() {
        // São Paulo's clocks showed 10:00 (-02:00) then; the contract's pattern is -03:00.
        Instant summer2018 = Instant.parse("2018-01-15T12:00:00Z");
        String text = SaoPauloTime.format(summer2018);
        assertEquals("2018-01-15T09:00:00-03:00", text);
        assertEquals(summer2018, OffsetDateTime.parse(text).toInstant());
    }

    @Test
    void everyTimeMatchesTheContractsPattern() {
        for (String t : java.util.List.of("2018-01-15T12:00:00Z", "2019-02-16T02:30:00Z", "2026-11-24T13:15:30Z")) {
            String text = SaoPauloTime.format(Instant.parse(t));
            assertTrue(text.matches("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}-03:00$"), text);
        }
    }

    @Test
    void parsesBackAsIso8601() {
        Instant t = Instant.parse("2026-03-10T15:00:07Z");
        assertEquals(t, OffsetDateTime.parse(SaoPauloTime.format(t)).toInstant());
    }
}
