package dev.cadastro.core.error;

import java.util.Locale;
import java.util.Optional;

/**
 * The closed set of error codes of both services' contracts, as clients see them on the wire.
 *
 * <p>Codes are stable: clients program against {@link #wire()}. This type knows nothing of HTTP;
 * the HTTP adapter maps every constant to a status in one exhaustive {@code switch}, so a new
 * constant does not compile until it is mapped.
 */
public enum ErrorCode {
    // Company-data service (the company-data OpenAPI document; statuses in docs/rules.md)
    SEM_CHAVE(Service.COMPANY_DATA, "no API key was sent"),
    CHAVE_INVALIDA(Service.COMPANY_DATA, "the API key is not valid"),
    CHAVE_REVOGADA(Service.COMPANY_DATA, "the API key was revoked"),
    SEM_ESCOPO(Service.COMPANY_DATA, "the API key lacks the scope this operation needs"),
    CREDENCIAMENTO_PENDENTE(Service.COMPANY_DATA, "the account's LGPD accreditation is not approved"),
    NAO_ENCONTRADO(Service.COMPANY_DATA, "the resource was not found"),
    PARAMETRO_INVALIDO(Service.COMPANY_DATA, "a parameter is invalid"),
    LIMITE_MINUTO(Service.COMPANY_DATA, "the per-minute request limit of the key was reached"),
    LIMITE_DIARIO(Service.COMPANY_DATA, "the daily request limit of the plan was reached"),
    SEM_CREDITOS(Service.COMPANY_DATA, "the balance does not cover what the call would deliver"),
    API_DESATIVADA(Service.COMPANY_DATA, "the API is disabled for this account"),
    ERRO_INTERNO(Service.COMPANY_DATA, "internal error"),
    PF_NAO_HABILITADA(Service.COMPANY_DATA, "person lookup is not released for this key"),
    FINALIDADE_INVALIDA(Service.COMPANY_DATA, "the purpose is not one of the accepted values"),
    FINALIDADE_NAO_CONTRATADA(Service.COMPANY_DATA, "the purpose is not contracted for this key"),
    JUSTIFICATIVA_INVALIDA(Service.COMPANY_DATA, "the justification is invalid"),
    CPF_INVALIDO(Service.COMPANY_DATA, "the CPF check digits are wrong"),
    SEM_DADOS(Service.COMPANY_DATA, "no data for this CPF under this purpose"),
    FORNECEDOR_INDISPONIVEL(Service.COMPANY_DATA, "the data provider is unavailable"),
    AUDITORIA_INDISPONIVEL(Service.COMPANY_DATA, "the audit trail could not be written"),
    LIMITE_OTP(Service.COMPANY_DATA, "too many SMS codes for this phone"),
    SMS_INDISPONIVEL(Service.COMPANY_DATA, "the SMS provider is unavailable"),
    /**
     * The database the request needs is stopped, frozen or unreachable (status 503, with {@code
     * Retry-After}): nothing was charged. A code the original catalogue lacks, added and documented in
     * both OpenAPI documents; the call-records envelope writes it in lower case.
     */
    SERVICO_INDISPONIVEL(Service.COMPANY_DATA, "a service the request needs is temporarily unavailable"),

    // Call-records service (the call-records OpenAPI document): lower-case codes on the wire
    NAO_AUTORIZADO(Service.CALL_RECORDS, "token missing, invalid or of another scope"),
    NAO_ENCONTRADA(Service.CALL_RECORDS, "call not found or outside the 7-day window"),
    ROTA_INEXISTENTE(Service.CALL_RECORDS, "no such path or method"),
    INDISPONIVEL(Service.CALL_RECORDS, "the recording is still being archived"),
    /**
     * A bad parameter on the call-records service ({@code parametro_invalido}, status 400): a code the
     * original catalogue lacks, added and documented in the service's OpenAPI document.
     */
    PARAMETRO_INVALIDO_LIGACOES(Service.CALL_RECORDS, "parametro_invalido", "a parameter is invalid");

    private final Service service;
    private final String meaning;
    private final String wire;

    ErrorCode(Service service, String meaning) {
        this.service = service;
        this.meaning = meaning;
        this.wire = service == Service.CALL_RECORDS ? name().toLowerCase(Locale.ROOT) : name();
    }

    ErrorCode(Service service, String wire, String meaning) {
        this.service = service;
        this.meaning = meaning;
        this.wire = wire;
    }

    /** The code whose {@link #wire()} form is exactly {@code wire}, if any. */
    public static Optional<ErrorCode> fromWire(String wire) {
        for (ErrorCode code : values()) {
            if (code.wire.equals(wire)) {
                return Optional.of(code);
            }
        }
        return Optional.empty();
    }

    /** The service whose envelope carries this code. */
    public Service service() {
        return service;
    }

    /** The code exactly as it appears on the wire. */
    public String wire() {
        return wire;
    }

    /** A short English sentence saying what the code means; the default message. */
    public String meaning() {
        return meaning;
    }
}
