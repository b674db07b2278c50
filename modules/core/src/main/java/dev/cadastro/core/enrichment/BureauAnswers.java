package dev.cadastro.core.enrichment;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.enrichment.BureauCompany.Atividade;
import dev.cadastro.core.enrichment.BureauCompany.Complementos;
import dev.cadastro.core.enrichment.BureauCompany.Operacao;
import dev.cadastro.core.enrichment.BureauCompany.Porte;
import dev.cadastro.core.enrichment.BureauCompany.Representante;
import dev.cadastro.core.enrichment.BureauCompany.Risco;
import dev.cadastro.core.enrichment.BureauCompany.Sinal;
import dev.cadastro.core.enrichment.BureauCompany.Socio;
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
import java.util.regex.Pattern;

/**
 * The codec of the bureau's answer on one establishment: the enrichment allowlist, the reading of a
 * raw answer tree into a {@link BureauCompany} (filter first, then validate), and the tree of a {@link
 * BureauCompany} (what a response or a simulated bureau writes). The wire names are the record
 * components' names in snake case.
 */
public final class BureauAnswers {

    /**
     * Every field of the enrichment that may reach Cadastro. A partner's home address, phones, e-mail,
     * date of birth, parentage and anything the bureau adds later are not here, so they are dropped.
     */
    public static final Allowlist ALLOWLIST = Allowlist.of(
            "cnpj",
            "porte.codigo",
            "porte.descricao",
            "porte.faixa_funcionarios",
            "porte.faixa_faturamento",
            "operacao.em_operacao",
            "operacao.tipo_unidade",
            "operacao.quantidade_filiais",
            "operacao.site",
            "operacao.atualizado_em",
            "atividades_secundarias[].codigo",
            "atividades_secundarias[].descricao",
            "complementos.inscricao_estadual",
            "complementos.inscricao_municipal",
            "complementos.nire",
            "complementos.regime_tributario",
            "complementos.opcao_simples",
            "complementos.opcao_mei",
            "socios[].tipo",
            "socios[].nome",
            "socios[].cpf",
            "socios[].cnpj",
            "socios[].qualificacao",
            "socios[].data_entrada",
            "socios[].participacao",
            "socios[].faixa_etaria",
            "socios[].pais",
            "socios[].representante_legal.nome",
            "socios[].representante_legal.cpf",
            "socios[].representante_legal.qualificacao",
            "risco.nivel",
            "risco.score",
            "risco.sinais[].codigo",
            "risco.sinais[].descricao",
            "risco.sinais[].gravidade",
            "risco.sinais[].desde");

    /** The register's size codes. */
    public static final Set<String> PORTES = Set.of("00", "01", "03", "05");

    public static final Set<String> TIPOS_UNIDADE = Set.of("matriz", "filial");
    public static final Set<String> REGIMES = Set.of("simples_nacional", "mei", "lucro_presumido", "lucro_real");
    public static final Set<String> TIPOS_SOCIO = Set.of("PF", "PJ", "ESTRANGEIRO");
    public static final Set<String> NIVEIS = Set.of("baixo", "medio", "alto");
    public static final Set<String> GRAVIDADES = Set.of("baixa", "media", "alta");

    private static final Pattern CNAE = Pattern.compile("\\d{7}");
    private static final Pattern MASKED_CPF = Pattern.compile("\\*\\*\\*\\d{6}\\*\\*");
    private static final Pattern SIGNAL_CODE = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private BureauAnswers() {}

