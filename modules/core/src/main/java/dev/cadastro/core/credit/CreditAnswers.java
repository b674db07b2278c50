package dev.cadastro.core.credit;

import dev.cadastro.core.credit.CreditReport.ChequeSemFundo;
import dev.cadastro.core.credit.CreditReport.Consulta;
import dev.cadastro.core.credit.CreditReport.DividaVencida;
import dev.cadastro.core.credit.CreditReport.Negativacao;
import dev.cadastro.core.credit.CreditReport.Protesto;
import dev.cadastro.core.credit.CreditReport.Socio;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.internal.AnswerNode;
import dev.cadastro.core.internal.AnswerTree;
import dev.cadastro.core.provider.Allowlist;
import dev.cadastro.core.provider.MalformedAnswerException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The codec of the credit bureau's report: the report allowlist, the reading of a raw answer tree into
 * a {@link CreditReport} (filter first, then validate), and the tree of a {@link CreditReport}. The wire
 * names are the record components' names in snake case.
 */
public final class CreditAnswers {

    /**
     * Every field of a report that may reach Cadastro. The holder's personal blocks (parentage, date of
     * birth, addresses, phones, e-mails, voter card, other documents) and anything the bureau adds later
     * are not here, so they are dropped.
     */
    public static final Allowlist ALLOWLIST = Allowlist.of(
            "documento",
            "tipo_documento",
            "nome",
            "negativacoes[].credor",
            "negativacoes[].natureza",
            "negativacoes[].valor",
            "negativacoes[].data_ocorrencia",
            "negativacoes[].uf",
            "protestos[].cartorio",
            "protestos[].municipio",
            "protestos[].uf",
            "protestos[].valor",
            "protestos[].data",
            "cheques_sem_fundo[].banco",
            "cheques_sem_fundo[].agencia",
            "cheques_sem_fundo[].motivo",
            "cheques_sem_fundo[].quantidade",
            "cheques_sem_fundo[].data_ultimo",
            "dividas_vencidas[].credor",
            "dividas_vencidas[].natureza",
            "dividas_vencidas[].valor",
            "dividas_vencidas[].vencimento",
            "consultas_recentes[].consultante",
            "consultas_recentes[].segmento",
            "consultas_recentes[].data",
            "socios[].nome",
            "socios[].documento",
            "socios[].qualificacao",
            "socios[].participacao",
            "socios[].data_entrada");

    public static final Set<String> TIPOS_DOCUMENTO = Set.of("CPF", "CNPJ");

    private static final Pattern UF = Pattern.compile("[A-Z]{2}");
    private static final BigDecimal MAX_AMOUNT = new BigDecimal("1000000000000");
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private CreditAnswers() {}

