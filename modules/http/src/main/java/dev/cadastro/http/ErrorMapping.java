package dev.cadastro.http;

import dev.cadastro.core.error.ErrorCode;
import java.util.Objects;

/**
 * The one place where the core's error codes meet HTTP statuses. The switches are exhaustive with no
 * {@code default}: a code added to {@link ErrorCode}, or an endpoint added to {@link Endpoint}, does
 * not compile until it is mapped here.
 *
 * <p>The pairs the contracts state are kept as stated (the status tables of docs/rules.md and the OpenAPI documents).
 * Where the company-data contract leaves the pair open, the choice follows its status table: {@code
 * API_DESATIVADA} is 503 ("API temporarily unavailable"), {@code CHAVE_REVOGADA} is 401 (a key that
 * no longer authenticates), {@code JUSTIFICATIVA_INVALIDA} is 422, {@code FORNECEDOR_INDISPONIVEL}
 * and {@code SMS_INDISPONIVEL} are 502, {@code AUDITORIA_INDISPONIVEL} is 503, and so is {@code
 * SERVICO_INDISPONIVEL}, the addition for a database that is gone.
 *
 * <p>One code depends on the endpoint: {@code FORNECEDOR_INDISPONIVEL} is 503 on enrichment, whose
 * status list has 503 and no 502, and 502 everywhere else (docs/adr/0021).
 */
public final class ErrorMapping {
    private ErrorMapping() {}

    /**
     * The endpoints whose status list changes the status of a code. Every other endpoint is {@link
     * #STANDARD}; an endpoint gets its own constant only when its published status list forces a different status.
     */
    public enum Endpoint {
        /** Any endpoint whose list does not override a status. */
        STANDARD,
        /** {@code GET /v1/enriquecimento/{cnpj}}: 503 and no 502 in its list. */
        ENRICHMENT,
        /** {@code POST /v1/credito/consultar}: 502 for an unavailable provider. */
        CREDIT_REPORT
    }

    /** The HTTP status of a code on an endpoint whose list overrides nothing. */
    public static int status(ErrorCode code) {
        return status(code, Endpoint.STANDARD);
    }

    /** The HTTP status of a code answered by this endpoint. */
    public static int status(ErrorCode code, Endpoint endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        return switch (code) {
            case SEM_CHAVE, CHAVE_INVALIDA, CHAVE_REVOGADA -> 401;
            case SEM_CREDITOS -> 402;
            case SEM_ESCOPO, CREDENCIAMENTO_PENDENTE, PF_NAO_HABILITADA, FINALIDADE_NAO_CONTRATADA -> 403;
            case NAO_ENCONTRADO, SEM_DADOS -> 404;
            case PARAMETRO_INVALIDO, FINALIDADE_INVALIDA, JUSTIFICATIVA_INVALIDA, CPF_INVALIDO -> 422;
            case LIMITE_MINUTO, LIMITE_DIARIO, LIMITE_OTP -> 429;
            case ERRO_INTERNO -> 500;
            case FORNECEDOR_INDISPONIVEL -> providerUnavailable(endpoint);
            case SMS_INDISPONIVEL -> 502;
            case API_DESATIVADA, AUDITORIA_INDISPONIVEL, SERVICO_INDISPONIVEL -> 503;
            case NAO_AUTORIZADO -> 401;
            case NAO_ENCONTRADA, ROTA_INEXISTENTE -> 404;
            case INDISPONIVEL -> 409;
            case PARAMETRO_INVALIDO_LIGACOES -> 400;
        };
    }

    private static int providerUnavailable(Endpoint endpoint) {
        return switch (endpoint) {
            case ENRICHMENT -> 503;
            case STANDARD, CREDIT_REPORT -> 502;
        };
    }
}
