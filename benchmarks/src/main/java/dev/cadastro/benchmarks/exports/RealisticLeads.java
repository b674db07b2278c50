package dev.cadastro.benchmarks.exports;

import dev.cadastro.core.register.Empresa;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.SplittableRandom;

/** Company records shaped like the register's: codes with leading zeros, accented names, some fields absent. */
public final class RealisticLeads {
    private static final String[] WORDS = {
        "COMÉRCIO", "SERVIÇOS", "INDÚSTRIA", "PADARIA", "SÃO", "JOÃO", "CONSTRUÇÕES", "TRANSPORTES", "LTDA",
        "ALIMENTOS", "AÇAÍ", "DISTRIBUIDORA", "TECNOLOGIA", "SAÚDE", "EDUCAÇÃO", "BRASIL", "PAULISTA", "MINAS",
        "NORDESTE", "IRMÃOS", "FILHOS", "& CIA", "ME", "EIRELI", "AGROPECUÁRIA", "CONFECÇÕES", "ÓTICA"
    };
    private static final String[] CITIES = {
        "SÃO PAULO",
        "RIO DE JANEIRO",
        "BELO HORIZONTE",
        "BRASÍLIA",
        "SALVADOR",
        "FORTALEZA",
        "CURITIBA",
        "MANAUS",
        "RECIFE",
        "GOIÂNIA",
        "BELÉM",
        "PORTO ALEGRE",
        "SÃO LUÍS",
        "MACEIÓ",
        "CUIABÁ"
    };
    private static final String[] UFS = {"SP", "RJ", "MG", "DF", "BA", "CE", "PR", "AM", "PE", "GO", "PA", "RS"};
    private static final String[] SITUACOES = {"02", "02", "02", "04", "08"};
    private static final String[] SITUACAO_DESCRICOES = {"ATIVA", "ATIVA", "ATIVA", "INAPTA", "BAIXADA"};
    private static final String[] PORTES = {"01", "03", "05"};
    private static final String[] PORTE_DESCRICOES = {"MICRO EMPRESA", "EMPRESA DE PEQUENO PORTE", "DEMAIS"};

    private RealisticLeads() {}

    static String word(SplittableRandom random) {
        return WORDS[random.nextInt(WORDS.length)];
    }

    private static String digits(SplittableRandom random, int n) {
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(c);
    }

    private static String words(SplittableRandom random, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(word(random));
        }
        return sb.toString();
    }

    /** {@code n} records shaped like the register's (names, places, phones, e-mails, a tenth sparse). */
    public static Empresa[] generate(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Empresa[] leads = new Empresa[n];
        for (int i = 0; i < n; i++) {
            int situacao = random.nextInt(SITUACOES.length);
            int porte = random.nextInt(PORTES.length);
            int city = random.nextInt(CITIES.length);
            boolean sparse = random.nextInt(10) == 0;
            String ddd = String.valueOf(11 + random.nextInt(88));
            leads[i] = new Empresa(
                    "0" + digits(random, 13),
                    words(random, 2 + random.nextInt(3)),
                    sparse ? null : words(random, 1 + random.nextInt(2)),
                    SITUACOES[situacao],
                    SITUACAO_DESCRICOES[situacao],
                    "0" + digits(random, 6),
                    "Comércio varejista de " + word(random).toLowerCase(java.util.Locale.ROOT),
                    "2" + digits(random, 3),
                    "Sociedade Empresária Limitada",
                    PORTES[porte],
                    PORTE_DESCRICOES[porte],
                    BigDecimal.valueOf(random.nextLong(100_000_000L), 2),
                    LocalDate.ofEpochDay(
                            random.nextLong(LocalDate.of(1960, 1, 1).toEpochDay(), 20_000L)),
                    UFS[city % UFS.length],
                    CITIES[city],
                    sparse ? null : "CENTRO",
                    "0" + digits(random, 7),
                    "RUA " + words(random, 2) + ", " + random.nextInt(5_000),
                    sparse ? null : "(" + ddd + ") 9" + digits(random, 4) + "-" + digits(random, 4),
                    sparse ? null : "contato" + i + "@empresa" + random.nextInt(1000) + ".com.br");
        }
        return leads;
    }
}
