package dev.cadastro.core.account;

/** The account's LGPD accreditation: bureau enrichment needs it approved. */
public enum AccreditationStatus {
    /** Not yet approved: enrichment answers {@code CREDENCIAMENTO_PENDENTE}. */
    PENDING,
    /** Approved by an operator. */
    APPROVED
}
