package dev.cadastro.core.credit;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * A normalized credit report after the report allowlist: only these fields exist. Personal blocks of
 * the holder (parentage, date of birth, addresses, phones, e-mails, other documents) are never here.
 * On the wire each name is the component's name in snake case. Amounts are in reais with 2 decimals.
 * Lists are never null.
 *
 * @param documento the CPF or CNPJ asked for, canonical (no punctuation)
 * @param tipoDocumento {@code CPF} or {@code CNPJ}
 * @param nome the holder's name (company name for a CNPJ)
 * @param negativacoes negative listings (credit-protection registers)
 * @param protestos protests at notary offices
 * @param chequesSemFundo bounced cheques
 * @param dividasVencidas overdue debts
 * @param consultasRecentes market inquiries of the last 90 days
 * @param socios partner structure (companies: their partners; persons: companies they take part in)
 */
public record CreditReport(
        String documento,
        String tipoDocumento,
        String nome,
        List<Negativacao> negativacoes,
        List<Protesto> protestos,
        List<ChequeSemFundo> chequesSemFundo,
        List<DividaVencida> dividasVencidas,
        List<Consulta> consultasRecentes,
        List<Socio> socios) {

    public CreditReport {
        negativacoes = List.copyOf(negativacoes);
        protestos = List.copyOf(protestos);
        chequesSemFundo = List.copyOf(chequesSemFundo);
        dividasVencidas = List.copyOf(dividasVencidas);
        consultasRecentes = List.copyOf(consultasRecentes);
        socios = List.copyOf(socios);
    }

    /** @param natureza e.g. {@code financiamento}, {@code cartao_credito}, {@code telefonia} */
    public record Negativacao(String credor, String natureza, BigDecimal valor, LocalDate dataOcorrencia, String uf) {}

    public record Protesto(String cartorio, String municipio, String uf, BigDecimal valor, LocalDate data) {}

    /** @param motivo the clearing-house reason code ({@code alinea}), e.g. {@code 12} */
    public record ChequeSemFundo(String banco, String agencia, String motivo, int quantidade, LocalDate dataUltimo) {}

    public record DividaVencida(String credor, String natureza, BigDecimal valor, LocalDate vencimento) {}

    /** @param segmento the inquirer's market segment, e.g. {@code banco}, {@code varejo} */
    public record Consulta(String consultante, String segmento, LocalDate data) {}

    /**
     * @param documento CPF (complete) or CNPJ, canonical
     * @param participacao share of the capital in percent, when known
     */
    public record Socio(
            String nome, String documento, String qualificacao, BigDecimal participacao, LocalDate dataEntrada) {}
}
