package dev.cadastro.loader;

/** Why a row went to the rejects file instead of the index. The code is what the file and summary show. */
public enum RejectReason {
    /** The row does not have the family's number of columns (a shifted column, a broken line). */
    COLUMN_COUNT("column-count"),
    /** The CNPJ (root, order, check digits) is not 8+4+2 valid characters or its check digits are wrong. */
    INVALID_CNPJ("invalid-cnpj"),
    /** The same CNPJ (or, for company-level files, the same root) appeared earlier in the dump. */
    DUPLICATE("duplicate"),
    /** The file ended inside a quoted field. */
    UNTERMINATED_QUOTE("unterminated-quote"),
    /** The row exceeded the maximum row size (an unterminated quote running on); it was cut at the next line end. */
    OVERSIZED("oversized"),
    /** A code or name is longer than the layout allows (255 bytes for a code, 65,535 for a name). */
    FIELD_TOO_LONG("field-too-long"),
    /** A code outside the layout's set: a partner kind other than 1, 2 or 3, an age band other than 0 to 9. */
    INVALID_CODE("invalid-code");

    private final String code;

    RejectReason(String code) {
        this.code = code;
    }

    /** The stable code written in the rejects file. */
    public String code() {
        return code;
    }
}
