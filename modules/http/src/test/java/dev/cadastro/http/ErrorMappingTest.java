package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Service;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ErrorMappingTest {

    /** The pairs the two specs state, section 7 of each. */
    private static final Map<ErrorCode, Integer> STATED = Map.ofEntries(
            Map.entry(ErrorCode.SEM_CHAVE, 401),
            Map.entry(ErrorCode.CHAVE_INVALIDA, 401),
            Map.entry(ErrorCode.SEM_CREDITOS, 402),
            Map.entry(ErrorCode.SEM_ESCOPO, 403),
            Map.entry(ErrorCode.CREDENCIAMENTO_PENDENTE, 403),
            Map.entry(ErrorCode.PF_NAO_HABILITADA, 403),
            Map.entry(ErrorCode.FINALIDADE_NAO_CONTRATADA, 403),
            Map.entry(ErrorCode.NAO_ENCONTRADO, 404),
            Map.entry(ErrorCode.SEM_DADOS, 404),
            Map.entry(ErrorCode.PARAMETRO_INVALIDO, 422),
            Map.entry(ErrorCode.FINALIDADE_INVALIDA, 422),
            Map.entry(ErrorCode.CPF_INVALIDO, 422),
            Map.entry(ErrorCode.LIMITE_MINUTO, 429),
            Map.entry(ErrorCode.LIMITE_DIARIO, 429),
            Map.entry(ErrorCode.LIMITE_OTP, 429),
            Map.entry(ErrorCode.ERRO_INTERNO, 500),
            Map.entry(ErrorCode.FORNECEDOR_INDISPONIVEL, 502),
            Map.entry(ErrorCode.SMS_INDISPONIVEL, 502),
            Map.entry(ErrorCode.NAO_AUTORIZADO, 401),
            Map.entry(ErrorCode.NAO_ENCONTRADA, 404),
            Map.entry(ErrorCode.ROTA_INEXISTENTE, 404),
            Map.entry(ErrorCode.INDISPONIVEL, 409));

    @Test
    void keepsEveryPairTheSpecsState() {
        STATED.forEach((code, status) -> assertEquals(status, ErrorMapping.status(code), code.name()));
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void mapsEveryCodeToAnErrorStatus(ErrorCode code) {
        int status = ErrorMapping.status(code);
        assertTrue(status >= 400 && status <= 599, code + " -> " + status);
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void rendersEveryCompanyCodeInTheObjectEnvelope(ErrorCode code) throws Exception {
        Response r = ErrorResponses.render(
                Service.COMPANY_DATA, new CadastroException(code, "mensagem de teste", "um detalhe"), "rid-1");
        JsonNode body = TestHttp.JSON.readTree(r.body());
        if (code == ErrorCode.ERRO_INTERNO) {
            assertEquals(500, r.status());
            assertEquals("request_id=rid-1", body.path("erro").path("detalhe").asText());
        } else {
            assertEquals(ErrorMapping.status(code), r.status());
            assertEquals("mensagem de teste", body.path("erro").path("mensagem").asText());
            assertEquals("um detalhe", body.path("erro").path("detalhe").asText());
        }
        assertEquals(code.name(), body.path("erro").path("code").asText());
        assertEquals("rid-1", r.headers().first("X-Request-Id").orElseThrow());
        assertEquals(Response.JSON, r.headers().first("content-type").orElseThrow());
    }

    @Test
    void rendersCallRecordsCodesAsAPlainLowerCaseString() throws Exception {
        Response r = ErrorResponses.render(
                Service.CALL_RECORDS, new CadastroException(ErrorCode.NAO_AUTORIZADO, "token ausente"), "rid-2");
        JsonNode body = TestHttp.JSON.readTree(r.body());
        assertEquals(401, r.status());
        assertEquals("nao_autorizado", body.path("erro").asText());
        assertEquals("token ausente", body.path("mensagem").asText());
        assertEquals(2, body.size());
    }

    @Test
    void omitsDetalheWhenThereIsNone() throws Exception {
        Response r = ErrorResponses.render(
                Service.COMPANY_DATA, new CadastroException(ErrorCode.SEM_CHAVE, "sem chave"), "rid-3");
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
