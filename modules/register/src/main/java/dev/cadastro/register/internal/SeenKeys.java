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
 * Each filter is <em>blocked</em>: a key's {@value #HASHES} bits all fall in one 512-bit block (one cache
 * line), chosen by one hash of the key, the bits by a second; so a look in a filter is one memory access,
 * where a classic filter's seven bits are seven (at 70 M the filters are far larger than any cache, and
 * the classic chain cost some 400 ns a key under the builder's lock; blocked, about a third of that).
 * {@value #BITS_PER_KEY} bits a key: false positives about 1% of a full filter, so some 4% of new keys
 * over a chain of 5 filters, each costing its record the three bytes of a sequence; at 70 M keys the chain
 * is 5 filters, 155 MB. Not thread-safe: the builder holds its lock around the check and the sequence it
 * decides.
 */
public final class SeenKeys {
    static final int FIRST = 1 << 22;
    static final int BITS_PER_KEY = 10;
    static final int HASHES = 7;
    /** Longs in a block: 8, 512 bits, one 64-byte cache line. */
    private static final int BLOCK_WORDS = 8;

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
        long blocks = Math.max(1, (keys * BITS_PER_KEY + 511) / 512);
        if (blocks * BLOCK_WORDS > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("too many keys for the duplicate filter: " + keys);
        }
        filters.add(new long[(int) (blocks * BLOCK_WORDS)]);
        capacity = keys;
        inNewest = 0;
    }

    /** Adds the key; true when it may have been added before (always true when it was). */
    public boolean addAndCheck(long key) {
        if (filters.isEmpty()) {
            throw new IllegalStateException("the duplicate filter was released");
        }
        long where = Mix.fmix64(key);
        long bits = Mix.fmix64(key ^ 0x9e3779b97f4a7c15L);
        for (long[] f : filters) {
            if (contains(f, where, bits)) {
                return true;
            }
        }
        if (inNewest >= capacity) {
            startFilter(capacity * 2);
        }
        long[] newest = filters.get(filters.size() - 1);
        int base = block(newest, where);
        for (int i = 0; i < HASHES; i++) {
            int bit = (int) (bits >>> (9 * i)) & 511;
            newest[base + (bit >>> 6)] |= 1L << bit;
        }
        inNewest++;
        return false;
    }

    private static boolean contains(long[] f, long where, long bits) {
        int base = block(f, where);
        for (int i = 0; i < HASHES; i++) {
            int bit = (int) (bits >>> (9 * i)) & 511;
            if ((f[base + (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The first word of the key's block: the hash's top 32 bits scaled to the block count (no division). */
    private static int block(long[] f, long where) {
        long blocks = f.length / BLOCK_WORDS;
        return (int) (((where >>> 32) * blocks) >>> 32) * BLOCK_WORDS;
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
}
