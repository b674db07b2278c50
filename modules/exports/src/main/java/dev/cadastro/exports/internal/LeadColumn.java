package dev.cadastro.exports.internal;

import dev.cadastro.core.register.Empresa;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.function.Function;

/**
 * The columns of an export file: every field of {@link Empresa}, in the record's order (the
 * company record on the wire), with its API name, how it is written and a column width for the XLSX.
 */
public enum LeadColumn {
    CNPJ("cnpj", Kind.CODE, 16, Empresa::cnpj),
    RAZAO_SOCIAL("razao_social", Kind.TEXT, 40, Empresa::razaoSocial),
    NOME_FANTASIA("nome_fantasia", Kind.TEXT, 30, Empresa::nomeFantasia),
    SITUACAO_CADASTRAL("situacao_cadastral", Kind.CODE, 8, Empresa::situacaoCadastral),
    SITUACAO_DESCRICAO("situacao_descricao", Kind.TEXT, 14, Empresa::situacaoDescricao),
    CNAE("cnae", Kind.CODE, 10, Empresa::cnae),
    CNAE_DESCRICAO("cnae_descricao", Kind.TEXT, 40, Empresa::cnaeDescricao),
    NATUREZA_JURIDICA("natureza_juridica", Kind.CODE, 8, Empresa::naturezaJuridica),
    NATUREZA_DESCRICAO("natureza_descricao", Kind.TEXT, 30, Empresa::naturezaDescricao),
    PORTE("porte", Kind.CODE, 6, Empresa::porte),
    PORTE_DESCRICAO("porte_descricao", Kind.TEXT, 18, Empresa::porteDescricao),
    CAPITAL_SOCIAL("capital_social", Kind.DECIMAL, 16, Empresa::capitalSocial),
    DATA_ABERTURA("data_abertura", Kind.DATE, 12, Empresa::dataAbertura),
    UF("uf", Kind.TEXT, 5, Empresa::uf),
    MUNICIPIO("municipio", Kind.TEXT, 24, Empresa::municipio),
    BAIRRO("bairro", Kind.TEXT, 22, Empresa::bairro),
    CEP("cep", Kind.CODE, 10, Empresa::cep),
    LOGRADOURO("logradouro", Kind.TEXT, 40, Empresa::logradouro),
    TELEFONE("telefone", Kind.CODE, 16, Empresa::telefone),
    EMAIL("email", Kind.TEXT, 30, Empresa::email);

    /** How a column's values are written. */
    public enum Kind {
        /** Free text: names, descriptions, addresses. */
        TEXT,
        /** A code that must stay text, leading zeros and all: CNPJ, CEP, situação, CNAE, phone. */
        CODE,
        /** A {@link BigDecimal} amount. */
        DECIMAL,
        /** A {@link LocalDate}. */
        DATE
    }

    /** The columns in file order. */
    public static final List<LeadColumn> ALL = List.of(values());

    private final String header;
    private final Kind kind;
    private final double width;
    private final Function<Empresa, ?> field;

    LeadColumn(String header, Kind kind, double width, Function<Empresa, ?> field) {
        this.header = header;
        this.kind = kind;
        this.width = width;
        this.field = field;
    }

    /** The API name of the field, the column's header. */
    public String header() {
        return header;
    }

    public Kind kind() {
        return kind;
    }

    /** Width of the XLSX column, in characters. */
    public double width() {
        return width;
    }

    /** The text of a {@link Kind#TEXT} or {@link Kind#CODE} column, or null. */
    public String text(Empresa empresa) {
        return (String) field.apply(empresa);
    }

    /** The amount of the {@link Kind#DECIMAL} column, or null. */
    public BigDecimal decimal(Empresa empresa) {
        return (BigDecimal) field.apply(empresa);
    }

    /** The date of the {@link Kind#DATE} column, or null. */
    public LocalDate date(Empresa empresa) {
        return (LocalDate) field.apply(empresa);
    }
}
