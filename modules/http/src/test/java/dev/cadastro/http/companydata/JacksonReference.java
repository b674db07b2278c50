package dev.cadastro.http.companydata;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.http.internal.Json;
import java.io.IOException;

/**
 * The company-data bodies as they were written before {@link JsonBytes}: through jackson-core's
 * generator with the module's shared factory. Kept as the reference the direct writer must match
 * byte for byte.
 */
final class JacksonReference {
    private JacksonReference() {}

    static byte[] empresa(Empresa e) {
        return Json.bytes(768, g -> write(g, e));
    }

    static byte[] lookupResponse(Empresa empresa, long creditsCharged) {
        return Json.bytes(768, g -> {
            g.writeStartObject();
            g.writeFieldName("dados");
            write(g, empresa);
            g.writeNumberField("creditos_consumidos", creditsCharged);
            g.writeEndObject();
        });
    }

    static byte[] searchResponse(SearchResult page, boolean countOnly, long creditsCharged) {
        return Json.bytes(256 + page.retornados() * 640, g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("dados");
            for (Empresa e : page.dados()) {
                write(g, e);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("paginacao");
            g.writeNumberField("pagina", page.pagina());
            g.writeNumberField("limite", page.limite());
            g.writeNumberField("retornados", page.retornados());
            g.writeNumberField("total", page.total());
            g.writeEndObject();
            if (countOnly) {
                g.writeNumberField("total", page.total());
            }
            g.writeBooleanField("aproximado", page.aproximado());
            g.writeNumberField("creditos_consumidos", creditsCharged);
            g.writeEndObject();
        });
    }

    private static void write(JsonGenerator g, Empresa e) throws IOException {
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
