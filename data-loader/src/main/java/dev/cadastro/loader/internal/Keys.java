package dev.cadastro.loader.internal;

/**
 * Packs CNPJ characters into longs. A character of {@code [0-9A-Z]} is a base-36 digit, so 8 root
 * characters fit in 42 bits and the 12 characters before the check digits in 63 bits: two distinct
 * CNPJs never share a key, numeric or alphanumeric.
 */
public final class Keys {
    public static final long INVALID = -1;

    private Keys() {}

    /** The base-36 value of {@code len} characters, or {@link #INVALID} when any is not 0-9 or A-Z. */
    public static long base36(byte[] b, int s, int len) {
        long v = 0;
        for (int i = s; i < s + len; i++) {
            int d = digit36(b[i]);
            if (d < 0) {
                return INVALID;
            }
            v = v * 36 + d;
        }
        return v;
    }

    static int digit36(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'Z') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** The decimal value of {@code len} digits, or {@link #INVALID} when any is not a digit. */
    public static long decimal(byte[] b, int s, int len) {
        long v = 0;
        for (int i = s; i < s + len; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return INVALID;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /**
     * The two check digits of the 12 CNPJ characters at {@code s} as {@code 10 * dv1 + dv2} (the
     * alphanumeric rule: a character is worth its ASCII code minus 48), or -1 when a character is not
     * 0-9 or A-Z.
     */
    public static int cnpjCheckDigits(byte[] b, int s) {
        int sum1 = 0;
        int sum2 = 0;
        for (int i = 0; i < 12; i++) {
            int c = b[s + i];
            if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) {
                return -1;
            }
            int v = c - '0';
            sum1 += v * WEIGHTS[i + 1];
            sum2 += v * WEIGHTS[i];
        }
        int dv1 = mod11(sum1);
        sum2 += dv1 * WEIGHTS[12];
        return dv1 * 10 + mod11(sum2);
    }

    private static final int[] WEIGHTS = {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};

    private static int mod11(int sum) {
        int r = sum % 11;
        return r < 2 ? 0 : 11 - r;
    }
}
