package dev.cadastro.http.companydata;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.cadastro.core.register.Empresa;
import java.io.IOException;

/**
 * Writes an {@link Empresa} as the company object of the wire: snake_case names, absent
 * fields omitted, {@code data_abertura} as an ISO date, {@code capital_social} as a JSON number in
 * plain notation, codes as strings with their leading zeros.
 */
final class EmpresaJson {
    private EmpresaJson() {}

    static void write(JsonGenerator g, Empresa e) throws IOException {
        g.writeStartObject();
        text(g, "cnpj", e.cnpj());
        text(g, "razao_social", e.razaoSocial());
        text(g, "nome_fantasia", e.nomeFantasia());
        text(g, "situacao_cadastral", e.situacaoCadastral());
        text(g, "situacao_descricao", e.situacaoDescricao());
        text(g, "cnae", e.cnae());
        text(g, "cnae_descricao", e.cnaeDescricao());
        text(g, "natureza_juridica", e.naturezaJuridica());
        text(g, "natureza_descricao", e.naturezaDescricao());
        text(g, "porte", e.porte());
        text(g, "porte_descricao", e.porteDescricao());
        if (e.capitalSocial() != null) {
            g.writeFieldName("capital_social");
            g.writeNumber(e.capitalSocial());
        }
        if (e.dataAbertura() != null) {
            g.writeStringField("data_abertura", e.dataAbertura().toString());
        }
        text(g, "uf", e.uf());
        text(g, "municipio", e.municipio());
        text(g, "bairro", e.bairro());
        text(g, "cep", e.cep());
        text(g, "logradouro", e.logradouro());
        text(g, "telefone", e.telefone());
        text(g, "email", e.email());
        g.writeEndObject();
    }

    private static void text(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }
}
