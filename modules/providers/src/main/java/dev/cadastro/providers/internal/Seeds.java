package dev.cadastro.providers.internal;

import java.util.SplittableRandom;

/**
 * Deterministic randomness for the simulated providers: a generator seeded from text (a document and a
 * purpose), the same on every run and every JVM, so the same document always gets the same answer.
 */
public final class Seeds {
    private Seeds() {}

    /** A 64-bit FNV-1a hash of the parts (separated), mixed so nearby inputs spread. */
    public static long hash(String... parts) {
        long h = 0xcbf29ce484222325L;
        for (String part : parts) {
            for (int i = 0; i < part.length(); i++) {
                h ^= part.charAt(i);
                h *= 0x100000001b3L;
            }
            h ^= 0x1f;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }

    /** A generator seeded from the parts. */
    public static SplittableRandom random(String... parts) {
        return new SplittableRandom(hash(parts));
    }

    /** True for a deterministic {@code percent} of the inputs. */
    public static boolean percent(int percent, String... parts) {
        return Math.floorMod(hash(parts), 100) < percent;
    }
}
