package dev.cadastro.loader.internal;

/**
 * Open-addressing set of non-negative longs, filled up to three quarters (1 GB for the 70 million
 * establishment keys of a full dump). Not thread-safe.
 */
public final class LongHashSet {
    private long[] keys;
    private int size;
    private int mask;

    public LongHashSet(int expected) {
        int cap = Integer.highestOneBit((int) Math.min(1 << 29, Math.max(16, expected * 4L / 3))) << 1;
        keys = new long[cap];
        mask = cap - 1;
    }

    static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** Adds a key (not negative); false when it was present. */
    public boolean add(long key) {
        long k = key + 1;
        for (int i = mix(k) & mask; ; i = (i + 1) & mask) {
            long at = keys[i];
            if (at == k) {
                return false;
            }
            if (at == 0) {
                keys[i] = k;
                if (++size * 4L > keys.length * 3L) {
                    grow();
                }
                return true;
            }
        }
    }

    public boolean contains(long key) {
        long k = key + 1;
        for (int i = mix(k) & mask; ; i = (i + 1) & mask) {
            long at = keys[i];
            if (at == k) {
                return true;
            }
            if (at == 0) {
                return false;
            }
        }
    }

    public int size() {
        return size;
    }

    private void grow() {
        if (keys.length >= 1 << 30) {
            throw new IllegalStateException("more than 2^29 keys");
        }
        long[] old = keys;
        keys = new long[old.length * 2];
        mask = keys.length - 1;
        for (long k : old) {
            if (k != 0) {
                int i = mix(k) & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
            }
        }
    }
}
