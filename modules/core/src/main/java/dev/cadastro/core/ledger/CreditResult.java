package dev.cadastro.core.ledger;

/**
 * What a top-up or refund did.
 *
 * @param credited credits added by this call: 0 on a replay
 * @param balanceAfter the posted balance after this call
 * @param replay true when the key had been used before and nothing changed
 */
public record CreditResult(long credited, long balanceAfter, boolean replay) {
    public CreditResult {
        if (credited < 0) {
            throw new IllegalArgumentException("credited " + credited + " must not be negative");
        }
        if (replay && credited != 0) {
            throw new IllegalArgumentException("a replay credits nothing, not " + credited);
        }
    }
}
