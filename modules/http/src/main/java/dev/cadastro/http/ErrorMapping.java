package dev.cadastro.http;

import dev.cadastro.core.error.ErrorCode;

/**
 * The one place where the core's error codes meet HTTP statuses. The switch is exhaustive with no
 * {@code default}: a code added to {@link ErrorCode} does not compile until it is mapped here.
 *
 * <p>The pairs the specs state are kept as stated (company-data section 7, call-records section 7).
 * Where the company-data spec leaves the pair open, the choice follows its status table: {@code
 * API_DESATIVADA} is 503 ("API temporarily unavailable"), {@code CHAVE_REVOGADA} is 401 (a key that
 * no longer authenticates), {@code JUSTIFICATIVA_INVALIDA} is 422, {@code FORNECEDOR_INDISPONIVEL}
 * and {@code SMS_INDISPONIVEL} are 502, {@code AUDITORIA_INDISPONIVEL} is 503.
 */
public final class ErrorMapping {
    private ErrorMapping() {}

    /** The HTTP status of a code. */
    public static int status(ErrorCode code) {
        return switch (code) {
            case SEM_CHAVE, CHAVE_INVALIDA, CHAVE_REVOGADA -> 401;
            case SEM_CREDITOS -> 402;
            case SEM_ESCOPO, CREDENCIAMENTO_PENDENTE, PF_NAO_HABILITADA, FINALIDADE_NAO_CONTRATADA -> 403;
            case NAO_ENCONTRADO, SEM_DADOS -> 404;
            case PARAMETRO_INVALIDO, FINALIDADE_INVALIDA, JUSTIFICATIVA_INVALIDA, CPF_INVALIDO -> 422;
            case LIMITE_MINUTO, LIMITE_DIARIO, LIMITE_OTP -> 429;
            case ERRO_INTERNO -> 500;
            case FORNECEDOR_INDISPONIVEL, SMS_INDISPONIVEL -> 502;
            case API_DESATIVADA, AUDITORIA_INDISPONIVEL -> 503;
            case NAO_AUTORIZADO -> 401;
            case NAO_ENCONTRADA, ROTA_INEXISTENTE -> 404;
            case INDISPONIVEL -> 409;
        };
    }
}
