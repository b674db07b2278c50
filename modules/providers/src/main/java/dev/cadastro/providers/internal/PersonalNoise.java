package dev.cadastro.providers.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The personal and unknown fields a real bureau sends beside what Cadastro may keep: a person's home
 * address, phones, e-mail, date of birth, parentage, other documents, internal scores. The simulated
 * providers put them in every raw answer so the allowlists are exercised on every call.
 */
public final class PersonalNoise {
    private PersonalNoise() {}

    /** A person's personal block, added to the map under keys no allowlist lists. */
    public static void person(Map<String, Object> into, SplittableRandom r, String name) {
        into.put("endereco_residencial", address(r));
        into.put("telefones", phones(r));
        into.put("email", emailOf(name, r));
        into.put(
                "data_nascimento",
                SimData.AS_OF.minusDays(18L * 365 + r.nextInt(50 * 365)).toString());
        into.put("nome_mae", SimData.personName(r));
    }

    /** The holder's personal blocks of a credit report. */
    public static void holder(Map<String, Object> into, SplittableRandom r, String name) {
        Map<String, Object> filiacao = new LinkedHashMap<>();
        filiacao.put("nome_mae", SimData.personName(r));
        filiacao.put("nome_pai", SimData.personName(r));
        into.put("filiacao", filiacao);
        into.put(
                "data_nascimento",
                SimData.AS_OF.minusDays(18L * 365 + r.nextInt(50 * 365)).toString());
        into.put("enderecos", List.of(address(r), address(r)));
        into.put("telefones", phones(r));
        into.put("emails", List.of(emailOf(name, r), emailOf(name, r)));
        into.put("titulo_eleitor", SimData.digits(r, 12));
    }

    /**
     * Many more unknown and personal fields, at this level and under every object and list of objects
     * below it (the {@code ExtraFields} fault).
     */
    @SuppressWarnings("unchecked")
    public static void flood(Map<String, Object> tree, SplittableRandom r) {
        for (Object value : new ArrayList<>(tree.values())) {
            if (value instanceof Map<?, ?> child) {
                flood((Map<String, Object>) child, r);
            } else if (value instanceof List<?> list) {
                for (Object item : list) {
                    if (item instanceof Map<?, ?> child) {
                        flood((Map<String, Object>) child, r);
                    }
                }
            }
        }
        tree.put("rg", SimData.digits(r, 9));
        tree.put("renda_estimada", r.nextInt(2_000, 60_000));
        tree.put("dados_pessoais", Map.of("cpf_conjuge", SimData.cpf(r).digits(), "nome_mae", SimData.personName(r)));
        tree.put("campo_novo_" + r.nextInt(1000), "valor interno do fornecedor");
        tree.put("geolocalizacao", List.of(-23.5 + r.nextDouble(), -46.6 + r.nextDouble()));
    }

    private static Map<String, Object> address(SplittableRandom r) {
        Map<String, Object> a = new LinkedHashMap<>();
        int i = r.nextInt(SimData.UFS.length);
        a.put("logradouro", "RUA " + SimData.pick(r, SimData.SURNAMES));
        a.put("numero", String.valueOf(1 + r.nextInt(3000)));
        a.put("cep", SimData.digits(r, 8));
        a.put("municipio", SimData.CAPITALS[i]);
        a.put("uf", SimData.UFS[i]);
        return a;
    }

    private static List<String> phones(SplittableRandom r) {
        return List.of(
                "(" + (11 + r.nextInt(80)) + ") 9" + SimData.digits(r, 4) + "-" + SimData.digits(r, 4),
                "(" + (11 + r.nextInt(80)) + ") 3" + SimData.digits(r, 3) + "-" + SimData.digits(r, 4));
    }

    private static String emailOf(String name, SplittableRandom r) {
        String user = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z]+", ".");
        return user + r.nextInt(100) + "@exemplo.com.br";
    }
}
