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
