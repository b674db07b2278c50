package dev.cadastro.loader.internal;

import dev.cadastro.core.internal.LongHashTable;

/**
 * A set of CNPJ roots: a bit per numeric root (12.5 MB, allocated on the first add) and a hash set of
 * base-36 keys for alphanumeric ones. Used for the PGFN debt flag.
 */
public final class RootSet {
    private long[] numeric;
    private final LongHashTable alphanumeric = LongHashTable.set(64);
    private long size;

    /** Adds the root at {@code s}; false when it is not 8 characters of 0-9 and A-Z. */
    public boolean add(byte[] b, int s) {
        long n = Keys.decimal(b, s, 8);
        if (n >= 0) {
            if (numeric == null) {
                numeric = new long[100_000_000 / 64 + 1];
            }
            long bit = 1L << (n & 63);
            int word = (int) (n >>> 6);
            if ((numeric[word] & bit) == 0) {
                numeric[word] |= bit;
                size++;
            }
            return true;
        }
        long k = Keys.base36(b, s, 8);
        if (k < 0) {
            return false;
        }
        if (alphanumeric.add(k)) {
            size++;
        }
        return true;
    }

    /** Whether the set holds the root of a {@link RootMap#id} (false for -1). */
    public boolean contains(long id) {
        if (id < 0) {
            return false;
        }
        if (id < 100_000_000) {
            return numeric != null && (numeric[(int) (id >>> 6)] & (1L << (id & 63))) != 0;
        }
        return alphanumeric.contains(id - 100_000_000);
    }

    public long size() {
        return size;
    }
}
