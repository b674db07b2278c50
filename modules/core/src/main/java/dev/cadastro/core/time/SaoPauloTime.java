package dev.cadastro.core.time;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Instants as the company-data API and the command line print them: ISO 8601 to the second with the
 * offset of America/Sao_Paulo, {@code 2026-11-24T10:15:30-03:00}. Brazil has had no daylight saving
 * since 2019, so the offset of any current instant is {@code -03:00}; an instant from an older summer
 * shows that summer's {@code -02:00}, which still names the same moment.
 *
 * <p>One format, fixed width (25 characters for years 0000 to 9999), so a client parses every time
 * field the same way and a table's columns line up. Fractions of a second are cut, not rounded, so a
 * time is never shown later than it happened. The call-records API keeps its own contract's format
 * ({@code YYYY-MM-DDTHH:MM:SS} in UTC-3, no offset) and does not use this class.
 */
public final class SaoPauloTime {
    /** The calendar of the product: "same day", "same month" and every time shown. */
    public static final ZoneId ZONE = ZoneId.of("America/Sao_Paulo");

    /** {@code uuuu-MM-dd'T'HH:mm:ssxxx} in {@link #ZONE}; format instants through {@link #format}. */
    public static final DateTimeFormatter FORMATTER =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxxx", Locale.ROOT).withZone(ZONE);

    /** The width of a formatted time, for table columns. */
    public static final int WIDTH = 25;

    private SaoPauloTime() {}

    /** The instant as {@code 2026-11-24T10:15:30-03:00}, cut to the second. */
    public static String format(Instant instant) {
        return FORMATTER.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
