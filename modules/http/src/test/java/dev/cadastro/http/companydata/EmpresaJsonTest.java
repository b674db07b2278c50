package dev.cadastro.http.companydata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.Empresa;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class EmpresaJsonTest {

    private static String write(Empresa e) {
        return new String(CompanyDataJson.empresa(e), StandardCharsets.UTF_8);
    }

    @Test
    void writesEveryFieldInSnakeCaseWithCodesAsStringsAndCapitalAsAPlainNumber() {
        Empresa e = new Empresa(
                "12ABC34501DE35",
                "ACME LTDA",
                "ACME",
                "02",
                "ATIVA",
                "4711302",
                "Comércio varejista",
                "2062",
                "Sociedade Empresária Limitada",
                "03",
                "EMPRESA DE PEQUENO PORTE",
                new BigDecimal("1E+6"),
                LocalDate.of(2001, 2, 3),
                "SP",
                "SAO PAULO",
                "CENTRO",
                "01001000",
                "PRACA DA SE, 1",
                "(11) 91234-5678",
                "contato@acme.com.br");
        assertEquals(
                "{\"cnpj\":\"12ABC34501DE35\",\"razao_social\":\"ACME LTDA\",\"nome_fantasia\":\"ACME\","
                        + "\"situacao_cadastral\":\"02\",\"situacao_descricao\":\"ATIVA\",\"cnae\":\"4711302\","
                        + "\"cnae_descricao\":\"Comércio varejista\",\"natureza_juridica\":\"2062\","
                        + "\"natureza_descricao\":\"Sociedade Empresária Limitada\",\"porte\":\"03\","
                        + "\"porte_descricao\":\"EMPRESA DE PEQUENO PORTE\",\"capital_social\":1000000,"
                        + "\"data_abertura\":\"2001-02-03\",\"uf\":\"SP\",\"municipio\":\"SAO PAULO\","
                        + "\"bairro\":\"CENTRO\",\"cep\":\"01001000\",\"logradouro\":\"PRACA DA SE, 1\","
                        + "\"telefone\":\"(11) 91234-5678\",\"email\":\"contato@acme.com.br\"}",
                write(e));
    }

    @Test
    void omitsAbsentFieldsAndKeepsCentavos() {
        Empresa e = new Empresa(
                "11222333000181",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                new BigDecimal("1500.50"),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        assertEquals("{\"cnpj\":\"11222333000181\",\"capital_social\":1500.50}", write(e));
    }
}
