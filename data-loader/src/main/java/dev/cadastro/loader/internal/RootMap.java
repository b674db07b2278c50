package dev.cadastro.loader.internal;

import dev.cadastro.core.internal.LongHashTable;

/**
 * A map from CNPJ root (8 characters) to a positive int, for up to the whole register (about 69
 * million roots). Numeric roots, nearly all of them, index a paged array directly (pages of 64 Ki ints
 * allocated on first touch: 400 MB when every page is used, a few KB for a small dump); alphanumeric
 * roots go to an open-addressing hash map keyed by their base-36 value.
 */
public final class RootMap {
    private static final int PAGE_BITS = 16;
    private static final int PAGE = 1 << PAGE_BITS;
    private static final int NUMERIC_ROOTS = 100_000_000;

    private final int[][] pages = new int[(NUMERIC_ROOTS + PAGE - 1) / PAGE][];
    private final LongHashTable alphanumeric = LongHashTable.map(1024);
    private long size;

    /**
     * The id of a root: its decimal value for a numeric root (below 100 million), 100 million plus its
     * base-36 value for an alphanumeric one; -1 when it is not 8 characters of 0-9 and A-Z. Computed
     * once per row and used for every lookup of the row.
     */
    public static long id(byte[] b, int s, int len) {
        if (len != 8) {
            return -1;
        }
        long n = Keys.decimal(b, s, 8);
        if (n >= 0) {
            return n;
        }
        long k = Keys.base36(b, s, 8);
        return k < 0 ? -1 : NUMERIC_ROOTS + k;
    }

    /** The value of a root id, or 0 when absent (or the id is -1). */
    public int get(long id) {
        if (id < 0) {
            return 0;
        }
        if (id < NUMERIC_ROOTS) {
            int[] page = pages[(int) (id >>> PAGE_BITS)];
            return page == null ? 0 : page[(int) (id & (PAGE - 1))];
        }
        return alphanumeric.get(id - NUMERIC_ROOTS);
    }

    /** Sets the value (positive) of a root id unless it has one; returns the previous value, 0 if none. */
    public int putIfAbsent(long id, int value) {
        if (value <= 0 || id < 0) {
            throw new IllegalArgumentException("need a root id and a positive value: " + id + ", " + value);
        }
        if (id < NUMERIC_ROOTS) {
            int p = (int) (id >>> PAGE_BITS);
            int[] page = pages[p];
            if (page == null) {
                page = pages[p] = new int[PAGE];
            }
            int i = (int) (id & (PAGE - 1));
            int old = page[i];
            if (old == 0) {
                page[i] = value;
                size++;
            }
            return old;
        }
        int old = alphanumeric.putIfAbsent(id - NUMERIC_ROOTS, value);
        if (old == 0) {
            size++;
        }
        return old;
    }

    /** Roots held. */
    public long size() {
        return size;
    }
}
