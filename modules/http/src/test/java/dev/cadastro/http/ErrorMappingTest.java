package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Messages;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.provider.ProviderUnavailableException;
import dev.cadastro.core.provider.ProviderUnavailableException.Failure;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class ErrorMappingTest {

    /**
     * Every code's status, written by hand from the contracts, not read from {@link ErrorMapping}. Company
     * data: the published status table names {@code SEM_CREDITOS} 402, {@code SEM_ESCOPO} 403, {@code
     * SEM_DADOS} 404, {@code PARAMETRO_INVALIDO}, {@code FINALIDADE_INVALIDA} and {@code CPF_INVALIDO}
     * 422; the meaning column places the rest (401 key missing or invalid, 403 accreditation pending,
     * person lookup not enabled, purpose not contracted, 429 the three limits, 500 internal error, 502
     * lookup or SMS service unavailable, 503 API temporarily unavailable). Where that table is silent
     * the project decided (docs/rules.md): a revoked key no longer authenticates (401), a bad justification
     * is an invalid parameter (422), an audit that cannot be written is 503 {@code
     * AUDITORIA_INDISPONIVEL}. Call records: 401 {@code nao_autorizado}, 404 {@code
     * nao_encontrada} and {@code rota_inexistente}, 409 {@code indisponivel}.
     */
    private static final Map<ErrorCode, Integer> STATED = Map.ofEntries(
            Map.entry(ErrorCode.SEM_CHAVE, 401),
            Map.entry(ErrorCode.CHAVE_INVALIDA, 401),
            Map.entry(ErrorCode.CHAVE_REVOGADA, 401),
            Map.entry(ErrorCode.SEM_CREDITOS, 402),
            Map.entry(ErrorCode.SEM_ESCOPO, 403),
            Map.entry(ErrorCode.CREDENCIAMENTO_PENDENTE, 403),
            Map.entry(ErrorCode.PF_NAO_HABILITADA, 403),
            Map.entry(ErrorCode.FINALIDADE_NAO_CONTRATADA, 403),
            Map.entry(ErrorCode.NAO_ENCONTRADO, 404),
            Map.entry(ErrorCode.SEM_DADOS, 404),
            Map.entry(ErrorCode.PARAMETRO_INVALIDO, 422),
            Map.entry(ErrorCode.FINALIDADE_INVALIDA, 422),
            Map.entry(ErrorCode.JUSTIFICATIVA_INVALIDA, 422),
            Map.entry(ErrorCode.CPF_INVALIDO, 422),
            Map.entry(ErrorCode.LIMITE_MINUTO, 429),
            Map.entry(ErrorCode.LIMITE_DIARIO, 429),
            Map.entry(ErrorCode.LIMITE_OTP, 429),
            Map.entry(ErrorCode.ERRO_INTERNO, 500),
            Map.entry(ErrorCode.FORNECEDOR_INDISPONIVEL, 502),
            Map.entry(ErrorCode.SMS_INDISPONIVEL, 502),
            Map.entry(ErrorCode.API_DESATIVADA, 503),
            Map.entry(ErrorCode.AUDITORIA_INDISPONIVEL, 503),
            Map.entry(ErrorCode.SERVICO_INDISPONIVEL, 503),
            Map.entry(ErrorCode.NAO_AUTORIZADO, 401),
            Map.entry(ErrorCode.NAO_ENCONTRADA, 404),
            Map.entry(ErrorCode.ROTA_INEXISTENTE, 404),
            Map.entry(ErrorCode.INDISPONIVEL, 409),
            Map.entry(ErrorCode.PARAMETRO_INVALIDO_LIGACOES, 400));

    /**
     * Where an endpoint's status list overrides {@link #STATED}: enrichment lists 503 and
     * no 502, so its unavailable provider is 503; the credit report (4.9) lists 502 and keeps it.
     */
    private static final Map<ErrorMapping.Endpoint, Map<ErrorCode, Integer>> OVERRIDES = Map.of(
            ErrorMapping.Endpoint.STANDARD, Map.of(),
            ErrorMapping.Endpoint.ENRICHMENT, Map.of(ErrorCode.FORNECEDOR_INDISPONIVEL, 503),
            ErrorMapping.Endpoint.CREDIT_REPORT, Map.of());

    @Test
    void theHandWrittenTableCoversEveryCode() {
        assertEquals(EnumSet.allOf(ErrorCode.class), EnumSet.copyOf(STATED.keySet()), "a new code needs its row");
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void mapsEveryCodeToTheStatusTheSpecsGive(ErrorCode code) {
        assertEquals(STATED.get(code), ErrorMapping.status(code), code.name());
    }

    @Test
    void theOverrideTableCoversEveryEndpoint() {
        assertEquals(EnumSet.allOf(ErrorMapping.Endpoint.class), EnumSet.copyOf(OVERRIDES.keySet()));
    }

    @ParameterizedTest
    @EnumSource(ErrorMapping.Endpoint.class)
    void mapsEveryCodeOfEveryEndpointToTheStatusOfItsList(ErrorMapping.Endpoint endpoint) {
        for (ErrorCode code : ErrorCode.values()) {
            int expected = OVERRIDES.get(endpoint).getOrDefault(code, STATED.get(code));
            assertEquals(expected, ErrorMapping.status(code, endpoint), endpoint + " " + code);
        }
    }

    @Test
    void answersAnUnavailableProviderWith503OnEnrichmentAnd502OnTheCreditReport() {
        ProviderUnavailableException down = new ProviderUnavailableException("bureau", Failure.ERROR, null, null);
        Response enrichment = ErrorResponses.render(Service.COMPANY_DATA, ErrorMapping.Endpoint.ENRICHMENT, down, "r");
        Response credit = ErrorResponses.render(Service.COMPANY_DATA, ErrorMapping.Endpoint.CREDIT_REPORT, down, "r");
        assertEquals(503, enrichment.status());
        assertEquals(502, credit.status());
        assertFalse(enrichment.headers().contains("Retry-After"), "no open circuit, no Retry-After");
        assertFalse(credit.headers().contains("Retry-After"));
    }

    @ParameterizedTest
    @CsvSource({"PT0.3S, 1", "PT1S, 1", "PT1.2S, 2", "PT29.001S, 30", "PT0S, 1"})
    void addsRetryAfterInWholeSecondsRoundedUpWhenTheCircuitIsOpen(Duration wait, String seconds) {
        ProviderUnavailableException open =
                new ProviderUnavailableException("credit-bureau", Failure.CIRCUIT_OPEN, wait, null);
        Response r = ErrorResponses.render(Service.COMPANY_DATA, ErrorMapping.Endpoint.CREDIT_REPORT, open, "r");
        assertEquals(502, r.status());
        assertEquals(seconds, r.headers().first("Retry-After").orElseThrow());
    }

    @Test
    void answersAnInvalidJustificationWith422AndAnUnwritableAuditWith503() {
        assertEquals(422, ErrorMapping.status(ErrorCode.JUSTIFICATIVA_INVALIDA));
        assertEquals(503, ErrorMapping.status(ErrorCode.AUDITORIA_INDISPONIVEL));
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void rendersEveryCompanyCodeInTheObjectEnvelope(ErrorCode code) throws Exception {
        Response r = ErrorResponses.render(
                Service.COMPANY_DATA,
                new CadastroException(code, Message.NO_KEY.with(), Message.TRY_AGAIN_LATER.with()),
                "rid-1");
        JsonNode body = TestHttp.JSON.readTree(r.body());
        if (code == ErrorCode.ERRO_INTERNO) {
            assertEquals(500, r.status());
            assertEquals("request_id=rid-1", body.path("erro").path("detalhe").asText());
        } else {
            assertEquals(STATED.get(code), r.status());
            assertEquals(
                    Message.NO_KEY.with().render(Messages.PORTUGUESE),
                    body.path("erro").path("mensagem").asText());
            assertEquals(
                    "tente de novo mais tarde",
                    body.path("erro").path("detalhe").asText());
        }
        assertEquals(code.name(), body.path("erro").path("code").asText());
        assertEquals("rid-1", r.headers().first("X-Request-Id").orElseThrow());
        assertEquals(Response.JSON, r.headers().first("content-type").orElseThrow());
    }

    @Test
    void rendersCallRecordsCodesAsAPlainLowerCaseString() throws Exception {
        Response r = ErrorResponses.render(
                Service.CALL_RECORDS,
                new CadastroException(ErrorCode.NAO_AUTORIZADO, Message.CALLS_NO_TOKEN.with()),
                "rid-2");
        JsonNode body = TestHttp.JSON.readTree(r.body());
        assertEquals(401, r.status());
        assertEquals("nao_autorizado", body.path("erro").asText());
        assertEquals(
                "nenhum token: envie Authorization: Bearer <token>",
                body.path("mensagem").asText());
        assertEquals(2, body.size());
    }

    @ParameterizedTest
    @CsvSource({
        "NAO_ENCONTRADA, 404, nao_encontrada",
        "INDISPONIVEL, 409, indisponivel",
        "PARAMETRO_INVALIDO_LIGACOES, 400, parametro_invalido"
    })
    void rendersCallRecordsNotFoundAndUnavailableInTheirEnvelope(ErrorCode code, int status, String wire)
            throws Exception {
        Response r = ErrorResponses.render(
                Service.CALL_RECORDS, new CadastroException(code, Message.CALL_NOT_FOUND.with("c1")), "rid-5");
        JsonNode body = TestHttp.JSON.readTree(r.body());
        assertEquals(status, r.status());
        assertEquals(wire, body.path("erro").asText());
        assertEquals(
                "a ligação c1 não foi encontrada ou está fora da janela de 7 dias",
                body.path("mensagem").asText());
        assertEquals(2, body.size(), body.toString());
        assertEquals(Response.JSON, r.headers().first("content-type").orElseThrow());
    }

    @Test
    void omitsDetalheWhenThereIsNone() throws Exception {
        Response r = ErrorResponses.render(
                Service.COMPANY_DATA, new CadastroException(ErrorCode.SEM_CHAVE, Message.NO_KEY.with()), "rid-3");
        JsonNode erro = TestHttp.JSON.readTree(r.body()).path("erro");
        assertFalse(erro.has("detalhe"));
        assertEquals(2, erro.size());
    }

    @Test
    void neverShowsTheTextOfAnUnexpectedException() throws Exception {
        Response r = ErrorResponses.render(
                Service.COMPANY_DATA, new IllegalStateException("password=hunter2 at db.internal"), "rid-4");
        assertEquals(500, r.status());
        String text = r.bodyText();
        assertFalse(text.contains("hunter2"), text);
        assertFalse(text.contains("IllegalStateException"), text);
        assertFalse(text.contains("at dev."), text);
        assertEquals(
                "ERRO_INTERNO",
                TestHttp.JSON.readTree(r.body()).path("erro").path("code").asText());
    }
}
