package dev.cadastro.core.register;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * The company record the service delivers. Every field is optional;
 * absent ones are null. The JSON names are the component names in snake case ({@code razaoSocial} is
 * {@code razao_social}); {@code situacaoCadastral} keeps its leading zero ({@code "02"}).
 *
 * @param cnpj 14 characters, no punctuation
 * @param municipio municipality name
 * @param telefone first usable phone, formatted {@code (11) 91234-5678}
 */
public record Empresa(
        String cnpj,
        String razaoSocial,
        String nomeFantasia,
        String situacaoCadastral,
        String situacaoDescricao,
        String cnae,
        String cnaeDescricao,
        String naturezaJuridica,
        String naturezaDescricao,
        String porte,
        String porteDescricao,
        BigDecimal capitalSocial,
        LocalDate dataAbertura,
        String uf,
        String municipio,
        String bairro,
        String cep,
        String logradouro,
        String telefone,
        String email) {}
