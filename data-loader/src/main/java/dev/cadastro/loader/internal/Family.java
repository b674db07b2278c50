package dev.cadastro.loader.internal;

import java.util.Locale;

/**
 * The file families of a monthly dump: the ZIP each part comes in, the marker its inner file name
 * carries, and its number of columns.
 */
public enum Family {
    EMPRESAS("Empresas", 10, "EMPRECSV", 7),
    ESTABELECIMENTOS("Estabelecimentos", 10, "ESTABELE", 30),
    SOCIOS("Socios", 10, "SOCIOCSV", 11),
    SIMPLES("Simples", 1, "SIMPLES", 7),
    CNAES("Cnaes", 1, "CNAECSV", 2),
    MOTIVOS("Motivos", 1, "MOTICSV", 2),
    MUNICIPIOS("Municipios", 1, "MUNICCSV", 2),
    NATUREZAS("Naturezas", 1, "NATJUCSV", 2),
    PAISES("Paises", 1, "PAISCSV", 2),
    QUALIFICACOES("Qualificacoes", 1, "QUALSCSV", 2);

    private final String zipBase;
    private final int parts;
    private final String marker;
    private final int columns;

    Family(String zipBase, int parts, String marker, int columns) {
        this.zipBase = zipBase;
        this.parts = parts;
        this.marker = marker;
        this.columns = columns;
    }

    /** {@code Empresas} for {@code Empresas0.zip}..{@code Empresas9.zip}. */
    public String zipBase() {
        return zipBase;
    }

    public int parts() {
        return parts;
    }

    public int columns() {
        return columns;
    }

    /** The name of part {@code n}'s ZIP: {@code Empresas3.zip}, {@code Simples.zip}. */
    public String zipName(int part) {
        return parts == 1 ? zipBase + ".zip" : zipBase + part + ".zip";
    }

    /**
     * The file name inside the ZIP, as the Receita Federal writes it; {@code dateCode} is {@code D}
     * plus the last digit of the year plus MMDD ({@code D60808}).
     */
    public String innerName(int part, String dateCode) {
        return switch (this) {
            case EMPRESAS, ESTABELECIMENTOS, SOCIOS -> "K3241.K03200Y" + part + "." + dateCode + "." + marker;
            case SIMPLES -> "F.K03200$W.SIMPLES.CSV." + dateCode;
            default -> "F.K03200$Z." + dateCode + "." + marker;
        };
    }

    /** The family an inner file name belongs to, or null. */
    public static Family ofInnerName(String name) {
        String[] tokens = name.toUpperCase(Locale.ROOT).split("\\.");
        for (Family f : values()) {
            for (String t : tokens) {
                if (t.equals(f.marker)) {
                    return f;
                }
            }
        }
        return null;
    }

    /** The extraction date code ({@code D60808}) of an inner file name, or null. */
    public static String dateCode(String name) {
        String found = null;
        for (String t : name.toUpperCase(Locale.ROOT).split("\\.")) {
            if (t.length() == 6 && t.charAt(0) == 'D' && t.substring(1).chars().allMatch(Character::isDigit)) {
                found = t;
            }
        }
        return found;
    }

    /** True for the six code-to-description tables. */
    public boolean isLookup() {
        return parts == 1 && this != SIMPLES;
    }

    @Override
    public String toString() {
        return zipBase;
    }
}
