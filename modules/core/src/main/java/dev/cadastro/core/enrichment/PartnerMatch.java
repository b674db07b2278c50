package dev.cadastro.core.enrichment;

import dev.cadastro.core.register.Partner;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;

/**
 * Completes a published partner (masked CPF) with the bureau's record of the same partner. A person
 * matches when the bureau's CPF has the published digits 4 to 9 and the names agree once accents, case
 * and spacing are ignored; a company matches by CNPJ. Nothing else is taken from the bureau's partner.
 */
final class PartnerMatch {
    private PartnerMatch() {}

    static BureauCompany.Socio complete(Partner published, List<BureauCompany.Socio> bureau) {
        BureauCompany.Socio match =
                bureau.stream().filter(b -> matches(published, b)).findFirst().orElse(null);
        String tipo = switch (published.kind()) {
            case COMPANY -> "PJ";
            case PERSON -> "PF";
            case FOREIGNER -> "ESTRANGEIRO";
        };
        String cpf = published.kind() == Partner.Kind.PERSON && match != null ? match.cpf() : null;
        String cnpj = published.kind() == Partner.Kind.COMPANY ? blankToNull(published.document()) : null;
        return new BureauCompany.Socio(
                tipo,
                published.name(),
                cpf,
                cnpj,
                published.qualification() != null ? published.qualification() : published.qualificationCode(),
                published.entryDate(),
                match == null ? null : match.participacao(),
                Partner.ageBandText(published.ageBand()),
                published.kind() == Partner.Kind.FOREIGNER ? blankToNull(published.countryCode()) : null,
                representative(published));
    }

    static boolean matches(Partner published, BureauCompany.Socio b) {
        return switch (published.kind()) {
            case PERSON ->
                "PF".equals(b.tipo())
                        && b.cpf() != null
                        && b.cpf().length() == 11
                        && visibleDigits(published.document()) != null
                        && b.cpf().substring(3, 9).equals(visibleDigits(published.document()))
                        && sameName(published.name(), b.nome());
            case COMPANY ->
                "PJ".equals(b.tipo()) && b.cnpj() != null && b.cnpj().equals(published.document());
            case FOREIGNER -> false;
        };
    }

    /** Digits 4 to 9 of a masked CPF {@code ***NNNNNN**}, or null when it is not one. */
    static String visibleDigits(String masked) {
        if (masked == null || masked.length() != 11 || !masked.startsWith("***") || !masked.endsWith("**")) {
            return null;
        }
        String middle = masked.substring(3, 9);
        return middle.chars().allMatch(ch -> ch >= '0' && ch <= '9') ? middle : null;
    }

    static boolean sameName(String a, String b) {
        return a != null && b != null && fold(a).equals(fold(b));
    }

    private static String fold(String name) {
        String decomposed = Normalizer.normalize(name, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        return decomposed.strip().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
    }

    private static BureauCompany.Representante representative(Partner p) {
        String name = blankToNull(p.representativeName());
        String cpf =
                visibleDigits(p.representativeCpf()) == null || "000000".equals(visibleDigits(p.representativeCpf()))
                        ? null
                        : p.representativeCpf();
        if (name == null && cpf == null) {
            return null;
        }
        String qualification = p.representativeQualification() != null
                ? p.representativeQualification()
                : p.representativeQualificationCode();
        return new BureauCompany.Representante(name, cpf, qualification);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
