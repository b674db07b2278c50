package dev.cadastro.loader.internal;

import java.util.Arrays;

/** Open-addressing map from non-zero long keys to positive ints; 0 means absent. Not thread-safe. */
final class LongIntHashMap {
    private long[] keys;
    private int[] values;
    private int size;
    private int mask;

    LongIntHashMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        mask = cap - 1;
    }

    int get(long key) {
        long k = key + 1;
        for (int i = LongHashSet.mix(k) & mask; ; i = (i + 1) & mask) {
            long at = keys[i];
            if (at == k) {
                return values[i];
            }
            if (at == 0) {
                return 0;
            }
        }
    }

    int putIfAbsent(long key, int value) {
        long k = key + 1;
        for (int i = LongHashSet.mix(k) & mask; ; i = (i + 1) & mask) {
            long at = keys[i];
            if (at == k) {
                return values[i];
            }
            if (at == 0) {
                keys[i] = k;
                values[i] = value;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return 0;
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            long k = oldKeys[j];
            if (k != 0) {
                int i = LongHashSet.mix(k) & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                values[i] = oldValues[j];
            }
        }
        Arrays.fill(oldKeys, 0);
    }
}
