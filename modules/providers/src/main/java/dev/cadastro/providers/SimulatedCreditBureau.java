package dev.cadastro.providers;

import dev.cadastro.core.credit.CreditAnswers;
import dev.cadastro.core.credit.CreditBureau;
import dev.cadastro.core.credit.CreditReport;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.TaxId;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterSearch;
import dev.cadastro.providers.internal.Faults;
import dev.cadastro.providers.internal.PartnerStructure;
import dev.cadastro.providers.internal.PartnerStructure.SimPartner;
import dev.cadastro.providers.internal.PersonalNoise;
import dev.cadastro.providers.internal.Seeds;
import dev.cadastro.providers.internal.SimData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A deterministic simulated credit bureau: the same CPF or CNPJ gets the same report on every run and
 * in every instance. It has a report on every establishment of the register; on a deterministic fifth
 * of CPFs and of CNPJs outside the register it has nothing ({@link #hasNothingOn}). Reports carry
 * negative listings, protests, bounced cheques, overdue debts, recent inquiries and the partner
 * structure, whose CPFs are the same as {@link SimulatedBureau}'s.
 *
 * <p>The raw report always carries the holder's personal blocks (parentage, date of birth, addresses,
 * phones, e-mails, voter card) and is read through {@link CreditAnswers#read}, which drops them. The
 * {@link FaultPlan} makes calls fail, slow down or answer garbage. No timeout or breaker of its own:
 * wrap it with {@link GuardedProviders}. Dates derive from {@link SimulatedBureau#AS_OF}.
 */
public final class SimulatedCreditBureau implements CreditBureau {
    /** The provider name used in failures and logs. */
    public static final String NAME = "credit-bureau";

    private static final String[] CREDORES = {
        "BANCO DO BRASIL SA", "CAIXA ECONOMICA FEDERAL", "ITAU UNIBANCO SA", "BANCO BRADESCO SA", "BANCO SANTANDER SA",
        "CLARO SA", "TELEFONICA BRASIL SA", "LOJAS RENNER SA", "MAGAZINE LUIZA SA", "NU FINANCEIRA SA"
    };
    private static final String[] NATUREZAS = {
        "financiamento", "cartao_credito", "emprestimo", "telefonia", "crediario", "cheque_especial"
    };
    private static final String[] BANCOS = {"001", "033", "104", "237", "341", "260", "077"};
    private static final String[] MOTIVOS = {"11", "12", "13", "14"};
    private static final String[] SEGMENTOS = {"banco", "varejo", "financeira", "telecom", "seguradora", "industria"};
    private static final String[] CONSULTANTES = {
        "BANCO INTER SA", "LOJAS AMERICANAS SA", "VIVO SA", "BANCO PAN SA", "PORTO SEGURO SA", "VIA SA"
    };

    private final RegisterSearch register;
    private final FaultPlan faults;

    public SimulatedCreditBureau(RegisterSearch register, FaultPlan faults) {
        this.register = Objects.requireNonNull(register, "register");
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /**
     * True for the deterministic fifth of documents this bureau has nothing on. A CNPJ of the register
     * always has a report, whatever this says.
     */
    public static boolean hasNothingOn(TaxId document) {
        return Seeds.percent(20, "credit-nothing", document.canonical());
    }

    /** How many protests the bureaus see on a CNPJ (the enrichment's risk signal agrees with it). */
    static int protestCount(Cnpj cnpj) {
        SplittableRandom r = Seeds.random("protests", cnpj.root().value());
        return r.nextInt(100) < 12 ? 1 + r.nextInt(4) : 0;
    }

    /** The fault plan of this bureau, to change at run time. */
    public FaultPlan faults() {
        return faults;
    }

    @Override
    public Optional<CreditReport> report(TaxId document) {
        Objects.requireNonNull(document, "document");
        Optional<Fault> fault = faults.faultFor(document.canonical());
        Faults.beforeAnswer(NAME, fault);
        Optional<Empresa> record = document instanceof Cnpj c ? register.lookup(c) : Optional.empty();
        if (record.isEmpty() && hasNothingOn(document)) {
            return Optional.empty();
        }
        Map<String, Object> tree = rawReport(document, record.orElse(null));
        Faults.shapeAnswer(fault, document.canonical(), tree, SimulatedCreditBureau::breakReport);
        return Optional.of(CreditAnswers.read(tree, document));
    }

    private static void breakReport(Map<String, Object> tree, SplittableRandom r) {
        switch (r.nextInt(3)) {
            case 0 -> tree.remove("documento");
            case 1 -> tree.put("negativacoes", "erro interno");
            default -> tree.put("tipo_documento", 2);
        }
    }

    private Map<String, Object> rawReport(TaxId document, Empresa e) {
        SplittableRandom r = Seeds.random("credit", document.canonical());
        boolean person = document instanceof Cpf;
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("documento", document.canonical());
        t.put("tipo_documento", person ? "CPF" : "CNPJ");
        String name = person
                ? SimData.personName(r)
                : e != null && e.razaoSocial() != null ? e.razaoSocial() : SimData.companyName(r);
        t.put("nome", name);
        PersonalNoise.holder(t, r, name);
        t.put("score_interno", r.nextInt(1000));

        // About a third of the documents have a clean record.
        boolean clean = r.nextInt(3) == 0;
        List<Object> negativacoes = new ArrayList<>();
        for (int i = clean ? 0 : r.nextInt(4); i > 0; i--) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("credor", SimData.pick(r, CREDORES));
            n.put("natureza", SimData.pick(r, NATUREZAS));
            n.put("valor", SimData.reais(r, 5_000, person ? 1_500_000 : 15_000_000));
            n.put("data_ocorrencia", SimData.daysBefore(r, 1800).toString());
            n.put("uf", SimData.pick(r, SimData.UFS));
            n.put("contrato", SimData.digits(r, 12));
            negativacoes.add(n);
        }
        t.put("negativacoes", negativacoes);

        List<Object> protestos = new ArrayList<>();
        int protests = document instanceof Cnpj c ? protestCount(c) : clean ? 0 : r.nextInt(5) == 0 ? 1 : 0;
        for (int i = 0; i < protests; i++) {
            int uf = r.nextInt(SimData.UFS.length);
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("cartorio", (1 + r.nextInt(10)) + "o Tabeliao de Protesto de Letras e Titulos");
            p.put("municipio", SimData.CAPITALS[uf]);
            p.put("uf", SimData.UFS[uf]);
            p.put("valor", SimData.reais(r, 10_000, 5_000_000));
            p.put("data", SimData.daysBefore(r, 1500).toString());
            protestos.add(p);
        }
        t.put("protestos", protestos);

        List<Object> cheques = new ArrayList<>();
        if (!clean && r.nextInt(person ? 5 : 8) == 0) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("banco", SimData.pick(r, BANCOS));
            c.put("agencia", SimData.digits(r, 4));
            c.put("motivo", SimData.pick(r, MOTIVOS));
            c.put("quantidade", 1 + r.nextInt(6));
            c.put("data_ultimo", SimData.daysBefore(r, 720).toString());
            cheques.add(c);
        }
        t.put("cheques_sem_fundo", cheques);

        List<Object> dividas = new ArrayList<>();
        for (int i = clean ? 0 : r.nextInt(3); i > 0; i--) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("credor", SimData.pick(r, CREDORES));
            d.put("natureza", SimData.pick(r, NATUREZAS));
            d.put("valor", SimData.reais(r, 2_000, person ? 800_000 : 9_000_000));
            d.put("vencimento", SimData.daysBefore(r, 900).toString());
            dividas.add(d);
        }
        t.put("dividas_vencidas", dividas);

        List<Object> consultas = new ArrayList<>();
        for (int i = r.nextInt(7); i > 0; i--) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("consultante", SimData.pick(r, CONSULTANTES));
            c.put("segmento", SimData.pick(r, SEGMENTOS));
            c.put("data", SimData.daysBefore(r, 89).toString());
            consultas.add(c);
        }
        t.put("consultas_recentes", consultas);

        List<Object> socios = new ArrayList<>();
        if (document instanceof Cnpj c) {
            for (SimPartner p : PartnerStructure.of(register, c.root())) {
                if (p.documento() == null) {
                    continue;
                }
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("nome", p.nome());
                s.put("documento", p.documento());
                if (p.qualificacao() != null) {
                    s.put("qualificacao", p.qualificacao());
                }
                if (p.participacao() != null) {
                    s.put("participacao", p.participacao());
                }
                if (p.dataEntrada() != null) {
                    s.put("data_entrada", p.dataEntrada().toString());
                }
                socios.add(s);
            }
        } else {
            // A person's side of the structure: the companies the person takes part in.
            for (int i = r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0; i > 0; i--) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("nome", SimData.companyName(r));
                s.put("documento", SimData.cnpj(r).value());
                s.put("qualificacao", "Socio-Administrador");
                s.put("data_entrada", SimData.daysBefore(r, 7000).toString());
                socios.add(s);
            }
        }
        t.put("socios", socios);
        return t;
    }
}
