package dev.cadastro.core.provider;

import dev.cadastro.core.credit.CreditReport;
import dev.cadastro.core.enrichment.BureauCompany;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Random valid answers for the codec properties, built without the production code: CPFs and CNPJs
 * get their check digits from the textbook modulo-11 rule written out here.
 */
final class RandomAnswers {
    static final String[] PERSONAL_KEYS = {
        "endereco_residencial",
        "telefones",
        "email",
        "data_nascimento",
        "nome_mae",
        "nome_pai",
        "filiacao",
        "enderecos",
        "emails",
        "titulo_eleitor",
        "rg",
        "renda",
        "cpf_conjuge"
    };

    private final SplittableRandom r;

    RandomAnswers(long seed) {
        this.r = new SplittableRandom(seed);
    }

    static String cpf(SplittableRandom r) {
        while (true) {
            int[] d = new int[11];
            for (int i = 0; i < 9; i++) {
                d[i] = r.nextInt(10);
            }
            d[9] = dv(d, 9, 10);
            d[10] = dv(d, 10, 11);
            StringBuilder b = new StringBuilder();
            for (int x : d) {
                b.append(x);
            }
            String s = b.toString();
            if (!s.chars().allMatch(c -> c == s.charAt(0))) {
                return s;
            }
        }
    }

