package dev.cadastro.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class LongHashTableProperties {

    /** Few distinct keys, so they repeat; zero and the largest key among them; enough to grow twice. */
    @Provide
    Arbitrary<List<Long>> keys() {
        return Arbitraries.oneOf(
                        Arbitraries.longs().between(0, 200),
                        Arbitraries.longs().between(0, Long.MAX_VALUE - 1),
                        Arbitraries.of(0L, Long.MAX_VALUE - 1))
                .list()
                .ofMaxSize(400);
    }

    @Property(tries = 300)
    void aSetMatchesAHashSetThroughGrowth(@ForAll("keys") List<Long> keys) {
        LongHashTable set = LongHashTable.set(4);
        Set<Long> reference = new HashSet<>();
        for (long k : keys) {
            assertEquals(reference.add(k), set.add(k), "add " + k);
        }
        assertEquals(reference.size(), set.size());
        for (long k : keys) {
            assertEquals(true, set.contains(k));
            assertEquals(reference.contains(k + 1), set.contains(k + 1), "contains " + (k + 1));
        }
        assertArrayEquals(reference.stream().mapToLong(Long::longValue).sorted().toArray(), set.sortedKeys());
    }

    @Property(tries = 300)
    void aMapMatchesAHashMapThroughGrowth(@ForAll("keys") List<Long> keys) {
        LongHashTable map = LongHashTable.map(4);
        Map<Long, Integer> reference = new HashMap<>();
        int value = 1;
        for (long k : keys) {
            assertEquals(reference.getOrDefault(k, 0), map.putIfAbsent(k, value), "putIfAbsent " + k);
            reference.putIfAbsent(k, value++);
        }
        assertEquals(reference.size(), map.size());
        for (long k : keys) {
            assertEquals(reference.get(k), map.get(k));
            assertEquals(reference.getOrDefault(k + 1, 0), map.get(k + 1), "get " + (k + 1));
        }
    }

    @Property(tries = 300)
    void incrementCountsEachKey(@ForAll("keys") List<Long> keys) {
        LongHashTable counts = LongHashTable.map(4);
        Map<Long, Integer> reference = new HashMap<>();
        for (long k : keys) {
            counts.increment(k);
            reference.merge(k, 1, Integer::sum);
        }
        assertEquals(reference.size(), counts.size());
        long[] sorted = counts.sortedKeys();
        assertArrayEquals(
                reference.keySet().stream().mapToLong(Long::longValue).sorted().toArray(), sorted);
        for (long k : sorted) {
            assertEquals(reference.get(k), counts.get(k), "count of " + k);
        }
    }

    @Test
    void rejectsNegativeKeys() {
        assertThrows(IllegalArgumentException.class, () -> LongHashTable.set(4).add(-1));
        assertThrows(IllegalArgumentException.class, () -> LongHashTable.map(4).increment(-5));
    }
}
