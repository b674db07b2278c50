package dev.cadastro.core.document;

/**
 * Brazilian area codes (DDD) in service under Anatel's numbering plan, with the state each serves.
 * Codes such as {@code 20}, {@code 23} or {@code 25} are not assigned and are rejected.
 */
public final class Ddd {
    private static final String[] UF = new String[100];

    static {
        assign("SP", 11, 12, 13, 14, 15, 16, 17, 18, 19);
        assign("RJ", 21, 22, 24);
        assign("ES", 27, 28);
        assign("MG", 31, 32, 33, 34, 35, 37, 38);
        assign("PR", 41, 42, 43, 44, 45, 46);
        assign("SC", 47, 48, 49);
        assign("RS", 51, 53, 54, 55);
        assign("DF", 61);
        assign("GO", 62, 64);
        assign("TO", 63);
        assign("MT", 65, 66);
        assign("MS", 67);
        assign("AC", 68);
        assign("RO", 69);
        assign("BA", 71, 73, 74, 75, 77);
        assign("SE", 79);
        assign("PE", 81, 87);
        assign("AL", 82);
        assign("PB", 83);
        assign("RN", 84);
        assign("CE", 85, 88);
        assign("PI", 86, 89);
        assign("PA", 91, 93, 94);
        assign("AM", 92, 97);
        assign("RR", 95);
        assign("AP", 96);
        assign("MA", 98, 99);
    }

    private Ddd() {}

    private static void assign(String uf, int... codes) {
        for (int code : codes) {
            UF[code] = uf;
        }
    }

    /** True when the two-digit code is an area code in service. */
    public static boolean isValid(int code) {
        return code >= 11 && code <= 99 && UF[code] != null;
    }

    /** The state the area code serves ({@code DF} for 61, which also covers part of Goias). */
    public static String uf(int code) {
        if (!isValid(code)) {
            throw new IllegalArgumentException("ddd " + code + " is not an area code in service");
        }
        return UF[code];
    }

    /** Every area code in service, ascending. */
    public static int[] all() {
        int n = 0;
        for (String s : UF) {
            n += s == null ? 0 : 1;
        }
        int[] out = new int[n];
        for (int i = 0, j = 0; i < UF.length; i++) {
            if (UF[i] != null) {
                out[j++] = i;
            }
        }
        return out;
    }
}
