package dev.cadastro.http.companydata;

import dev.cadastro.core.register.Empresa;

/**
 * Writes an {@link Empresa} as the company object of the wire: snake_case names, absent
 * fields omitted, {@code data_abertura} as an ISO date, {@code capital_social} as a JSON number in
 * plain notation, codes as strings with their leading zeros. Straight into the response's bytes: each
 * field name with its quotes and colon is a constant, written with the comma before it.
 */
final class EmpresaJson {
    private static final byte[] CNPJ = name("cnpj");
    private static final byte[] RAZAO_SOCIAL = name("razao_social");
    private static final byte[] NOME_FANTASIA = name("nome_fantasia");
    private static final byte[] SITUACAO_CADASTRAL = name("situacao_cadastral");
    private static final byte[] SITUACAO_DESCRICAO = name("situacao_descricao");
    private static final byte[] CNAE = name("cnae");
    private static final byte[] CNAE_DESCRICAO = name("cnae_descricao");
    private static final byte[] NATUREZA_JURIDICA = name("natureza_juridica");
    private static final byte[] NATUREZA_DESCRICAO = name("natureza_descricao");
    private static final byte[] PORTE = name("porte");
    private static final byte[] PORTE_DESCRICAO = name("porte_descricao");
    private static final byte[] CAPITAL_SOCIAL = name("capital_social");
    private static final byte[] DATA_ABERTURA = name("data_abertura");
    private static final byte[] UF = name("uf");
    private static final byte[] MUNICIPIO = name("municipio");
    private static final byte[] BAIRRO = name("bairro");
    private static final byte[] CEP = name("cep");
    private static final byte[] LOGRADOURO = name("logradouro");
    private static final byte[] TELEFONE = name("telefone");
    private static final byte[] EMAIL = name("email");

    private EmpresaJson() {}

    /** {@code ,"name":}; the comma is skipped for an object's first field. */
    private static byte[] name(String name) {
        return JsonBytes.ascii(",\"" + name + "\":");
    }

    static void write(JsonBytes out, Empresa e) {
        out.raw('{');
        boolean first = true;
        first = text(out, first, CNPJ, e.cnpj());
        first = text(out, first, RAZAO_SOCIAL, e.razaoSocial());
        first = text(out, first, NOME_FANTASIA, e.nomeFantasia());
        first = text(out, first, SITUACAO_CADASTRAL, e.situacaoCadastral());
        first = text(out, first, SITUACAO_DESCRICAO, e.situacaoDescricao());
        first = text(out, first, CNAE, e.cnae());
        first = text(out, first, CNAE_DESCRICAO, e.cnaeDescricao());
        first = text(out, first, NATUREZA_JURIDICA, e.naturezaJuridica());
        first = text(out, first, NATUREZA_DESCRICAO, e.naturezaDescricao());
        first = text(out, first, PORTE, e.porte());
        first = text(out, first, PORTE_DESCRICAO, e.porteDescricao());
        if (e.capitalSocial() != null) {
            field(out, first, CAPITAL_SOCIAL).number(e.capitalSocial());
            first = false;
        }
        if (e.dataAbertura() != null) {
            field(out, first, DATA_ABERTURA).ascii(e.dataAbertura().toString(), true);
            first = false;
        }
        first = text(out, first, UF, e.uf());
        first = text(out, first, MUNICIPIO, e.municipio());
        first = text(out, first, BAIRRO, e.bairro());
        first = text(out, first, CEP, e.cep());
        first = text(out, first, LOGRADOURO, e.logradouro());
        first = text(out, first, TELEFONE, e.telefone());
        text(out, first, EMAIL, e.email());
        out.raw('}');
    }

    private static boolean text(JsonBytes out, boolean first, byte[] name, String value) {
        if (value == null) {
            return first;
        }
        field(out, first, name).string(value);
        return false;
    }

    private static JsonBytes field(JsonBytes out, boolean first, byte[] name) {
        return first ? out.raw(name, 1) : out.raw(name);
    }
}
