package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The duplicate filter never says "new" for a key it was given (whatever the growth of its chain), and
 * says "seen" for few keys it was not given.
 */
class SeenKeysProperties {

    @Property(tries = 60)
    void neverForgetsAKeyAndRarelyInventsOne(
            @ForAll @IntRange(min = 1, max = 20_000) int keys,
            @ForAll @IntRange(min = 16, max = 2_048) int first,
            @ForAll @IntRange(min = 0, max = 30) int repeatPercent,
            @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        SeenKeys seen = new SeenKeys(first);
        Set<Long> given = new HashSet<>();
        List<Long> order = new ArrayList<>();
        long falsePositives = 0;
        long fresh = 0;
        for (int i = 0; i < keys; i++) {
            long key = !order.isEmpty() && random.nextInt(100) < repeatPercent
                    ? order.get(random.nextInt(order.size()))
                    : random.nextLong();
            boolean repeat = given.contains(key);
            boolean said = seen.addAndCheck(key);
            if (repeat) {
                assertTrue(said, "a key given before must be seen: " + key);
            } else {
                fresh++;
                if (said) {
                    falsePositives++;
                }
                given.add(key);
                order.add(key);
            }
        }
        for (long k : given) {
            assertTrue(seen.addAndCheck(k), "every key given stays seen");
        }
        // About 1% a full filter (blocked), summed over the filters of the chain (each new key is looked for in all).
        long bound = 5 + fresh * seen.filters() * 15 / 1_000;
        assertTrue(
                falsePositives <= bound, falsePositives + " false of " + fresh + " in " + seen.filters() + " filters");
    }

    @Property(tries = 1)
    void aReleasedFilterTakesNoMoreKeys() {
        SeenKeys seen = new SeenKeys(16);
        assertFalse(seen.addAndCheck(42));
        seen.release();
        assertThrows(IllegalStateException.class, () -> seen.addAndCheck(42));
    }
}
