package dev.cadastro.loader;

/**
 * Something the loader corrected or noticed in a row it kept. Counted in the {@link LoadSummary}; the
 * row itself is loaded.
 */
public enum Note {
    /** A date that is not empty ("", "0", "00000000") but not a valid YYYYMMDD date: stored as absent. */
    DATE_INVALID("date-invalid"),
    /** The share capital placeholder 999999999999: stored as absent. */
    CAPITAL_PLACEHOLDER("capital-placeholder"),
    /** A share capital that is not a decimal number: stored as absent. */
    CAPITAL_INVALID("capital-invalid"),
    /** A phone or fax with a junk area code or number ("0000", "069", "0"): left out. */
    PHONE_DROPPED("phone-dropped"),
    /** An establishment whose root has no Empresas row: kept without company data. */
    COMPANY_MISSING("company-missing"),
    /** An empty line: skipped. */
    BLANK_LINE("blank-line"),
    /** A PGFN row of a natural person (not a company): skipped. */
    DEBT_NOT_COMPANY("debt-not-company");

    private final String code;

    Note(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
