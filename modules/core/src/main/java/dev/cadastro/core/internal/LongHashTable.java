package dev.cadastro.core.internal;

import java.util.Arrays;

/**
 * Open-addressing hash table of non-negative long keys, as a set or with an int per key (a map, or a
 * counter): linear probing, filled up to three quarters, no boxing. A set keeps the keys alone (the
 * loader's duplicate check holds up to 70 million CNPJs in 1 GB); a map adds an int array of the same
 * length. Keys are stored plus one, so the zeroed array is empty without a fill. Not thread-safe.
 */
public final class LongHashTable {
    private static final int MAX_CAPACITY = 1 << 30;

    private long[] keys;
    /** Null for a set. */
    private int[] values;

    private int size;
    private int mask;

    private LongHashTable(int expected, boolean withValues) {
        if (expected < 0) {
            throw new IllegalArgumentException("expected " + expected + " must not be negative");
        }
        int cap = Integer.highestOneBit((int) Math.min(1 << 29, Math.max(16, expected * 4L / 3))) << 1;
        keys = new long[cap];
        values = withValues ? new int[cap] : null;
        mask = cap - 1;
    }

    /** A set sized for {@code expected} keys without growing. */
    public static LongHashTable set(int expected) {
        return new LongHashTable(expected, false);
    }

    /** A map from key to int (0 for an absent key) sized for {@code expected} keys without growing. */
    public static LongHashTable map(int expected) {
        return new LongHashTable(expected, true);
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private static long stored(long key) {
        if (key < 0) {
            throw new IllegalArgumentException("key " + key + " must not be negative");
        }
        return key + 1;
    }

    /** The slot of a key: where it is, or the empty slot where it goes. */
    private int slot(long k) {
        int i = mix(k) & mask;
        for (long at = keys[i]; at != k && at != 0; at = keys[i]) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Adds a key; false when it was present. In a map, an added key has the value 0. */
    public boolean add(long key) {
        long k = stored(key);
        int i = slot(k);
        if (keys[i] == k) {
            return false;
        }
        insert(i, k);
        return true;
    }

    public boolean contains(long key) {
        long k = stored(key);
        return keys[slot(k)] == k;
    }

    /** A map's value of a key, 0 when absent. */
    public int get(long key) {
        long k = stored(key);
        int i = slot(k);
        return keys[i] == k ? values[i] : 0;
    }

    /** Sets a map's value of a key unless the key is present; returns the present value, or 0. */
    public int putIfAbsent(long key, int value) {
        long k = stored(key);
        int i = slot(k);
        if (keys[i] == k) {
            return values[i];
        }
        values[i] = value;
        insert(i, k);
        return 0;
    }

    /** Adds one to a map's value of a key (an absent key counts from 0). */
    public void increment(long key) {
        long k = stored(key);
        int i = slot(k);
        values[i]++;
        if (keys[i] != k) {
            insert(i, k);
        }
    }

    /** Keys held. */
    public int size() {
        return size;
    }

    /** The keys in ascending order, in a new array. */
    public long[] sortedKeys() {
        long[] out = new long[size];
        int n = 0;
        for (long k : keys) {
            if (k != 0) {
                out[n++] = k - 1;
            }
        }
        Arrays.sort(out);
        return out;
    }

    private void insert(int i, long k) {
        keys[i] = k;
        if (++size * 4L > keys.length * 3L) {
            grow();
        }
    }

    private void grow() {
        if (keys.length >= MAX_CAPACITY) {
            throw new IllegalStateException("more than " + MAX_CAPACITY / 4 * 3 + " keys");
        }
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = oldValues == null ? null : new int[keys.length];
        mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            long k = oldKeys[j];
            if (k != 0) {
                int i = mix(k) & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                if (values != null) {
                    values[i] = oldValues[j];
                }
            }
        }
    }
}
