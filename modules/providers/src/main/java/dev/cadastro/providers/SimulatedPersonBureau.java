package dev.cadastro.providers;

import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.person.Dossier;
import dev.cadastro.core.person.PersonAnswers;
import dev.cadastro.core.person.PersonBureau;
import dev.cadastro.core.person.Subject;
import dev.cadastro.providers.internal.Faults;
import dev.cadastro.providers.internal.Seeds;
import dev.cadastro.providers.internal.SimData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A deterministic simulated person bureau: the same CPF gets the same dossier on every run and in every
 * instance, and the same phone the same owner. It has nothing on a deterministic tenth of CPFs ({@link
 * #hasNothingOn(Cpf)}), nothing on another deterministic share of CPFs under some purposes ({@link
 * #hasNothingOn(Cpf, Purpose)}), and no owner for a fifth of phones ({@link #ownerOf(String)}).
 *
 * <p>The raw dossier always carries fields outside the allowlist (other documents, parentage, the voter
 * card) and is read through {@link PersonAnswers#read}, which drops them. The {@link FaultPlan}, keyed by
 * the CPF's or phone's digits, makes calls fail, slow down or answer garbage. No timeout or breaker of
 * its own: wrap it with {@link GuardedProviders}.
 */
public final class SimulatedPersonBureau implements PersonBureau {
    /** The provider name used in failures and logs. */
    public static final String NAME = "person-bureau";

    private static final String[] SITUACOES = {
        "REGULAR",
        "REGULAR",
        "REGULAR",
        "REGULAR",
        "REGULAR",
        "REGULAR",
        "REGULAR",
        "SUSPENSA",
        "PENDENTE_DE_REGULARIZACAO"
    };
    private static final String[] OCUPACOES = {
        "ANALISTA DE SISTEMAS",
        "PROFESSOR",
        "ENFERMEIRO",
        "COMERCIANTE",
        "MOTORISTA",
        "ADVOGADO",
        "VENDEDOR",
        "ENGENHEIRO CIVIL",
        "AUXILIAR ADMINISTRATIVO",
        "APOSENTADO"
    };
    private static final String[] ESCOLARIDADES = {
        "FUNDAMENTAL", "MEDIO", "SUPERIOR INCOMPLETO", "SUPERIOR", "POS-GRADUACAO"
    };
    private static final String[] BAIRROS = {"CENTRO", "JARDIM AMERICA", "VILA NOVA", "BOA VISTA", "SAO JOSE"};
    private static final String[] DOMINIOS = {"gmail.com", "hotmail.com", "yahoo.com.br", "uol.com.br", "outlook.com"};

    private final FaultPlan faults;

    public SimulatedPersonBureau(FaultPlan faults) {
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /** The fault plan of this bureau, to change at run time. */
    public FaultPlan faults() {
        return faults;
    }

    /** True for the deterministic tenth of CPFs this bureau has nothing on, under any purpose. */
    public static boolean hasNothingOn(Cpf cpf) {
        return Seeds.percent(10, "person-nothing", cpf.digits());
    }

    /** True when the bureau has nothing on the CPF under this purpose (a further fifth per purpose). */
    public static boolean hasNothingOn(Cpf cpf, Purpose purpose) {
        return hasNothingOn(cpf) || Seeds.percent(20, "person-purpose", purpose.name(), cpf.digits());
    }

    /** The CPF that owns a phone (area code and number, digits), or empty for a fifth of phones. */
    public static Optional<Cpf> ownerOf(String nationalPhone) {
        if (Seeds.percent(20, "phone-unknown", nationalPhone)) {
            return Optional.empty();
        }
        return Optional.of(SimData.cpf(Seeds.random("phone-owner", nationalPhone)));
    }

    @Override
    public Optional<Dossier> lookup(Subject subject, Purpose purpose) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(purpose, "purpose");
        Optional<Fault> fault = faults.faultFor(subject.canonical());
        Faults.beforeAnswer(NAME, fault);
        Optional<Cpf> cpf = switch (subject) {
            case Subject.ByCpf c -> Optional.of(c.cpf());
            case Subject.ByPhone p -> ownerOf(p.canonical());
        };
        if (cpf.isEmpty() || hasNothingOn(cpf.get(), purpose)) {
            return Optional.empty();
        }
        Map<String, Object> tree = rawDossier(cpf.get(), subject);
        Faults.shapeAnswer(fault, subject.canonical(), tree, SimulatedPersonBureau::breakDossier);
        return Optional.of(PersonAnswers.read(tree, subject));
    }

    private static void breakDossier(Map<String, Object> tree, SplittableRandom r) {
        switch (r.nextInt(3)) {
            case 0 -> tree.remove("cpf");
            case 1 -> tree.put("enderecos", "erro interno");
            default -> tree.put("score", "alto");
        }
    }

    private static Map<String, Object> rawDossier(Cpf cpf, Subject asked) {
        SplittableRandom r = Seeds.random("person", cpf.digits());
        Map<String, Object> t = new LinkedHashMap<>();
        String nome = SimData.personName(r);
        t.put("cpf", cpf.digits());
        t.put("nome", nome);
        if (r.nextInt(50) == 0) {
            t.put("nome_social", SimData.personName(r));
        }
        t.put(
                "data_nascimento",
                SimData.AS_OF.minusDays(18L * 365 + r.nextInt(60 * 365)).toString());
        t.put("sexo", r.nextBoolean() ? "F" : "M");
        t.put("nome_mae", SimData.personName(r));
        boolean dead = r.nextInt(40) == 0;
        t.put("situacao_cpf", dead ? "TITULAR_FALECIDO" : SimData.pick(r, SITUACOES));
        t.put("obito", dead);
        List<Object> enderecos = new ArrayList<>();
        for (int i = 1 + r.nextInt(3); i > 0; i--) {
            int uf = r.nextInt(SimData.UFS.length);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("tipo", i == 1 ? "RESIDENCIAL" : r.nextBoolean() ? "COMERCIAL" : "OUTRO");
            e.put("logradouro", "RUA " + SimData.personName(r).toUpperCase(Locale.ROOT));
            e.put("numero", String.valueOf(1 + r.nextInt(3000)));
            if (r.nextInt(3) == 0) {
                e.put("complemento", "APTO " + (1 + r.nextInt(300)));
            }
            e.put("bairro", SimData.pick(r, BAIRROS));
            e.put("municipio", SimData.CAPITALS[uf]);
            e.put("uf", SimData.UFS[uf]);
            e.put("cep", SimData.digits(r, 8));
            e.put("geolocalizacao", List.of(-23.5 + r.nextDouble(), -46.6 + r.nextDouble()));
            enderecos.add(e);
        }
        t.put("enderecos", enderecos);
        List<Object> telefones = new ArrayList<>();
        if (asked instanceof Subject.ByPhone p) {
            telefones.add(phone(p.canonical()));
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            boolean mobile = r.nextInt(3) > 0;
            String number = (11 + r.nextInt(9)) + (mobile ? "9" + SimData.digits(r, 8) : "3" + SimData.digits(r, 7));
            telefones.add(phone(number));
        }
        t.put("telefones", telefones);
        List<Object> emails = new ArrayList<>();
        for (int i = r.nextInt(3); i > 0; i--) {
            String local = nome.toLowerCase(Locale.ROOT).replace(' ', '.') + r.nextInt(100);
            Map<String, Object> email = new LinkedHashMap<>();
            email.put("endereco", local + "@" + SimData.pick(r, DOMINIOS));
            emails.add(email);
        }
        t.put("emails", emails);
        t.put("renda_estimada", SimData.reais(r, 120_000, 4_000_000));
        t.put("faixa_renda", String.valueOf((char) ('A' + r.nextInt(5))));
        t.put("score", r.nextInt(1001));
        t.put("ocupacao", SimData.pick(r, OCUPACOES));
        t.put("escolaridade", SimData.pick(r, ESCOLARIDADES));
        // Outside the allowlist: never reaches Cadastro.
        t.put("rg", SimData.digits(r, 9));
        t.put("titulo_eleitor", SimData.digits(r, 12));
        t.put("nome_pai", SimData.personName(r));
        Map<String, Object> parente = new LinkedHashMap<>();
        parente.put("cpf", SimData.cpf(r).digits());
        parente.put("nome", SimData.personName(r));
        t.put("parentes", new ArrayList<>(List.of(parente)));
        return t;
    }

    private static Map<String, Object> phone(String national) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("numero", national);
        p.put("tipo", national.length() == 11 ? "MOVEL" : "FIXO");
        return p;
    }
}
