package dev.cadastro.providers.internal;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.register.Partner;
import dev.cadastro.core.register.RegisterSearch;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * The partner structure both simulated bureaus agree on: the register's public partners (QSA) with
 * each natural person's CPF completed, or synthetic partners when the register lists none.
 */
public final class PartnerStructure {
    private static final Pattern MASK = Pattern.compile("\\*\\*\\*(\\d{6})\\*\\*");
    /** The dump's placeholder for "no legal representative". */
    private static final String NO_REPRESENTATIVE = "***000000**";

    private PartnerStructure() {}

    /**
     * One partner as the simulated bureaus know it.
     *
     * @param tipo {@code PF}, {@code PJ} or {@code ESTRANGEIRO}
     */
    public record SimPartner(
            String tipo,
            String nome,
            String cpf,
            String cnpj,
            String qualificacao,
            LocalDate dataEntrada,
            BigDecimal participacao,
            String faixaEtaria,
            String pais,
            String representanteNome,
            String representanteCpf,
            String representanteQualificacao) {

        /** The partner's document: the complete CPF or the CNPJ, null for a foreigner. */
        public String documento() {
            return cpf != null ? cpf : cnpj;
        }
    }

    /**
     * The complete CPF of a natural partner whose public mask is {@code ***NNNNNN**}: digits 4 to 9 are
     * the mask's, the first three derive from the company root, the name and the mask, the check digits
     * are computed. A mask of another shape gives a CPF derived from those alone.
     */
    public static Cpf completeCpf(String masked, CnpjRoot root, String name) {
        SplittableRandom r = Seeds.random("cpf", root.value(), name, masked == null ? "" : masked);
        var m = masked == null ? null : MASK.matcher(masked);
        String middle = m != null && m.matches() ? m.group(1) : null;
        for (int attempt = 0; attempt < 20; attempt++) {
            String nine = SimData.digits(r, 3) + (middle != null ? middle : SimData.digits(r, 6));
            if (!nine.chars().allMatch(c -> c == nine.charAt(0))) {
                return Cpf.withCheckDigits(nine);
            }
        }
        return SimData.cpf(r);
    }

    /** The partners of the company with this root. */
    public static List<SimPartner> of(RegisterSearch register, CnpjRoot root) {
        List<Partner> published = register.partners(root);
        SplittableRandom r = Seeds.random("partners", root.value());
        List<SimPartner> out = new ArrayList<>();
        if (published.isEmpty()) {
            int n = 1 + r.nextInt(r.nextInt(4) == 0 ? 5 : 2);
            for (int i = 0; i < n; i++) {
                boolean company = r.nextInt(12) == 0;
                LocalDate entry = SimData.AS_OF.minusDays(30 + r.nextInt(20 * 365));
                if (company) {
                    Cnpj c = SimData.cnpj(r);
                    out.add(new SimPartner(
                            "PJ",
                            SimData.companyName(r),
                            null,
                            c.value(),
                            "Socio Pessoa Juridica Domiciliado no Brasil",
                            entry,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null));
                } else {
                    out.add(new SimPartner(
                            "PF",
                            SimData.personName(r),
                            SimData.cpf(r).digits(),
                            null,
                            SimData.qualificacao(r),
                            entry,
                            null,
                            Partner.ageBandText(3 + r.nextInt(5)),
                            null,
                            null,
                            null,
                            null));
                }
            }
        } else {
            for (Partner p : published) {
                out.add(fromRegister(p, root, r));
            }
        }
        return withShares(out, r);
    }

    private static SimPartner fromRegister(Partner published, CnpjRoot root, SplittableRandom r) {
        Partner p = published.name().isBlank() ? withName(published, "NAO INFORMADO") : published;
        String qualificacao = p.qualification() != null ? p.qualification() : p.qualificationCode();
        String faixa = Partner.ageBandText(p.ageBand());
        boolean hasRepresentative = p.representativeName() != null
                        && !p.representativeName().isBlank()
                || (p.representativeCpf() != null && !p.representativeCpf().equals(NO_REPRESENTATIVE));
        String repCpf = hasRepresentative
                        && p.representativeCpf() != null
                        && MASK.matcher(p.representativeCpf()).matches()
                ? p.representativeCpf()
                : null;
        String repName = hasRepresentative
                        && p.representativeName() != null
                        && !p.representativeName().isBlank()
                ? p.representativeName()
                : null;
        String repQual = hasRepresentative
                ? (p.representativeQualification() != null
                        ? p.representativeQualification()
                        : p.representativeQualificationCode())
                : null;
        return switch (p.kind()) {
            case PERSON ->
                new SimPartner(
                        "PF",
                        p.name(),
                        completeCpf(p.document(), root, p.name()).digits(),
                        null,
                        qualificacao,
                        p.entryDate(),
                        null,
                        faixa,
                        null,
                        repName,
                        repCpf,
                        repQual);
            case COMPANY ->
                new SimPartner(
                        "PJ",
                        p.name(),
                        null,
                        p.document() != null && p.document().length() == 14 && Cnpj.isValid(p.document())
                                ? Cnpj.of(p.document()).value()
                                : SimData.cnpj(Seeds.random("partner-cnpj", root.value(), p.name()))
                                        .value(),
                        qualificacao,
                        p.entryDate(),
                        null,
                        null,
                        null,
                        repName,
                        repCpf,
                        repQual);
            case FOREIGNER ->
                new SimPartner(
                        "ESTRANGEIRO",
                        p.name(),
                        null,
                        null,
                        qualificacao,
                        p.entryDate(),
                        null,
                        faixa,
                        p.countryCode(),
                        repName,
                        repCpf,
                        repQual);
        };
    }

    private static Partner withName(Partner p, String name) {
        return new Partner(
                p.kind(),
                name,
                p.document(),
                p.qualificationCode(),
                p.qualification(),
                p.entryDate(),
                p.countryCode(),
                p.representativeCpf(),
                p.representativeName(),
                p.representativeQualificationCode(),
                p.representativeQualification(),
                p.ageBand());
    }

    /** The bureau knows the capital split of most companies: shares adding up to 100.00. */
    private static List<SimPartner> withShares(List<SimPartner> partners, SplittableRandom r) {
        if (partners.isEmpty() || r.nextInt(10) < 3) {
            return partners;
        }
        int[] weights = new int[partners.size()];
        int total = 0;
        for (int i = 0; i < weights.length; i++) {
            weights[i] = 1 + r.nextInt(10);
            total += weights[i];
        }
        List<SimPartner> out = new ArrayList<>(partners.size());
        BigDecimal left = BigDecimal.valueOf(100).setScale(2);
        for (int i = 0; i < weights.length; i++) {
            BigDecimal share = i == weights.length - 1
                    ? left
                    : BigDecimal.valueOf(weights[i] * 100L).divide(BigDecimal.valueOf(total), 2, RoundingMode.DOWN);
            left = left.subtract(share);
            SimPartner p = partners.get(i);
            out.add(new SimPartner(
                    p.tipo(),
                    p.nome(),
                    p.cpf(),
                    p.cnpj(),
                    p.qualificacao(),
                    p.dataEntrada(),
                    share,
                    p.faixaEtaria(),
                    p.pais(),
                    p.representanteNome(),
                    p.representanteCpf(),
                    p.representanteQualificacao()));
        }
        return out;
    }
}
