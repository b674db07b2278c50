package dev.cadastro.core.enrichment;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * The bureau's answer on one establishment, after the enrichment allowlist: only these fields exist.
 * On the wire (the bureau's answer and our response) each name is the component's name in snake
 * case ({@code atividadesSecundarias} is {@code atividades_secundarias}). Optional fields are null;
 * lists are never null.
 *
 * @param cnpj 14 characters, no punctuation; must be the CNPJ asked for
 * @param porte size of the company
 * @param operacao how it operates
 * @param atividadesSecundarias secondary CNAE activities
 * @param complementos registry complements
 * @param socios the extended partner structure: complete CPFs of natural persons
 * @param risco risk signals
 */
public record BureauCompany(
        String cnpj,
        Porte porte,
        Operacao operacao,
        List<Atividade> atividadesSecundarias,
        Complementos complementos,
        List<Socio> socios,
        Risco risco) {

    public BureauCompany {
        atividadesSecundarias = List.copyOf(atividadesSecundarias);
        socios = List.copyOf(socios);
    }

    /**
     * @param codigo the register's size code ({@code 00}, {@code 01}, {@code 03}, {@code 05})
     * @param faixaFuncionarios employee band, e.g. {@code "10 a 49"}
     * @param faixaFaturamento yearly revenue band, e.g. {@code "R$ 360 mil a R$ 4,8 milhoes"}
     */
    public record Porte(String codigo, String descricao, String faixaFuncionarios, String faixaFaturamento) {}

    /**
     * @param emOperacao whether the bureau sees activity (invoices, payments) in the last 12 months
     * @param tipoUnidade {@code matriz} or {@code filial}
     * @param quantidadeFiliais branches of the company
     * @param atualizadoEm when the bureau last refreshed the record
     */
    public record Operacao(
            boolean emOperacao, String tipoUnidade, int quantidadeFiliais, String site, LocalDate atualizadoEm) {}

    /** A CNAE activity: 7 digits and its description. */
    public record Atividade(String codigo, String descricao) {}

    /**
     * @param regimeTributario e.g. {@code simples_nacional}, {@code lucro_presumido}, {@code lucro_real}
     */
    public record Complementos(
            String inscricaoEstadual,
            String inscricaoMunicipal,
            String nire,
            String regimeTributario,
            Boolean opcaoSimples,
            Boolean opcaoMei) {}

    /**
     * A partner: the public structure of the register (QSA) completed by the bureau.
     *
     * @param tipo {@code PF}, {@code PJ} or {@code ESTRANGEIRO}
     * @param cpf the complete CPF (11 digits) of a natural person, null otherwise
     * @param cnpj the CNPJ of a company partner (14 characters), null otherwise
     * @param qualificacao the partner's qualification as the register describes it, e.g. {@code
     *     Socio-Administrador}
     * @param participacao share of the capital in percent (0 to 100), when the bureau knows it
     * @param faixaEtaria the register's age band, e.g. {@code 31 a 40 anos}
     * @param pais the country of a foreign partner
     * @param representanteLegal the legal representative, when there is one
     */
    public record Socio(
            String tipo,
            String nome,
            String cpf,
            String cnpj,
            String qualificacao,
            LocalDate dataEntrada,
            BigDecimal participacao,
            String faixaEtaria,
            String pais,
            Representante representanteLegal) {}

    /**
     * A partner's legal representative.
     *
     * @param cpf as the register publishes it, masked ({@code ***NNNNNN**})
     */
    public record Representante(String nome, String cpf, String qualificacao) {}

    /**
     * @param nivel {@code baixo}, {@code medio} or {@code alto}
     * @param score 0 (worst) to 1000 (best)
     */
    public record Risco(String nivel, int score, List<Sinal> sinais) {
        public Risco {
            sinais = List.copyOf(sinais);
        }
    }

    /**
     * One risk signal.
     *
     * @param codigo stable, e.g. {@code SITUACAO_IRREGULAR}, {@code PROTESTOS}, {@code ENDERECO_COMPARTILHADO}
     * @param gravidade {@code baixa}, {@code media} or {@code alta}
     * @param desde when it was first seen, when known
     */
    public record Sinal(String codigo, String descricao, String gravidade, LocalDate desde) {}
}
