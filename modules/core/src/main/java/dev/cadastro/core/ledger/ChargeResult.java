package dev.cadastro.core.ledger;

/**
 * What a charge did.
 *
 * @param charged credits taken by this call: the amount, or 0 on a replay (an earlier operation with
 *     the same idempotency key already paid; this is how "same CNPJ the same day is free" shows up)
 * @param balanceAfter the posted balance after this call
 * @param replay true when the key had been used before and nothing changed
 */
public record ChargeResult(long charged, long balanceAfter, boolean replay) {
    public ChargeResult {
        if (charged < 0) {
            throw new IllegalArgumentException("charged " + charged + " must not be negative");
        }
        if (replay && charged != 0) {
            throw new IllegalArgumentException("a replay charges nothing, not " + charged);
        }
    }
}