    /**
     * Filters the raw answer through {@link #ALLOWLIST} and reads it.
     *
     * @throws MalformedAnswerException naming the path and the rule when a required field is missing,
     *     a field has the wrong type, format or range, or the answer is about another CNPJ
     */
    public static BureauCompany read(Map<String, ?> tree, Cnpj asked) {
        Objects.requireNonNull(asked, "asked");
        AnswerNode root = AnswerNode.allowed(tree, ALLOWLIST, "bureau answer");
        String cnpj = root.string("cnpj", true, Cnpj::isValid, "must be a valid CNPJ");
        if (!cnpj.equals(asked.value())) {
            throw root.malformed("cnpj", "must be the CNPJ asked for, canonical");
        }
        return new BureauCompany(
                cnpj,
                porte(root.object("porte", false)),
                operacao(root.object("operacao", false)),
                atividades(root.objects("atividades_secundarias")),
                complementos(root.object("complementos", false)),
                socios(root.objects("socios")),
                risco(root.object("risco", false)));
    }

    private static Porte porte(AnswerNode n) {
        if (n == null) {
            return null;
        }
        return new Porte(
                n.oneOf("codigo", true, PORTES),
                n.string("descricao", false),
                n.string("faixa_funcionarios", false),
                n.string("faixa_faturamento", false));
    }

    private static Operacao operacao(AnswerNode n) {
        if (n == null) {
            return null;
        }
        return new Operacao(
                n.bool("em_operacao", true),
                n.oneOf("tipo_unidade", true, TIPOS_UNIDADE),
                n.integer("quantidade_filiais", 0, 99_999),
                n.string("site", false),
                n.date("atualizado_em", false));
    }

    private static List<Atividade> atividades(List<AnswerNode> nodes) {
        List<Atividade> out = new ArrayList<>(nodes.size());
        for (AnswerNode n : nodes) {
            out.add(new Atividade(
                    n.string("codigo", true, CNAE, "must be a CNAE code of 7 digits"), n.string("descricao", false)));
        }
        return out;
    }

    private static Complementos complementos(AnswerNode n) {
        if (n == null) {
            return null;
        }
        return new Complementos(
                n.string("inscricao_estadual", false),
                n.string("inscricao_municipal", false),
                n.string("nire", false),
                n.oneOf("regime_tributario", false, REGIMES),
                n.bool("opcao_simples", false),
                n.bool("opcao_mei", false));
    }

    private static List<Socio> socios(List<AnswerNode> nodes) {
        List<Socio> out = new ArrayList<>(nodes.size());
        for (AnswerNode n : nodes) {
            String tipo = n.oneOf("tipo", true, TIPOS_SOCIO);
            String cpf = n.string(
                    "cpf",
                    tipo.equals("PF"),
                    s -> s.length() == 11 && Cpf.isValid(s),
                    "must be a valid CPF of 11 digits");
            String cnpj = n.string(
                    "cnpj", tipo.equals("PJ"), s -> s.length() == 14 && isCanonicalCnpj(s), "must be a valid CNPJ");
            if (cpf != null && !tipo.equals("PF")) {
                throw n.malformed("cpf", "is only for a partner of tipo PF");
            }
            if (cnpj != null && !tipo.equals("PJ")) {
                throw n.malformed("cnpj", "is only for a partner of tipo PJ");
            }
            AnswerNode rep = n.object("representante_legal", false);
            out.add(new Socio(
                    tipo,
                    n.text("nome", true),
                    cpf,
                    cnpj,
                    n.string("qualificacao", false),
                    n.date("data_entrada", false),
                    n.decimal("participacao", false, BigDecimal.ZERO, HUNDRED, 4),
                    n.string("faixa_etaria", false),
                    n.string("pais", false),
                    rep == null
                            ? null
                            : new Representante(
                                    rep.string("nome", false),
                                    rep.string("cpf", false, MASKED_CPF, "must be a masked CPF ***NNNNNN**"),
                                    rep.string("qualificacao", false))));
        }
        return out;
    }

    private static boolean isCanonicalCnpj(String s) {
        return Cnpj.isValid(s) && s.equals(s.toUpperCase(java.util.Locale.ROOT));
    }

