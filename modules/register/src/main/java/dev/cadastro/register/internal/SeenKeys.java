package dev.cadastro.register.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The CNPJ keys a build has been given, as a chain of Bloom filters: {@link #addAndCheck} says whether a
 * key may have been given before (never "no" for a key that was; "yes" for a new key with a small
 * probability). The builder stores an establishment's add sequence only when its key may be a repeat, so
 * the first copy of every CNPJ (nearly all of them) stores 0 and the record is about three bytes shorter
 * (docs/adr/0034-smaller-records-and-map.md); the copy added last still has the largest sequence.
 *
 * <p>The count of keys is not known in advance, so the filters double: the first holds {@value #FIRST}
 * keys; when the newest is full, a twice larger one is started, and a key is looked for in all of them.
 * Each filter has {@value #BITS_PER_KEY} bits a key and {@value #HASHES} hashes (false positives about
 * 0.8% of a full filter, so some 5% of new keys over a chain of 7 filters, each costing its record the
 * three bytes of a sequence); at 70 M keys the chain is 7 filters, 159 MB. Not thread-safe: the builder holds
 * its lock around the check and the sequence it decides.
 */
public final class SeenKeys {
    static final int FIRST = 1 << 20;
    static final int BITS_PER_KEY = 10;
    static final int HASHES = 7;

    private final List<long[]> filters = new ArrayList<>();
    private long capacity;
    private long inNewest;

    public SeenKeys() {
        this(FIRST);
    }

    SeenKeys(int first) {
        startFilter(first);
    }

    private void startFilter(long keys) {
        long bits = Math.max(64, keys * BITS_PER_KEY);
        long words = (bits + 63) >>> 6;
        if (words > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("too many keys for the duplicate filter: " + keys);
        }
        filters.add(new long[(int) words]);
        capacity = keys;
        inNewest = 0;
    }

    /** Adds the key; true when it may have been added before (always true when it was). */
    public boolean addAndCheck(long key) {
        if (filters.isEmpty()) {
            throw new IllegalStateException("the duplicate filter was released");
        }
        long h = mix(key);
        int h1 = (int) h;
        int h2 = (int) (h >>> 32) | 1;
        for (long[] f : filters) {
            if (contains(f, h1, h2)) {
                return true;
            }
        }
        if (inNewest >= capacity) {
            startFilter(capacity * 2);
        }
        long[] newest = filters.get(filters.size() - 1);
        long bits = (long) newest.length << 6;
        for (int i = 0; i < HASHES; i++) {
            long bit = Integer.toUnsignedLong(h1 + i * h2) % bits;
            newest[(int) (bit >>> 6)] |= 1L << bit;
        }
        inNewest++;
        return false;
    }

    private static boolean contains(long[] f, int h1, int h2) {
        long bits = (long) f.length << 6;
        for (int i = 0; i < HASHES; i++) {
            long bit = Integer.toUnsignedLong(h1 + i * h2) % bits;
            if ((f[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Lets the filters go (the build takes no more keys). */
    public void release() {
        filters.clear();
    }

    /** Filters in the chain. */
    int filters() {
        return filters.size();
    }

    /** Heap held by the filters. */
    public long bytes() {
        long words = 0;
        for (long[] f : filters) {
            words += f.length;
        }
        return words * Long.BYTES;
    }

    /** The finalizer of MurmurHash3's 64-bit variant: every bit of the key moves every bit of the hash. */
    private static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
