package dev.cadastro.providers;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.enrichment.BureauAnswers;
import dev.cadastro.core.enrichment.BureauCompany;
import dev.cadastro.core.enrichment.CompanyBureau;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.providers.internal.Faults;
import dev.cadastro.providers.internal.PartnerStructure;
import dev.cadastro.providers.internal.PartnerStructure.SimPartner;
import dev.cadastro.providers.internal.PersonalNoise;
import dev.cadastro.providers.internal.Seeds;
import dev.cadastro.providers.internal.SimData;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A deterministic simulated enrichment bureau: the same CNPJ gets the same answer on every run and in
 * every instance. It knows every establishment of the register, and a deterministic tenth of the valid
 * CNPJs the register lacks ({@link #knowsOutsideRegister}). Its partners are the register's public
 * ones (QSA) with each natural person's CPF completed consistently with the published mask, or
 * synthetic ones when the register lists none.
 *
 * <p>Like a real adapter, it builds the raw answer tree a provider would send, with the personal fields
 * Cadastro must not keep (partners' home address, phones, e-mail, date of birth, mother's name, and
 * unknown fields), and reads it through {@link BureauAnswers#read}, which drops them. The {@link
 * FaultPlan} makes calls fail, slow down, answer garbage or flood the answer with extra fields. This
 * class has no timeout or breaker of its own: wrap it with {@link GuardedProviders}.
 *
 * <p>Dates derive from {@link #AS_OF}, never from the clock.
 */
public final class SimulatedBureau implements CompanyBureau {
    /** The provider name used in failures and logs. */
    public static final String NAME = "bureau";

    /** The date the simulated data is as of. */
    public static final LocalDate AS_OF = SimData.AS_OF;

    private static final Map<String, String> PORTE_DESCRICOES =
            Map.of("00", "NAO INFORMADO", "01", "MICRO EMPRESA", "03", "EMPRESA DE PEQUENO PORTE", "05", "DEMAIS");
    private static final Map<String, String[]> FAIXAS = Map.of(
            "00", new String[] {"nao informado", "nao informado"},
            "01", new String[] {"0 a 9", "ate R$ 360 mil"},
            "03", new String[] {"10 a 49", "R$ 360 mil a R$ 4,8 milhoes"},
            "05", new String[] {"50 ou mais", "acima de R$ 4,8 milhoes"});

    private final RegisterSearch register;
    private final FaultPlan faults;

    public SimulatedBureau(RegisterSearch register, FaultPlan faults) {
        this.register = Objects.requireNonNull(register, "register");
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /** True for the deterministic tenth of CNPJs outside the register that this bureau knows. */
    public static boolean knowsOutsideRegister(Cnpj cnpj) {
        return Seeds.percent(10, "bureau-outside", cnpj.value());
    }

    /** The fault plan of this bureau, to change at run time. */
    public FaultPlan faults() {
        return faults;
    }

    @Override
    public Optional<BureauCompany> company(Cnpj cnpj) {
        Objects.requireNonNull(cnpj, "cnpj");
        Optional<Fault> fault = faults.faultFor(cnpj.value());
        Faults.beforeAnswer(NAME, fault);
        Optional<Empresa> record = register.lookup(cnpj);
        if (record.isEmpty() && !knowsOutsideRegister(cnpj)) {
            return Optional.empty();
        }
        Map<String, Object> tree = rawAnswer(cnpj, record.orElse(null));
        Faults.shapeAnswer(fault, cnpj.value(), tree, SimulatedBureau::breakAnswer);
        return Optional.of(BureauAnswers.read(tree, cnpj));
    }

    /** The raw answer the bureau sends, personal fields included. */
    Map<String, Object> rawAnswer(Cnpj cnpj, Empresa e) {
        SplittableRandom r = Seeds.random("bureau", cnpj.value());
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("cnpj", cnpj.value());
        t.put("ultima_atualizacao_interna", AS_OF.minusDays(r.nextInt(30)).toString());

        String porte = e != null && e.porte() != null && PORTE_DESCRICOES.containsKey(e.porte())
                ? e.porte()
                : new String[] {"01", "01", "01", "03", "05", "00"}[r.nextInt(6)];
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("codigo", porte);
        p.put("descricao", PORTE_DESCRICOES.get(porte));
        p.put("faixa_funcionarios", FAIXAS.get(porte)[0]);
        p.put("faixa_faturamento", FAIXAS.get(porte)[1]);
        t.put("porte", p);

        boolean active = e == null ? r.nextInt(10) < 8 : "02".equals(e.situacaoCadastral());
        boolean matriz = cnpj.order().equals("0001");
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("em_operacao", active && r.nextInt(10) < 9);
        o.put("tipo_unidade", matriz ? "matriz" : "filial");
        o.put("quantidade_filiais", matriz ? (r.nextInt(5) == 0 ? 1 + r.nextInt(12) : 0) : 0);
        String name = e != null && e.nomeFantasia() != null && !e.nomeFantasia().isBlank()
                ? e.nomeFantasia()
                : e != null && e.razaoSocial() != null ? e.razaoSocial() : SimData.companyName(r);
        if (r.nextBoolean()) {
            o.put("site", "https://www." + slug(name) + ".com.br");
        }
        o.put("atualizado_em", AS_OF.minusDays(r.nextInt(180)).toString());
        o.put("faturamento_estimado_mensal", r.nextInt(5_000, 5_000_000));
        t.put("operacao", o);

        List<Object> atividades = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (e != null && e.cnae() != null) {
            seen.add(e.cnae());
        }
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            String[] cnae = SimData.pick(r, SimData.CNAES);
            if (seen.add(cnae[0])) {
                Map<String, Object> a = new LinkedHashMap<>();
                a.put("codigo", cnae[0]);
                a.put("descricao", cnae[1]);
                atividades.add(a);
            }
        }
        t.put("atividades_secundarias", atividades);

        Map<String, Object> k = new LinkedHashMap<>();
        k.put("inscricao_estadual", r.nextInt(6) == 0 ? "ISENTO" : SimData.digits(r, 9 + r.nextInt(4)));
        if (r.nextBoolean()) {
            k.put("inscricao_municipal", SimData.digits(r, 7 + r.nextInt(4)));
        }
        if (matriz) {
            k.put("nire", SimData.digits(r, 11));
        }
        boolean mei = porte.equals("01") && r.nextInt(3) == 0;
        boolean simples = mei || (!porte.equals("05") && r.nextInt(3) != 0);
        k.put(
                "regime_tributario",
                mei ? "mei" : simples ? "simples_nacional" : r.nextBoolean() ? "lucro_presumido" : "lucro_real");
        k.put("opcao_simples", simples);
        k.put("opcao_mei", mei);
        t.put("complementos", k);

        List<SimPartner> partners = PartnerStructure.of(register, cnpj.root());
        List<Object> socios = new ArrayList<>();
        for (SimPartner sp : partners) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("tipo", sp.tipo());
            s.put("nome", sp.nome());
            putIfPresent(s, "cpf", sp.cpf());
            putIfPresent(s, "cnpj", sp.cnpj());
            putIfPresent(s, "qualificacao", sp.qualificacao());
            putIfPresent(
                    s,
                    "data_entrada",
                    sp.dataEntrada() == null ? null : sp.dataEntrada().toString());
            putIfPresent(s, "participacao", sp.participacao());
            putIfPresent(s, "faixa_etaria", sp.faixaEtaria());
            putIfPresent(s, "pais", sp.pais());
            if (sp.representanteNome() != null || sp.representanteCpf() != null) {
                Map<String, Object> rep = new LinkedHashMap<>();
                putIfPresent(rep, "nome", sp.representanteNome());
                putIfPresent(rep, "cpf", sp.representanteCpf());
                putIfPresent(rep, "qualificacao", sp.representanteQualificacao());
                rep.put("telefone", "(11) 9" + SimData.digits(r, 4) + "-" + SimData.digits(r, 4));
                s.put("representante_legal", rep);
            }
            if (sp.tipo().equals("PF")) {
                PersonalNoise.person(s, r, sp.nome());
            }
            s.put("pep", r.nextInt(50) == 0);
            socios.add(s);
        }
        t.put("socios", socios);
        t.put("risco", risk(cnpj, e, r));
        return t;
    }

    private static Map<String, Object> risk(Cnpj cnpj, Empresa e, SplittableRandom r) {
        List<Object> sinais = new ArrayList<>();
        int score = 850 - r.nextInt(150);
        if (e != null && e.situacaoCadastral() != null && !"02".equals(e.situacaoCadastral())) {
            sinais.add(signal(
                    "SITUACAO_IRREGULAR",
                    "Situacao cadastral diferente de ativa: " + e.situacaoCadastral(),
                    "alta",
                    AS_OF.minusDays(30 + r.nextInt(2000))));
            score -= 350;
        }
        int protests = SimulatedCreditBureau.protestCount(cnpj);
        if (protests > 0) {
            sinais.add(
                    signal("PROTESTOS", protests + " protesto(s) em cartorio", protests > 2 ? "alta" : "media", null));
            score -= 80 * protests;
        }
        if (e != null && e.dataAbertura() != null && e.dataAbertura().isAfter(AS_OF.minusYears(1))) {
            sinais.add(signal("ABERTURA_RECENTE", "Aberta ha menos de um ano", "media", e.dataAbertura()));
            score -= 100;
        }
        if (Seeds.percent(8, "shared-address", cnpj.value())) {
            sinais.add(signal(
                    "ENDERECO_COMPARTILHADO",
                    "Endereco compartilhado com outras empresas",
                    "baixa",
                    AS_OF.minusDays(r.nextInt(700))));
            score -= 40;
        }
        score = Math.max(0, Math.min(1000, score));
        Map<String, Object> risco = new LinkedHashMap<>();
        risco.put("nivel", score < 400 ? "alto" : score < 700 ? "medio" : "baixo");
        risco.put("score", score);
        risco.put("sinais", sinais);
        risco.put("modelo_interno", "v" + (1 + r.nextInt(4)));
        return risco;
    }

    private static Map<String, Object> signal(String code, String text, String gravity, LocalDate since) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("codigo", code);
        s.put("descricao", text);
        s.put("gravidade", gravity);
        putIfPresent(s, "desde", since == null ? null : since.toString());
        return s;
    }

    /** Breaks one required field: the CNPJ goes missing, or the partner list becomes a string. */
    private static void breakAnswer(Map<String, Object> tree, SplittableRandom r) {
        switch (r.nextInt(3)) {
            case 0 -> tree.remove("cnpj");
            case 1 -> tree.put("socios", "indisponivel");
            default -> tree.put("atividades_secundarias", 42);
        }
    }

    private static void putIfPresent(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    private static String slug(String name) {
        String s = java.text.Normalizer.normalize(name, java.text.Normalizer.Form.NFD)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "");
        return s.isEmpty() ? "empresa" : s.substring(0, Math.min(24, s.length()));
    }
}