    private static int dv(int[] d, int n, int firstWeight) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += d[i] * (firstWeight - i);
        }
        int rest = sum % 11;
        return rest < 2 ? 0 : 11 - rest;
    }

    static String cnpj(SplittableRandom r) {
        int[] d = new int[14];
        for (int i = 0; i < 8; i++) {
            d[i] = r.nextInt(10);
        }
        d[11] = 1;
        int[] w1 = {5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};
        int[] w2 = {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};
        int s = 0;
        for (int i = 0; i < 12; i++) {
            s += d[i] * w1[i];
        }
        d[12] = s % 11 < 2 ? 0 : 11 - s % 11;
        s = 0;
        for (int i = 0; i < 13; i++) {
            s += d[i] * w2[i];
        }
        d[13] = s % 11 < 2 ? 0 : 11 - s % 11;
        StringBuilder b = new StringBuilder();
        for (int x : d) {
            b.append(x);
        }
        return b.toString();
    }

    <T> T maybe(Supplier<T> s) {
        return r.nextInt(4) == 0 ? null : s.get();
    }

    String text() {
        String[] words = {"ALFA", "beta", "Gama Ltda", "S/A", "Joao da Silva", "acao", "", " ", "X"};
        return words[r.nextInt(words.length)] + (r.nextBoolean() ? "" : " " + r.nextInt(1000));
    }

    String nonBlank() {
        return "N" + text();
    }

    LocalDate date() {
        return LocalDate.of(1990, 1, 1).plusDays(r.nextInt(14_000));
    }

    BigDecimal amount() {
        return BigDecimal.valueOf(r.nextLong(0, 100_000_000_00L), r.nextInt(3));
    }

    BigDecimal share() {
        return BigDecimal.valueOf(r.nextLong(0, 10_001), 2);
    }

    <T> List<T> list(int max, Supplier<T> s) {
        List<T> out = new ArrayList<>();
        for (int i = r.nextInt(max + 1); i > 0; i--) {
            out.add(s.get());
        }
        return out;
    }

    <T> T pick(List<T> values) {
        return values.get(r.nextInt(values.size()));
    }

    BureauCompany company(String cnpj) {
        return new BureauCompany(
                cnpj,
                maybe(() -> new BureauCompany.Porte(
                        pick(List.of("00", "01", "03", "05")),
                        maybe(this::text),
                        maybe(this::text),
                        maybe(this::text))),
                maybe(() -> new BureauCompany.Operacao(
                        r.nextBoolean(),
                        pick(List.of("matriz", "filial")),
                        r.nextInt(0, 100_000),
                        maybe(this::text),
                        maybe(this::date))),
                list(
                        4,
                        () -> new BureauCompany.Atividade(
                                String.format("%07d", r.nextInt(10_000_000)), maybe(this::text))),
                maybe(() -> new BureauCompany.Complementos(
                        maybe(this::text),
                        maybe(this::text),
                        maybe(this::text),
                        maybe(() -> pick(List.of("simples_nacional", "mei", "lucro_presumido", "lucro_real"))),
                        maybe(r::nextBoolean),
                        maybe(r::nextBoolean))),
                list(5, this::socio),
                maybe(() -> new BureauCompany.Risco(
                        pick(List.of("baixo", "medio", "alto")),
                        r.nextInt(0, 1001),
                        list(
                                4,
                                () -> new BureauCompany.Sinal(
                                        pick(List.of("PROTESTOS", "SITUACAO_IRREGULAR", "X1_Y")),
                                        maybe(this::text),
                                        pick(List.of("baixa", "media", "alta")),
                                        maybe(this::date))))));
    }

    private BureauCompany.Socio socio() {
        String tipo = pick(List.of("PF", "PJ", "ESTRANGEIRO"));
        return new BureauCompany.Socio(
                tipo,
                nonBlank(),
                tipo.equals("PF") ? cpf(r) : null,
                tipo.equals("PJ") ? cnpj(r) : null,
                maybe(this::text),
                maybe(this::date),
                maybe(this::share),
                maybe(this::text),
                maybe(this::text),
                maybe(() -> new BureauCompany.Representante(
                        maybe(this::text),
                        maybe(() -> "***" + String.format("%06d", r.nextInt(1_000_000)) + "**"),
                        maybe(this::text))));
    }

    CreditReport report(String documento) {
        return new CreditReport(
                documento,
                documento.length() == 11 ? "CPF" : "CNPJ",
                maybe(this::text),
                list(
                        3,
                        () -> new CreditReport.Negativacao(
                                nonBlank(),
                                maybe(this::text),
                                amount(),
                                date(),
                                maybe(() -> pick(List.of("SP", "RJ", "AM"))))),
                list(
                        3,
                        () -> new CreditReport.Protesto(
                                maybe(this::text),
                                maybe(this::text),
                                maybe(() -> pick(List.of("MG", "BA"))),
                                amount(),
                                date())),
                list(
                        2,
                        () -> new CreditReport.ChequeSemFundo(
                                nonBlank(),
                                maybe(this::text),
                                maybe(this::text),
                                r.nextInt(1, 100_001),
                                maybe(this::date))),
                list(3, () -> new CreditReport.DividaVencida(nonBlank(), maybe(this::text), amount(), date())),
                list(4, () -> new CreditReport.Consulta(nonBlank(), maybe(this::text), date())),
                list(
                        3,
                        () -> new CreditReport.Socio(
                                nonBlank(),
                                r.nextBoolean() ? cpf(r) : cnpj(r),
                                maybe(this::text),
                                maybe(this::share),
                                maybe(this::date))));
    }

    /**
     * A deep copy of the tree with random unknown and personal keys added to every object, holding
     * scalars, objects and lists.
     */
    @SuppressWarnings("unchecked")
    Map<String, Object> withNoise(Map<String, ?> tree) {
        Map<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : tree.entrySet()) {
            Object v = e.getValue();
            if (v instanceof Map<?, ?> m) {
                copy.put(e.getKey(), withNoise((Map<String, ?>) m));
            } else if (v instanceof List<?> l) {
                List<Object> items = new ArrayList<>();
                for (Object item : l) {
                    items.add(item instanceof Map<?, ?> m ? withNoise((Map<String, ?>) m) : item);
                }
                copy.put(e.getKey(), items);
            } else {
                copy.put(e.getKey(), v);
            }
        }
        for (int i = r.nextInt(4); i > 0; i--) {
            String key = r.nextBoolean() ? PERSONAL_KEYS[r.nextInt(PERSONAL_KEYS.length)] : "extra_" + r.nextInt(50);
            if (copy.containsKey(key)) {
                continue;
            }
            Object value = switch (r.nextInt(4)) {
                case 0 -> "valor pessoal " + r.nextInt(100);
                case 1 -> Map.of("logradouro", "RUA A", "cep", "01001000");
                case 2 -> List.of(Map.of("telefone", "11999990000"), "x");
                default -> r.nextInt();
            };
            copy.put(key, value);
        }
        return copy;
    }

    /** Every path of a tree, lists written with {@code []}. */
    static List<String> paths(Map<String, ?> tree) {
        List<String> out = new ArrayList<>();
        walk(tree, "", out);
        return out;
    }

    private static void walk(Object value, String at, List<String> out) {
        if (value instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String p = at.isEmpty() ? String.valueOf(e.getKey()) : at + "." + e.getKey();
                out.add(p);
                walk(e.getValue(), p, out);
            }
        } else if (value instanceof List<?> l) {
            for (Object item : l) {
                if (item instanceof Map<?, ?> || item instanceof List<?>) {
                    walk(item, at + "[]", out);
                }
            }
        }
    }
}