    /**
     * Filters the raw report through {@link #ALLOWLIST} and reads it.
     *
     * @throws MalformedAnswerException naming the path and the rule when a required field is missing,
     *     a field has the wrong type, format or range, or the report is about another document
     */
    public static CreditReport read(Map<String, ?> tree, TaxId asked) {
        Objects.requireNonNull(asked, "asked");
        AnswerNode root = AnswerNode.allowed(tree, ALLOWLIST, "credit report");
        String documento = root.string("documento", true);
        if (!documento.equals(asked.canonical())) {
            throw root.malformed("documento", "must be the document asked for, canonical");
        }
        String tipo = root.oneOf("tipo_documento", true, TIPOS_DOCUMENTO);
        if (!tipo.equals(asked instanceof Cpf ? "CPF" : "CNPJ")) {
            throw root.malformed("tipo_documento", "must match the document asked for");
        }
        return new CreditReport(
                documento,
                tipo,
                root.string("nome", false),
                AnswerNode.each(
                        root.objects("negativacoes"),
                        n -> new Negativacao(
                                n.text("credor", true),
                                n.string("natureza", false),
                                amount(n, "valor"),
                                n.date("data_ocorrencia", true),
                                n.string("uf", false, UF, "must be a state abbreviation of 2 upper-case letters"))),
                AnswerNode.each(
                        root.objects("protestos"),
                        n -> new Protesto(
                                n.string("cartorio", false),
                                n.string("municipio", false),
                                n.string("uf", false, UF, "must be a state abbreviation of 2 upper-case letters"),
                                amount(n, "valor"),
                                n.date("data", true))),
                AnswerNode.each(
                        root.objects("cheques_sem_fundo"),
                        n -> new ChequeSemFundo(
                                n.text("banco", true),
                                n.string("agencia", false),
                                n.string("motivo", false),
                                n.integer("quantidade", 1, 100_000),
                                n.date("data_ultimo", false))),
                AnswerNode.each(
                        root.objects("dividas_vencidas"),
                        n -> new DividaVencida(
                                n.text("credor", true),
                                n.string("natureza", false),
                                amount(n, "valor"),
                                n.date("vencimento", true))),
                AnswerNode.each(
                        root.objects("consultas_recentes"),
                        n -> new Consulta(
                                n.text("consultante", true), n.string("segmento", false), n.date("data", true))),
                AnswerNode.each(
                        root.objects("socios"),
                        n -> new Socio(
                                n.text("nome", true),
                                n.string(
                                        "documento",
                                        true,
                                        CreditAnswers::isCanonicalDocument,
                                        "must be a valid CPF (11 digits) or CNPJ (14 characters), canonical"),
                                n.string("qualificacao", false),
                                n.decimal("participacao", false, BigDecimal.ZERO, HUNDRED, 4),
                                n.date("data_entrada", false))));
    }

    private static BigDecimal amount(AnswerNode n, String key) {
        return n.decimal(key, true, BigDecimal.ZERO, MAX_AMOUNT, 2);
    }

    private static boolean isCanonicalDocument(String s) {
        return (s.length() == 11 && Cpf.isValid(s))
                || (s.length() == 14 && Cnpj.isValid(s) && s.equals(s.toUpperCase(Locale.ROOT)));
    }

    /** The tree of a report: snake-case keys in component order, null fields omitted, lists present. */
    public static Map<String, Object> tree(CreditReport r) {
        AnswerTree t = new AnswerTree()
                .put("documento", r.documento())
                .put("tipo_documento", r.tipoDocumento())
                .put("nome", r.nome());
        t.list(
                "negativacoes",
                AnswerTree.items(
                        r.negativacoes(),
                        n -> new AnswerTree()
                                .put("credor", n.credor())
                                .put("natureza", n.natureza())
                                .put("valor", n.valor())
                                .put("data_ocorrencia", n.dataOcorrencia())
                                .put("uf", n.uf())));
        t.list(
                "protestos",
                AnswerTree.items(
                        r.protestos(),
                        p -> new AnswerTree()
                                .put("cartorio", p.cartorio())
                                .put("municipio", p.municipio())
                                .put("uf", p.uf())
                                .put("valor", p.valor())
                                .put("data", p.data())));
        t.list(
                "cheques_sem_fundo",
                AnswerTree.items(
                        r.chequesSemFundo(),
                        c -> new AnswerTree()
                                .put("banco", c.banco())
                                .put("agencia", c.agencia())
                                .put("motivo", c.motivo())
                                .put("quantidade", c.quantidade())
                                .put("data_ultimo", c.dataUltimo())));
        t.list(
                "dividas_vencidas",
                AnswerTree.items(
                        r.dividasVencidas(),
                        d -> new AnswerTree()
                                .put("credor", d.credor())
                                .put("natureza", d.natureza())
                                .put("valor", d.valor())
                                .put("vencimento", d.vencimento())));
        t.list(
                "consultas_recentes",
                AnswerTree.items(
                        r.consultasRecentes(),
                        c -> new AnswerTree()
                                .put("consultante", c.consultante())
                                .put("segmento", c.segmento())
                                .put("data", c.data())));
        t.list(
                "socios",
                AnswerTree.items(
                        r.socios(),
                        s -> new AnswerTree()
                                .put("nome", s.nome())
                                .put("documento", s.documento())
                                .put("qualificacao", s.qualificacao())
                                .put("participacao", s.participacao())
                                .put("data_entrada", s.dataEntrada())));
        return t.map();
    }
}
