package dev.cadastro.core.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.credit.CreditAnswers;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.enrichment.BureauAnswers;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Each rule of the answer codecs, through the path it names; messages never carry the value. */
class AnswerValidationTest {
    private static final Cnpj CNPJ = Cnpj.of("11222333000181");
    private static final Cpf CPF = Cpf.of("11144477735");

    private static Map<String, Object> company() {
        Map<String, Object> socio = new LinkedHashMap<>();
        socio.put("tipo", "PF");
        socio.put("nome", "MARIA SILVA");
        socio.put("cpf", "52998224725");
        socio.put("data_entrada", "2020-02-29");
        socio.put("participacao", new BigDecimal("50.00"));
        Map<String, Object> risco = new LinkedHashMap<>();
        risco.put("nivel", "baixo");
        risco.put("score", 800);
        risco.put("sinais", new ArrayList<>());
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("cnpj", CNPJ.value());
        t.put("atividades_secundarias", new ArrayList<>(List.of(new LinkedHashMap<>(Map.of("codigo", "6201501")))));
        t.put("socios", new ArrayList<>(List.of(socio)));
        t.put("risco", risco);
        return t;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> firstSocio(Map<String, Object> t) {
        return ((List<Map<String, Object>>) t.get("socios")).get(0);
    }

    private static void assertMalformed(String path, String secret, Consumer<Map<String, Object>> breakIt) {
        Map<String, Object> t = company();
        breakIt.accept(t);
        MalformedAnswerException e = assertThrows(MalformedAnswerException.class, () -> BureauAnswers.read(t, CNPJ));
        assertEquals(path, e.path(), e.getMessage());
        if (secret != null) {
            assertFalse(e.getMessage().contains(secret), e.getMessage());
        }
    }

    @Test
    void readsAValidAnswer() {
        assertEquals(
                "52998224725",
                BureauAnswers.read(company(), CNPJ).socios().get(0).cpf());
    }

    @Test
    void rejectsAMissingCnpj() {
        assertMalformed("cnpj", null, t -> t.remove("cnpj"));
    }

    @Test
    void rejectsAnAnswerAboutAnotherCnpj() {
        assertMalformed("cnpj", "11444777000161", t -> t.put("cnpj", "11444777000161"));
    }

    @Test
    void rejectsAPartnerCpfWithWrongCheckDigits() {
        assertMalformed("socios[0].cpf", "52998224724", t -> firstSocio(t).put("cpf", "52998224724"));
    }

    @Test
    void rejectsANaturalPartnerWithoutCpf() {
        assertMalformed("socios[0].cpf", null, t -> firstSocio(t).remove("cpf"));
    }

    @Test
    void rejectsADateThatIsNotIso() {
        assertMalformed(
                "socios[0].data_entrada", "29/02/2020", t -> firstSocio(t).put("data_entrada", "29/02/2020"));
    }

    @Test
    void rejectsADateThatDoesNotExist() {
        assertMalformed("socios[0].data_entrada", null, t -> firstSocio(t).put("data_entrada", "2021-02-29"));
    }

    @Test
    void rejectsAShareAboveAHundred() {
        assertMalformed("socios[0].participacao", null, t -> firstSocio(t).put("participacao", 100.5));
    }

    @Test
    void rejectsAScoreOutOfRange() {
        assertMalformed("risco.score", null, t -> ((Map<String, Object>) t.get("risco")).put("score", 1001));
    }

    @Test
    void rejectsAnUnknownRiskLevel() {
        assertMalformed(
                "risco.nivel", "altissimo", t -> ((Map<String, Object>) t.get("risco")).put("nivel", "altissimo"));
    }

    @Test
    void rejectsAPartnerListOfTheWrongType() {
        assertMalformed("socios", null, t -> t.put("socios", "indisponivel"));
    }

    @Test
    void rejectsAnActivityCodeThatIsNotCnae() {
        assertMalformed(
                "atividades_secundarias[0].codigo",
                null,
                t -> t.put("atividades_secundarias", List.of(Map.of("codigo", "62.01-5"))));
    }

    @Test
    void rejectsANumberGivenAsText() {
        assertMalformed("risco.score", null, t -> ((Map<String, Object>) t.get("risco")).put("score", "800"));
    }

    private static Map<String, Object> report() {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("documento", CPF.digits());
        t.put("tipo_documento", "CPF");
        t.put(
                "negativacoes",
                new ArrayList<>(List.of(new LinkedHashMap<>(Map.of(
                        "credor", "BANCO", "valor", new BigDecimal("10.50"), "data_ocorrencia", "2025-01-02")))));
        for (String k : List.of("protestos", "cheques_sem_fundo", "dividas_vencidas", "consultas_recentes", "socios")) {
            t.put(k, new ArrayList<>());
        }
        return t;
    }

    private static void assertReportMalformed(String path, Consumer<Map<String, Object>> breakIt) {
        Map<String, Object> t = report();
        breakIt.accept(t);
        MalformedAnswerException e = assertThrows(MalformedAnswerException.class, () -> CreditAnswers.read(t, CPF));
        assertEquals(path, e.path(), e.getMessage());
    }

    @Test
    void readsAValidReport() {
        assertEquals(
                new BigDecimal("10.50"),
                CreditAnswers.read(report(), CPF).negativacoes().get(0).valor());
    }

    @Test
    void rejectsAReportOnAnotherDocument() {
        assertReportMalformed("documento", t -> t.put("documento", "52998224725"));
    }

    @Test
    void rejectsAReportWhoseTypeDoesNotMatchTheDocument() {
        assertReportMalformed("tipo_documento", t -> t.put("tipo_documento", "CNPJ"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void rejectsAnAmountWithMoreThanTwoDecimals() {
        assertReportMalformed(
                "negativacoes[0].valor",
                t -> ((List<Map<String, Object>>) t.get("negativacoes")).get(0).put("valor", new BigDecimal("1.005")));
    }

    @Test
    void rejectsAMissingList() {
        assertReportMalformed("protestos", t -> t.remove("protestos"));
    }

    @Test
    void dropsTheHoldersParentage() {
        Map<String, Object> t = report();
        t.put("filiacao", Map.of("nome_mae", "MAE", "nome_pai", "PAI"));
        t.put("data_nascimento", "1980-01-01");
        Map<String, Object> back = CreditAnswers.tree(CreditAnswers.read(t, CPF));
        assertFalse(back.containsKey("filiacao"));
        assertFalse(back.containsKey("data_nascimento"));
        assertFalse(back.toString().contains("MAE"));
    }
}
