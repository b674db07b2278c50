package dev.cadastro.core.person;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * A person's dossier as the bureau gave it, after the written allowlist ({@link PersonAnswers#ALLOWLIST})
 * and validation. What a customer receives is a second cut of it: only the fields the account contracted
 * for the purpose ({@link PersonAnswers#release}). Wire names are the components' names in snake case.
 *
 * @param cpf the person's CPF, 11 digits (the answer of a reverse lookup by phone)
 * @param nome the full name
 * @param nomeSocial the social name, when the person registered one
 * @param dataNascimento the birth date
 * @param sexo {@code F} or {@code M}, as the Receita Federal records it
 * @param nomeMae the mother's name
 * @param situacaoCpf the CPF's status at the Receita Federal ({@link PersonAnswers#SITUACOES})
 * @param obito the death indication: true when a death is recorded for the CPF
 * @param enderecos known addresses, the most recent first
 * @param telefones known phones, the most recent first
 * @param emails known e-mail addresses
 * @param rendaEstimada the estimated monthly income, in reais
 * @param faixaRenda the income band ({@code A} to {@code E})
 * @param score the bureau's credit score, 0 to 1000
 * @param ocupacao the declared occupation
 * @param escolaridade the education level
 */
public record Dossier(
        String cpf,
        String nome,
        String nomeSocial,
        LocalDate dataNascimento,
        String sexo,
        String nomeMae,
        String situacaoCpf,
        Boolean obito,
        List<Endereco> enderecos,
        List<Telefone> telefones,
        List<Email> emails,
        BigDecimal rendaEstimada,
        String faixaRenda,
        Integer score,
        String ocupacao,
        String escolaridade) {
    public Dossier {
        Objects.requireNonNull(cpf, "cpf");
        enderecos = List.copyOf(enderecos);
        telefones = List.copyOf(telefones);
        emails = List.copyOf(emails);
    }

    /** An address. */
    public record Endereco(
            String tipo,
            String logradouro,
            String numero,
            String complemento,
            String bairro,
            String municipio,
            String uf,
            String cep) {}

    /** A phone, area code and number as digits. */
    public record Telefone(String numero, String tipo) {}

    /** An e-mail address. */
    public record Email(String endereco) {}

    @Override
    public String toString() {
        return "Dossier[personal data, not shown]";
    }
}
