package dev.cadastro.core.document;

/** The modulo-11 check-digit rule shared by CPF and CNPJ. */
final class Mod11 {
    private Mod11() {}

    /** The check digit of a weighted sum: 0 when the remainder modulo 11 is below 2, else 11 minus it. */
    static int checkDigit(int weightedSum) {
        int r = weightedSum % 11;
        return r < 2 ? 0 : 11 - r;
    }
}
