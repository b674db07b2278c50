package dev.cadastro.core.document;

/**
 * Check digits computed straight from the published rules, independently of the production code, so
 * that properties compare two implementations rather than one with itself.
 */
final class Oracle {
    private static final int[] CPF_FIRST = {10, 9, 8, 7, 6, 5, 4, 3, 2};
    private static final int[] CPF_SECOND = {11, 10, 9, 8, 7, 6, 5, 4, 3, 2};
    private static final int[] CNPJ_FIRST = {5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};
    private static final int[] CNPJ_SECOND = {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};

    private Oracle() {}

    /** The two CPF check digits of nine digits. */
    static String cpfCheckDigits(String nine) {
        int dv1 = digit(nine, CPF_FIRST);
        int dv2 = digit(nine + dv1, CPF_SECOND);
        return "" + dv1 + dv2;
    }

    /** The two CNPJ check digits of twelve characters: value(c) = ASCII(c) - 48. */
    static String cnpjCheckDigits(String twelve) {
        int dv1 = digit(twelve, CNPJ_FIRST);
        int dv2 = digit(twelve + dv1, CNPJ_SECOND);
        return "" + dv1 + dv2;
    }

    /** True when the 11 canonical digits have matching check digits and are not one repeated digit. */
    static boolean cpfValid(String eleven) {
        return eleven.matches("[0-9]{11}")
                && !eleven.chars().allMatch(c -> c == eleven.charAt(0))
                && cpfCheckDigits(eleven.substring(0, 9)).equals(eleven.substring(9));
    }

    /** True when the 14 canonical characters have matching check digits and are not one repeated digit. */
    static boolean cnpjValid(String fourteen) {
        return fourteen.matches("[0-9A-Z]{12}[0-9]{2}")
                && !fourteen.chars().allMatch(c -> c == fourteen.charAt(0))
                && cnpjCheckDigits(fourteen.substring(0, 12)).equals(fourteen.substring(12));
    }

    static String formatCpf(String d) {
        return d.substring(0, 3) + "." + d.substring(3, 6) + "." + d.substring(6, 9) + "-" + d.substring(9);
    }

    static String formatCnpj(String c) {
        return c.substring(0, 2) + "." + c.substring(2, 5) + "." + c.substring(5, 8) + "/" + c.substring(8, 12) + "-"
                + c.substring(12);
    }

    private static int digit(String s, int[] weights) {
        int sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += (s.charAt(i) - 48) * weights[i];
        }
        int remainder = sum % 11;
        return remainder < 2 ? 0 : 11 - remainder;
    }
}
