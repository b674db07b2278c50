package dev.cadastro.loader.internal;

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
    private final LongIntHashMap alphanumeric = new LongIntHashMap(1024);
    private long size;

    /** The value of a root, or 0 when absent; -1 when the root is not 8 characters of 0-9 and A-Z. */
    public int get(byte[] b, int s, int len) {
        if (len != 8) {
            return -1;
        }
        long n = Keys.decimal(b, s, 8);
        if (n >= 0) {
            int[] page = pages[(int) (n >>> PAGE_BITS)];
            return page == null ? 0 : page[(int) (n & (PAGE - 1))];
        }
        long k = Keys.base36(b, s, 8);
        return k < 0 ? -1 : alphanumeric.get(k);
    }

    /**
     * Sets the value (positive) of a root unless it has one already.
     *
     * @return the previous value (0 when the root was absent and is now set), or -1 when the root is
     *     not 8 characters of 0-9 and A-Z
     */
    public int putIfAbsent(byte[] b, int s, int len, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("value must be positive: " + value);
        }
        if (len != 8) {
            return -1;
        }
        long n = Keys.decimal(b, s, 8);
        if (n >= 0) {
            int p = (int) (n >>> PAGE_BITS);
            int[] page = pages[p];
            if (page == null) {
                page = pages[p] = new int[PAGE];
            }
            int i = (int) (n & (PAGE - 1));
            int old = page[i];
            if (old == 0) {
                page[i] = value;
                size++;
            }
            return old;
        }
        long k = Keys.base36(b, s, 8);
        if (k < 0) {
            return -1;
        }
        int old = alphanumeric.putIfAbsent(k, value);
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
