package dev.cadastro.core.error;

/** The two services of the product; each has its own error envelope on the wire. */
public enum Service {
    /** The company-data service: envelope {@code {"erro": {"code", "mensagem", "detalhe"}}}. */
    COMPANY_DATA,
    /** The call-records service: envelope {@code {"erro": "<code>", "mensagem"}}. */
    CALL_RECORDS
}
