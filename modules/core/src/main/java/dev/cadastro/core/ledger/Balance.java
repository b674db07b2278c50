package dev.cadastro.core.ledger;

/**
 * One balance of an account.
 *
 * @param posted the sum of the ledger entries
 * @param held credits reserved by open holds
 */
public record Balance(CreditKind kind, long posted, long held) {
    public Balance {
        if (posted < 0 || held < 0 || held > posted) {
            throw new IllegalStateException(
                    "balance " + kind + " posted=" + posted + " held=" + held + " breaks 0 <= held <= posted");
        }
    }

    /** What a new charge or hold may still take. */
    public long available() {
        return posted - held;
    }
}
