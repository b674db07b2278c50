package dev.cadastro.core.time;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Instants as the company-data API and the command line print them: ISO 8601 to the second with the
 * fixed offset {@code -03:00}, {@code 2026-11-24T10:15:30-03:00}, as the API's contract says (its
 * OpenAPI patterns end in {@code -03:00}). Brazil has had no daylight saving since 2019, so this is
 * São Paulo's wall clock for any current instant; an instant from an older summer is written at
 * {@code -03:00} too, one hour behind that summer's wall clock, and still names the same moment.
 * {@link #ZONE} stays the calendar for "same day" and "same month".
 *
 * <p>One format, fixed width (25 characters for years 0000 to 9999), so a client parses every time
 * field the same way and a table's columns line up. Fractions of a second are cut, not rounded, so a
 * time is never shown later than it happened. The call-records API keeps its own contract's format
 * ({@code YYYY-MM-DDTHH:MM:SS} in UTC-3, no offset) and does not use this class.
 */
public final class SaoPauloTime {
    /** The calendar of the product: "same day", "same month" and every time shown. */
    public static final ZoneId ZONE = ZoneId.of("America/Sao_Paulo");

    /** The offset every time is written with: {@code -03:00}, the contract's. */
    public static final ZoneOffset OFFSET = ZoneOffset.ofHours(-3);

    /** {@code uuuu-MM-dd'T'HH:mm:ssxxx} at {@link #OFFSET}; format instants through {@link #format}. */
    public static final DateTimeFormatter FORMATTER =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxxx", Locale.ROOT).withZone(OFFSET);

    /** The width of a formatted time, for table columns. */
    public static final int WIDTH = 25;

    private SaoPauloTime() {}

    /** The instant as {@code 2026-11-24T10:15:30-03:00}, cut to the second. */
    public static String format(Instant instant) {
        return FORMATTER.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
