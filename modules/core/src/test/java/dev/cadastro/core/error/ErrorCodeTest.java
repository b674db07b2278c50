package dev.cadastro.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Violation;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ErrorCodeTest {

    /** The company-data codes, in the order of the published catalogue, then the additions. */
    private static final List<String> COMPANY_DATA = List.of(
            "SEM_CHAVE",
            "CHAVE_INVALIDA",
            "CHAVE_REVOGADA",
            "SEM_ESCOPO",
            "CREDENCIAMENTO_PENDENTE",
            "NAO_ENCONTRADO",
            "PARAMETRO_INVALIDO",
            "LIMITE_MINUTO",
            "LIMITE_DIARIO",
            "SEM_CREDITOS",
            "API_DESATIVADA",
            "ERRO_INTERNO",
            "PF_NAO_HABILITADA",
            "FINALIDADE_INVALIDA",
            "FINALIDADE_NAO_CONTRATADA",
            "JUSTIFICATIVA_INVALIDA",
            "CPF_INVALIDO",
            "SEM_DADOS",
            "FORNECEDOR_INDISPONIVEL",
            "AUDITORIA_INDISPONIVEL",
            "LIMITE_OTP",
            "SMS_INDISPONIVEL",
            // An addition to the published catalogue: the database is gone (503, nothing charged).
            "SERVICO_INDISPONIVEL");

    /** The call-records {@code erro} strings. */
    private static final List<String> CALL_RECORDS =
            List.of("nao_autorizado", "nao_encontrada", "rota_inexistente", "indisponivel", "parametro_invalido");

    @Test
    void everySpecCodeIsPresentExactlyOnceAndNothingElse() {
        List<String> wire =
                Arrays.stream(ErrorCode.values()).map(ErrorCode::wire).toList();
        List<String> expected = java.util.stream.Stream.concat(COMPANY_DATA.stream(), CALL_RECORDS.stream())
                .toList();
        assertEquals(expected, wire);
        assertEquals(wire.size(), wire.stream().distinct().count());
    }

    @Test
    void eachCodeBelongsToTheServiceWhoseEnvelopeCarriesIt() {
        var byService = Arrays.stream(ErrorCode.values())
                .collect(Collectors.groupingBy(
                        ErrorCode::service, Collectors.mapping(ErrorCode::wire, Collectors.toList())));
        assertEquals(COMPANY_DATA, byService.get(Service.COMPANY_DATA));
        assertEquals(CALL_RECORDS, byService.get(Service.CALL_RECORDS));
    }

    @Test
    void wireFormsAreUpperCaseForCompanyDataAndLowerCaseForCallRecords() {
        assertEquals("CPF_INVALIDO", ErrorCode.CPF_INVALIDO.wire());
        assertEquals("nao_encontrada", ErrorCode.NAO_ENCONTRADA.wire());
        assertEquals("NAO_ENCONTRADO", ErrorCode.NAO_ENCONTRADO.wire());
        for (ErrorCode code : ErrorCode.values()) {
            assertEquals(Optional.of(code), ErrorCode.fromWire(code.wire()));
            assertFalse(code.meaning().isBlank(), code.name());
        }
        assertEquals(Optional.empty(), ErrorCode.fromWire("cpf_invalido"));
        assertEquals(Optional.empty(), ErrorCode.fromWire("NAO_AUTORIZADO"));
    }

    @Test
    void exceptionsCarryTheirCodeAndASafeDetail() {
        InvalidParameterException e =
                InvalidParameterException.of("limite", "maximum", Message.MAXIMUM.with("limite", 500, 200));
        assertEquals(ErrorCode.PARAMETRO_INVALIDO, e.code());
        assertEquals("limite 500 exceeds the maximum 200", e.getMessage());
        assertEquals("limite 500 excede o máximo 200", e.message(Messages.PORTUGUESE));
        assertEquals("field=limite; rule=maximum", e.detail().orElseThrow());
        assertEquals(
                "campo=limite; regra=maximum", e.detail(Messages.PORTUGUESE).orElseThrow());
        assertEquals(new Violation("limite", "maximum", Message.MAXIMUM.with("limite", 500, 200)), e.violation());
        NotFoundException nf = new NotFoundException(Message.COMPANY_NOT_FOUND.with("11.222.333/0001-81"));
        assertEquals(ErrorCode.NAO_ENCONTRADO, nf.code());
        assertTrue(nf.detail().isEmpty());
        assertTrue(
                new CadastroException(ErrorCode.ERRO_INTERNO, Message.TRY_AGAIN_LATER.with())
                        instanceof RuntimeException);
    }
}
