package dev.cadastro.core.ledger;

/** The two balances an account holds; they never mix. */
public enum CreditKind {
    /** Credits for data: records, leads, enrichment, person lookups, credit reports. */
    CREDITS,
    /** SMS credits: one per one-time code sent. */
    SMS_CREDITS
}
