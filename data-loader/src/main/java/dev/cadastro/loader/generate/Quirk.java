package dev.cadastro.loader.generate;

/** The real data's quirks the generator injects, each into about {@code quirkRate / 12} of the rows. */
public enum Quirk {
    /** A whole Estabelecimentos line written twice: the loader keeps the first, rejects the second. */
    DUPLICATE_LINE,
    /** A line feed inside the complement field. */
    LINE_FEED_IN_FIELD,
    /** A {@code ;} and unescaped quotes inside the trade name. */
    QUOTES_AND_SEPARATOR,
    /** A NUL byte inside the street name: the loader drops it. */
    NUL_BYTE,
    /** WIN-1252 bytes (en dash, curly quotes) in the trade name. */
    WIN1252_BYTES,
    /** The status date written as {@code "0"} or {@code "00000000"}. */
    EMPTY_DATE_VARIANT,
    /** An impossible opening date ({@code 2021221}, year 0202 or 4100): loaded as absent. */
    INVALID_DATE,
    /** A junk area code ({@code 0000}, {@code 069}) or the number {@code 0}: the phone is left out. */
    JUNK_PHONE,
    /** The capital placeholder {@code 999999999999}: loaded as absent. */
    CAPITAL_PLACEHOLDER,
    /** A company with no Empresas row: its establishments load without company data. */
    MISSING_COMPANY,
    /** An Estabelecimentos line with a shifted extra column: rejected ({@code column-count}). */
    SHIFTED_COLUMN,
    /** A whole Empresas line written twice: the loader keeps the first, rejects the second. */
    DUPLICATE_COMPANY_LINE
}