    private static Risco risco(AnswerNode n) {
        if (n == null) {
            return null;
        }
        String nivel = n.oneOf("nivel", true, NIVEIS);
        int score = n.integer("score", 0, 1000);
        List<Sinal> sinais = new ArrayList<>();
        for (AnswerNode s : n.objects("sinais")) {
            sinais.add(new Sinal(
                    s.string("codigo", true, SIGNAL_CODE, "must be an upper-case code [A-Z][A-Z0-9_]*"),
                    s.string("descricao", false),
                    s.oneOf("gravidade", true, GRAVIDADES),
                    s.date("desde", false)));
        }
        return new Risco(nivel, score, sinais);
    }

    /** The tree of a company: snake-case keys in component order, null fields omitted, lists present. */
    public static Map<String, Object> tree(BureauCompany c) {
        AnswerTree t = new AnswerTree().put("cnpj", c.cnpj());
        if (c.porte() != null) {
            Porte p = c.porte();
            t.put(
                    "porte",
                    new AnswerTree()
                            .put("codigo", p.codigo())
                            .put("descricao", p.descricao())
                            .put("faixa_funcionarios", p.faixaFuncionarios())
                            .put("faixa_faturamento", p.faixaFaturamento()));
        }
        if (c.operacao() != null) {
            Operacao o = c.operacao();
            t.put(
                    "operacao",
                    new AnswerTree()
                            .put("em_operacao", o.emOperacao())
                            .put("tipo_unidade", o.tipoUnidade())
                            .put("quantidade_filiais", o.quantidadeFiliais())
                            .put("site", o.site())
                            .put("atualizado_em", o.atualizadoEm()));
        }
        List<Map<String, Object>> atividades = new ArrayList<>();
        for (Atividade a : c.atividadesSecundarias()) {
            atividades.add(new AnswerTree()
                    .put("codigo", a.codigo())
                    .put("descricao", a.descricao())
                    .map());
        }
        t.list("atividades_secundarias", atividades);
        if (c.complementos() != null) {
            Complementos k = c.complementos();
            t.put(
                    "complementos",
                    new AnswerTree()
                            .put("inscricao_estadual", k.inscricaoEstadual())
                            .put("inscricao_municipal", k.inscricaoMunicipal())
                            .put("nire", k.nire())
                            .put("regime_tributario", k.regimeTributario())
                            .put("opcao_simples", k.opcaoSimples())
                            .put("opcao_mei", k.opcaoMei()));
        }
        List<Map<String, Object>> socios = new ArrayList<>();
        for (Socio s : c.socios()) {
            AnswerTree st = new AnswerTree()
                    .put("tipo", s.tipo())
                    .put("nome", s.nome())
                    .put("cpf", s.cpf())
                    .put("cnpj", s.cnpj())
                    .put("qualificacao", s.qualificacao())
                    .put("data_entrada", s.dataEntrada())
                    .put("participacao", s.participacao())
                    .put("faixa_etaria", s.faixaEtaria())
                    .put("pais", s.pais());
            if (s.representanteLegal() != null) {
                Representante r = s.representanteLegal();
                st.put(
                        "representante_legal",
                        new AnswerTree()
                                .put("nome", r.nome())
                                .put("cpf", r.cpf())
                                .put("qualificacao", r.qualificacao()));
            }
            socios.add(st.map());
        }
        t.list("socios", socios);
        if (c.risco() != null) {
            Risco r = c.risco();
            List<Map<String, Object>> sinais = new ArrayList<>();
            for (Sinal s : r.sinais()) {
                sinais.add(new AnswerTree()
                        .put("codigo", s.codigo())
                        .put("descricao", s.descricao())
                        .put("gravidade", s.gravidade())
                        .put("desde", s.desde())
                        .map());
            }
            t.put(
                    "risco",
                    new AnswerTree()
                            .put("nivel", r.nivel())
                            .put("score", r.score())
                            .list("sinais", sinais));
        }
        return t.map();
    }
}
