package dev.cadastro.providers.internal;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.sample.WordList;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.SplittableRandom;

/** The pools the simulated providers draw realistic values from. */
public final class SimData {
    private SimData() {}

    /** The date the simulated providers' data is as of: fixed, so answers never depend on the clock. */
    public static final LocalDate AS_OF = LocalDate.of(2026, 10, 1);

    static final String[] FIRST_NAMES = WordList.PROVIDER_FIRST_NAMES.words();
    /** The first 29 of the shared surnames: the answers drawn from them are pinned; the dump generator takes all. */
    static final String[] SURNAMES = Arrays.copyOf(WordList.SURNAMES.words(), 29);

    static final String[] COMPANY_WORDS = WordList.PROVIDER_COMPANY_WORDS.words();
    /** Real CNAE subclasses with their descriptions. */
    public static final String[][] CNAES = {
        {
            "4711302",
            "Comercio varejista de mercadorias em geral, com predominancia de produtos alimenticios - supermercados"
        },
        {
            "4712100",
            "Comercio varejista de mercadorias em geral, com predominancia de produtos alimenticios - minimercados"
        },
        {"4781400", "Comercio varejista de artigos do vestuario e acessorios"},
        {"5611201", "Restaurantes e similares"},
        {"5611203", "Lanchonetes, casas de cha, de sucos e similares"},
        {"4930202", "Transporte rodoviario de carga, exceto produtos perigosos e mudancas, intermunicipal"},
        {"6201501", "Desenvolvimento de programas de computador sob encomenda"},
        {"6202300", "Desenvolvimento e licenciamento de programas de computador customizaveis"},
        {"6204000", "Consultoria em tecnologia da informacao"},
        {"7020400", "Atividades de consultoria em gestao empresarial, exceto consultoria tecnica especifica"},
        {"8211300", "Servicos combinados de escritorio e apoio administrativo"},
        {"4120400", "Construcao de edificios"},
        {"4399103", "Obras de alvenaria"},
        {"4321500", "Instalacao e manutencao eletrica"},
        {"4744099", "Comercio varejista de materiais de construcao em geral"},
        {"4520001", "Servicos de manutencao e reparacao mecanica de veiculos automotores"},
        {"9602501", "Cabeleireiros, manicure e pedicure"},
        {"8599604", "Treinamento em desenvolvimento profissional e gerencial"},
        {"7319002", "Promocao de vendas"},
        {"7490104", "Atividades de intermediacao e agenciamento de servicos e negocios em geral"},
        {"4639701", "Comercio atacadista de produtos alimenticios em geral"},
        {"4661300", "Comercio atacadista de maquinas, aparelhos e equipamentos para uso agropecuario"},
        {"1091102", "Fabricacao de produtos de padaria e confeitaria com predominancia de producao propria"},
        {"8630503", "Atividade medica ambulatorial restrita a consultas"},
        {"6911701", "Servicos advocaticios"},
        {"6920601", "Atividades de contabilidade"},
        {"7112000", "Servicos de engenharia"},
        {"8219999", "Preparacao de documentos e servicos especializados de apoio administrativo"},
        {"4751201", "Comercio varejista especializado de equipamentos e suprimentos de informatica"},
        {"5320202", "Servicos de entrega rapida"}
    };

    static final String[] QUALIFICACOES = {"Socio-Administrador", "Socio", "Administrador", "Presidente", "Diretor"};
    public static final String[] UFS = {
        "SP", "RJ", "MG", "RS", "PR", "SC", "BA", "PE", "CE", "GO", "DF", "ES", "PA", "AM", "MT", "MS"
    };
    public static final String[] CAPITALS = {
        "SAO PAULO",
        "RIO DE JANEIRO",
        "BELO HORIZONTE",
        "PORTO ALEGRE",
        "CURITIBA",
        "FLORIANOPOLIS",
        "SALVADOR",
        "RECIFE",
        "FORTALEZA",
        "GOIANIA",
        "BRASILIA",
        "VITORIA",
        "BELEM",
        "MANAUS",
        "CUIABA",
        "CAMPO GRANDE"
    };

    public static <T> T pick(SplittableRandom r, T[] values) {
        return values[r.nextInt(values.length)];
    }

    public static String personName(SplittableRandom r) {
        return pick(r, FIRST_NAMES) + " " + pick(r, SURNAMES) + " " + pick(r, SURNAMES);
    }

    public static String companyName(SplittableRandom r) {
        return pick(r, SURNAMES) + " " + pick(r, COMPANY_WORDS) + (r.nextBoolean() ? " LTDA" : " EIRELI");
    }

    public static String qualificacao(SplittableRandom r) {
        return pick(r, QUALIFICACOES);
    }

    public static String digits(SplittableRandom r, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) ('0' + r.nextInt(10)));
        }
        return b.toString();
    }

    /** A valid CPF from the generator. */
    public static Cpf cpf(SplittableRandom r) {
        while (true) {
            String nine = digits(r, 9);
            if (!nine.chars().allMatch(c -> c == nine.charAt(0))) {
                return Cpf.withCheckDigits(nine);
            }
        }
    }

    /** A valid numeric head-office CNPJ from the generator. */
    public static Cnpj cnpj(SplittableRandom r) {
        return Cnpj.withCheckDigits(digits(r, 8) + "0001");
    }

    /** A day within {@code days} before {@link #AS_OF}. */
    public static LocalDate daysBefore(SplittableRandom r, int days) {
        return AS_OF.minusDays(r.nextInt(days + 1));
    }

    /** A cents amount between the bounds, in reais with 2 decimals. */
    public static java.math.BigDecimal reais(SplittableRandom r, long minCents, long maxCents) {
        return java.math.BigDecimal.valueOf(minCents + r.nextLong(maxCents - minCents + 1), 2);
    }
}
