package dev.cadastro.core.person;

import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.internal.AnswerNode;
import dev.cadastro.core.internal.AnswerTree;
import dev.cadastro.core.provider.Allowlist;
import dev.cadastro.core.provider.MalformedAnswerException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The codec of the person bureau's dossier: the written allowlist, the reading of a raw answer tree into
 * a {@link Dossier} (filter first, then validate), the tree of a {@link Dossier}, and the second,
 * per-account filter: {@link #release} keeps only the fields the account contracted for the purpose.
 */
public final class PersonAnswers {

    /**
     * Every field of a dossier that may reach Cadastro. Anything else the bureau sends (other documents,
     * relatives, the voter card, new fields it adds later) is dropped before reading.
     */
    public static final Allowlist ALLOWLIST = Allowlist.of(
            "cpf",
            "nome",
            "nome_social",
            "data_nascimento",
            "sexo",
            "nome_mae",
            "situacao_cpf",
            "obito",
            "enderecos[].tipo",
            "enderecos[].logradouro",
            "enderecos[].numero",
            "enderecos[].complemento",
            "enderecos[].bairro",
            "enderecos[].municipio",
            "enderecos[].uf",
            "enderecos[].cep",
            "telefones[].numero",
            "telefones[].tipo",
            "emails[].endereco",
            "renda_estimada",
            "faixa_renda",
            "score",
            "ocupacao",
            "escolaridade");

    /** The CPF statuses of the Receita Federal. */
    public static final Set<String> SITUACOES =
            Set.of("REGULAR", "SUSPENSA", "CANCELADA", "PENDENTE_DE_REGULARIZACAO", "NULA", "TITULAR_FALECIDO");

    public static final Set<String> TIPOS_TELEFONE = Set.of("MOVEL", "FIXO");
    public static final Set<String> TIPOS_ENDERECO = Set.of("RESIDENCIAL", "COMERCIAL", "OUTRO");
    public static final Set<String> FAIXAS_RENDA = Set.of("A", "B", "C", "D", "E");

    private static final Pattern UF = Pattern.compile("[A-Z]{2}");
    private static final Pattern CEP = Pattern.compile("[0-9]{8}");
    private static final Pattern PHONE = Pattern.compile("[1-9][0-9]{9,10}");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final BigDecimal MAX_INCOME = new BigDecimal("100000000");

    /** The release allowlist of each contracted field set, built once per distinct set. */
    private static final Map<Set<String>, Allowlist> RELEASES = new ConcurrentHashMap<>();

    private PersonAnswers() {}

    /**
     * Filters the raw dossier through {@link #ALLOWLIST} and reads it.
     *
     * @param asked the subject asked about: a dossier for a CPF must be about that CPF
     * @throws MalformedAnswerException naming the path and the rule, never the value
     */
    public static Dossier read(Map<String, ?> tree, Subject asked) {
        Objects.requireNonNull(asked, "asked");
        AnswerNode root = AnswerNode.allowed(tree, ALLOWLIST, "person dossier");
        String cpf =
                root.string("cpf", true, s -> s.length() == 11 && Cpf.isValid(s), "must be a valid CPF, 11 digits");
        if (asked instanceof Subject.ByCpf byCpf && !byCpf.canonical().equals(cpf)) {
            throw root.malformed("cpf", "must be the CPF asked for");
        }
        return new Dossier(
                cpf,
                root.text("nome", false),
                root.text("nome_social", false),
                root.date("data_nascimento", false),
                root.oneOf("sexo", false, Set.of("F", "M")),
                root.text("nome_mae", false),
                root.oneOf("situacao_cpf", false, SITUACOES),
                root.bool("obito", false),
                AnswerNode.each(
                        optionalObjects(root, "enderecos"),
                        n -> new Dossier.Endereco(
                                n.oneOf("tipo", false, TIPOS_ENDERECO),
                                n.text("logradouro", true),
                                n.string("numero", false),
                                n.string("complemento", false),
                                n.string("bairro", false),
                                n.text("municipio", true),
                                n.string("uf", true, UF, "must be a state abbreviation of 2 upper-case letters"),
                                n.string("cep", false, CEP, "must be 8 digits"))),
                AnswerNode.each(
                        optionalObjects(root, "telefones"),
                        n -> new Dossier.Telefone(
                                n.string("numero", true, PHONE, "must be area code and number, 10 or 11 digits"),
                                n.oneOf("tipo", false, TIPOS_TELEFONE))),
                AnswerNode.each(
                        optionalObjects(root, "emails"),
                        n -> new Dossier.Email(n.string("endereco", true, EMAIL, "must be an e-mail address"))),
                root.decimal("renda_estimada", false, BigDecimal.ZERO, MAX_INCOME, 2),
                root.oneOf("faixa_renda", false, FAIXAS_RENDA),
                !root.has("score") ? null : root.integer("score", 0, 1000),
                root.text("ocupacao", false),
                root.text("escolaridade", false));
    }

    private static List<AnswerNode> optionalObjects(AnswerNode node, String key) {
        return !node.has(key) ? List.of() : node.objects(key);
    }

    /** The tree of a dossier: snake-case keys in component order, null fields omitted, lists present. */
    public static Map<String, Object> tree(Dossier d) {
        AnswerTree t = new AnswerTree()
                .put("cpf", d.cpf())
                .put("nome", d.nome())
                .put("nome_social", d.nomeSocial())
                .put("data_nascimento", d.dataNascimento())
                .put("sexo", d.sexo())
                .put("nome_mae", d.nomeMae())
                .put("situacao_cpf", d.situacaoCpf())
                .put("obito", d.obito());
        t.list(
                "enderecos",
                AnswerTree.items(
                        d.enderecos(),
                        e -> new AnswerTree()
                                .put("tipo", e.tipo())
                                .put("logradouro", e.logradouro())
                                .put("numero", e.numero())
                                .put("complemento", e.complemento())
                                .put("bairro", e.bairro())
                                .put("municipio", e.municipio())
                                .put("uf", e.uf())
                                .put("cep", e.cep())));
        t.list(
                "telefones",
                AnswerTree.items(
                        d.telefones(),
                        p -> new AnswerTree().put("numero", p.numero()).put("tipo", p.tipo())));
        t.list("emails", AnswerTree.items(d.emails(), e -> new AnswerTree().put("endereco", e.endereco())));
        t.put("renda_estimada", d.rendaEstimada())
                .put("faixa_renda", d.faixaRenda())
                .put("score", d.score())
                .put("ocupacao", d.ocupacao())
                .put("escolaridade", d.escolaridade());
        return t.map();
    }

    /**
     * The dossier's tree cut to the fields an account contracted for a purpose. A contracted name
     * releases the field of that name and, for a block, everything under it: {@code enderecos} releases
     * whole addresses, {@code enderecos.cep} (or {@code enderecos[].cep}) only their postal codes. Any
     * other field is removed, whatever the bureau sent.
     */
    public static Map<String, Object> release(Dossier dossier, Set<String> contracted) {
        return releaseList(contracted).filter(tree(dossier));
    }

    /** The allowlist that {@link #release} applies for these contracted fields. */
    public static Allowlist releaseList(Set<String> contracted) {
        Objects.requireNonNull(contracted, "contracted");
        return RELEASES.computeIfAbsent(Set.copyOf(contracted), PersonAnswers::buildRelease);
    }

    private static Allowlist buildRelease(Set<String> contracted) {
        Set<String> names = new TreeSet<>();
        for (String field : contracted) {
            names.add(field.replace("[]", ""));
        }
        List<String> released = new ArrayList<>();
        for (String path : ALLOWLIST.paths()) {
            String plain = path.replace("[]", "");
            for (String name : names) {
                if (plain.equals(name) || plain.startsWith(name + ".")) {
                    released.add(path);
                    break;
                }
            }
        }
        return Allowlist.of(released.toArray(String[]::new));
    }

    /** The names of the top-level fields present in a released tree, sorted: what the audit row lists. */
    public static List<String> fieldsOf(Map<String, Object> released) {
        List<String> out = new ArrayList<>();
        released.forEach((k, v) -> {
            if (!(v instanceof List<?> list) || !list.isEmpty()) {
                out.add(k);
            }
        });
        out.sort(null);
        return out;
    }
}
