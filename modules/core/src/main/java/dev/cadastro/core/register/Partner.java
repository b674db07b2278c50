package dev.cadastro.core.register;

import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * One row of the public partner structure (QSA) of a company, as the Receita Federal publishes it in
 * the dump's {@code Socios} files, keyed by the company's CNPJ root. Personal documents are masked
 * there: a natural person's CPF appears as {@code ***NNNNNN**} (digits 4 to 9). Every field but
 * {@code kind} and {@code name} may be null when the dump leaves it empty.
 *
 * @param kind the dump's {@code identificador_socio}: 1 company, 2 natural person, 3 foreigner
 * @param name the partner's name (a company's name for {@link Kind#COMPANY})
 * @param document as published: a complete CNPJ for a company, the masked CPF for a person, null
 *     for a foreigner
 * @param qualificationCode the dump's {@code qualificacao_socio} (2 digits), with its description
 *     from the {@code Qualificacoes} table in {@code qualification}
 * @param entryDate when the partner entered the company
 * @param countryCode the dump's {@code pais} for foreigners
 * @param representativeCpf the legal representative's masked CPF, when there is one
 * @param representativeName the legal representative's name
 * @param representativeQualificationCode and its description in {@code representativeQualification}
 * @param ageBand the dump's {@code faixa_etaria} code, 0 to 9 (0 not applicable)
 */
public record Partner(
        Kind kind,
        String name,
        String document,
        String qualificationCode,
        String qualification,
        LocalDate entryDate,
        String countryCode,
        String representativeCpf,
        String representativeName,
        String representativeQualificationCode,
        String representativeQualification,
        Integer ageBand) {

    /** The dump's age bands, by {@code faixa_etaria} code from 1 (0 is "not applicable"). */
    private static final List<String> AGE_BANDS = List.of(
            "0 a 12 anos",
            "13 a 20 anos",
            "21 a 30 anos",
            "31 a 40 anos",
            "41 a 50 anos",
            "51 a 60 anos",
            "61 a 70 anos",
            "71 a 80 anos",
            "maiores de 80 anos");

    public Partner {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    /**
     * The text of an {@link #ageBand} code ({@code 3} is "21 a 30 anos"); null for null, for 0 (not
     * applicable) and for a code the dump does not define.
     */
    public static String ageBandText(Integer code) {
        return code == null || code < 1 || code > AGE_BANDS.size() ? null : AGE_BANDS.get(code - 1);
    }

    /** The dump's {@code identificador_socio}. */
    public enum Kind {
        /** 1: a company (pessoa juridica); {@code document} is its CNPJ. */
        COMPANY,
        /** 2: a natural person (pessoa fisica); {@code document} is the masked CPF. */
        PERSON,
        /** 3: a foreigner; no document. */
        FOREIGNER
    }
}
