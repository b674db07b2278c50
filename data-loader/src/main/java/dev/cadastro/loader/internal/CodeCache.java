package dev.cadastro.loader.internal;

/**
 * Reuses one String per distinct short code (UF, CNAE, municipality, status...), so 70 million records
 * do not allocate 70 million copies of "SP". A direct-mapped table: a slot taken by another code is not
 * evicted, the value is then decoded afresh. Single-threaded.
 */
public final class CodeCache {
    private static final int SLOTS = 1 << 14;
    private static final int MAX_LENGTH = 16;

    private final byte[][] keys = new byte[SLOTS][];
    private final String[] values = new String[SLOTS];

    /** The field as text, or null when empty. */
    public String get(byte[] b, int s, int len) {
        if (len == 0) {
            return null;
        }
        if (len > MAX_LENGTH) {
            return Latin1.decode(b, s, len);
        }
        int h = len;
        for (int i = s; i < s + len; i++) {
            h = 31 * h + b[i];
        }
        int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
        byte[] k = keys[slot];
        if (k != null && k.length == len && equal(k, b, s)) {
            return values[slot];
        }
        String v = Latin1.decode(b, s, len);
        if (k == null) {
            byte[] copy = new byte[len];
            System.arraycopy(b, s, copy, 0, len);
            keys[slot] = copy;
            values[slot] = v;
        }
        return v;
    }

    private static boolean equal(byte[] k, byte[] b, int s) {
        for (int i = 0; i < k.length; i++) {
            if (k[i] != b[s + i]) {
                return false;
            }
        }
        return true;
    }
}
