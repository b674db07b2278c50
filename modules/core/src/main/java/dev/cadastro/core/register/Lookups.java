package dev.cadastro.core.register;

import java.util.Map;
import java.util.Objects;

/**
 * The lookup tables of one dump: code to description for CNAEs, municipalities (Receita codes),
 * legal natures, status reasons, countries and partner qualifications. A code missing from a table is
 * kept as a code; its description is then absent.
 *
 * <p>{@code municipiosIbge} maps the Receita's 4-digit municipality code to the IBGE 7-digit code, and
 * {@code municipiosUf} to its state; both come with the project (the dump does not carry them).
 */
public record Lookups(
        Map<String, String> cnaes,
        Map<String, String> municipios,
        Map<String, String> naturezas,
        Map<String, String> motivos,
        Map<String, String> paises,
        Map<String, String> qualificacoes,
        Map<String, String> municipiosIbge,
        Map<String, String> municipiosUf) {

    public Lookups {
        cnaes = Map.copyOf(Objects.requireNonNull(cnaes, "cnaes"));
        municipios = Map.copyOf(Objects.requireNonNull(municipios, "municipios"));
        naturezas = Map.copyOf(Objects.requireNonNull(naturezas, "naturezas"));
        motivos = Map.copyOf(Objects.requireNonNull(motivos, "motivos"));
        paises = Map.copyOf(Objects.requireNonNull(paises, "paises"));
        qualificacoes = Map.copyOf(Objects.requireNonNull(qualificacoes, "qualificacoes"));
        municipiosIbge = Map.copyOf(Objects.requireNonNull(municipiosIbge, "municipiosIbge"));
        municipiosUf = Map.copyOf(Objects.requireNonNull(municipiosUf, "municipiosUf"));
    }

    /** Registration status descriptions (fixed by the layout, not a dump table). */
    public static String situacaoDescricao(String code) {
        return switch (code == null ? "" : code) {
            case "01" -> "NULA";
            case "02" -> "ATIVA";
            case "03" -> "SUSPENSA";
            case "04" -> "INAPTA";
            case "08" -> "BAIXADA";
            default -> null;
        };
    }

    /** A partner's age band descriptions ({@code faixa_etaria}, fixed by the layout); null for another code. */
    public static String faixaEtariaDescricao(Integer code) {
        if (code == null) {
            return null;
        }
        return switch (code) {
            case 0 -> "Nao se aplica";
            case 1 -> "0 a 12 anos";
            case 2 -> "13 a 20 anos";
            case 3 -> "21 a 30 anos";
            case 4 -> "31 a 40 anos";
            case 5 -> "41 a 50 anos";
            case 6 -> "51 a 60 anos";
            case 7 -> "61 a 70 anos";
            case 8 -> "71 a 80 anos";
            case 9 -> "Maiores de 80 anos";
            default -> null;
        };
    }

    /** Company size descriptions (fixed by the layout). */
    public static String porteDescricao(String code) {
        return switch (code == null ? "" : code) {
            case "00" -> "NAO INFORMADO";
            case "01" -> "MICRO EMPRESA";
            case "03" -> "EMPRESA DE PEQUENO PORTE";
            case "05" -> "DEMAIS";
            default -> null;
        };
    }
}
