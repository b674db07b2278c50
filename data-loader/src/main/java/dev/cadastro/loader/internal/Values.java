package dev.cadastro.loader.internal;

import java.time.LocalDate;

/**
 * Parses the dump's typed values straight from the record bytes: dates ({@code YYYYMMDD}), the share
 * capital (decimal comma) and codes. Each returns a sentinel for "empty or invalid" rather than
 * throwing: a bad value never costs the row, it becomes null in the record.
 */
public final class Values {
    /** Epoch day meaning "no date". */
    public static final int NO_DATE = Integer.MIN_VALUE;
    /** Centavos meaning "no capital". */
    public static final long NO_CAPITAL = Long.MIN_VALUE;

    /** The earliest year accepted in a date; older ones (0202, 1011) are typing errors. */
    public static final int MIN_YEAR = 1850;
    /** The latest year accepted in a date; later ones (4100) are typing errors. */
    public static final int MAX_YEAR = 2100;

    private static final long PLACEHOLDER_CAPITAL_REAIS = 999_999_999_999L;

    private Values() {}

    /**
     * The epoch day of an 8-digit {@code YYYYMMDD} date, or {@link #NO_DATE} when the field is empty,
     * {@code 0}, {@code 00000000}, not 8 digits, not a calendar date, or outside {@link #MIN_YEAR} to
     * {@link #MAX_YEAR}.
     */
    public static int epochDay(byte[] b, int s, int len) {
        if (len != 8) {
            return NO_DATE;
        }
        int v = 0;
        for (int i = 0; i < 8; i++) {
            int d = b[s + i] - '0';
            if (d < 0 || d > 9) {
                return NO_DATE;
            }
            v = v * 10 + d;
        }
        int year = v / 10000;
        int month = (v / 100) % 100;
        int day = v % 100;
        if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) {
            return NO_DATE;
        }
        if (day > lengthOfMonth(year, month)) {
            return NO_DATE;
        }
        return (int) LocalDate.of(year, month, day).toEpochDay();
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** True for the three spellings of "no date": {@code ""}, {@code "0"} and {@code "00000000"}. */
    public static boolean isEmptyDate(byte[] b, int s, int len) {
        if (len != 0 && len != 1 && len != 8) {
            return false;
        }
        for (int i = s; i < s + len; i++) {
            if (b[i] != '0') {
                return false;
            }
        }
        return true;
    }

    /** The date of an epoch day, or null for {@link #NO_DATE}. */
    public static LocalDate date(int epochDay) {
        return epochDay == NO_DATE ? null : LocalDate.ofEpochDay(epochDay);
    }

    /**
     * Share capital in centavos: digits, an optional decimal comma (or point) with up to two decimals.
     * {@link #NO_CAPITAL} when empty, malformed, or the placeholder {@code 999999999999}.
     */
    public static long capitalCentavos(byte[] b, int s, int len) {
        if (len == 0 || len > 18) {
            return NO_CAPITAL;
        }
        long reais = 0;
        int cents = 0;
        int decimals = -1;
        int digits = 0;
        for (int i = s; i < s + len; i++) {
            byte c = b[i];
            if (c >= '0' && c <= '9') {
                if (decimals < 0) {
                    reais = reais * 10 + (c - '0');
                    digits++;
                } else if (decimals < 2) {
                    cents = cents * 10 + (c - '0');
                    decimals++;
                } else if (c != '0') {
                    return NO_CAPITAL;
                }
            } else if ((c == ',' || c == '.') && decimals < 0 && digits > 0) {
                decimals = 0;
            } else {
                return NO_CAPITAL;
            }
        }
        if (digits == 0) {
            return NO_CAPITAL;
        }
        if (decimals == 1) {
            cents *= 10;
        }
        if (reais == PLACEHOLDER_CAPITAL_REAIS && cents == 0) {
            return NO_CAPITAL;
        }
        return reais * 100 + cents;
    }

    /** The digits of a field as an int, or -1 when it is empty, too long or not all digits. */
    public static int digits(byte[] b, int s, int len) {
        if (len == 0 || len > 9) {
            return -1;
        }
        int v = 0;
        for (int i = s; i < s + len; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }
}
