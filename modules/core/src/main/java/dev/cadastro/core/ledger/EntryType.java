package dev.cadastro.core.ledger;

/** Why a ledger entry exists. */
public enum EntryType {
    /** Credits bought: a positive entry. */
    TOP_UP,
    /** A direct charge for what a call delivered: a negative entry. */
    CHARGE,
    /** The settlement of a hold with what was actually delivered: a negative entry. */
    HOLD_POST,
    /** Credits returned for an earlier charge (a failed SMS delivery): a positive entry. */
    REFUND,
    /** An operator's correction, either sign. */
    ADJUSTMENT
}
