package dev.cadastro.register.internal;

/** The 64-bit finalizer of MurmurHash3: every bit of the input moves every bit of the result. */
final class Mix {
    private Mix() {}

    static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
