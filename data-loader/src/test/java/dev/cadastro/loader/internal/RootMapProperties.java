package dev.cadastro.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.internal.LongHashTable;
import java.nio.charset.StandardCharsets;
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

/** The root map, root set and CNPJ key set behave as the JDK's collections do. */
class RootMapProperties {
    @Provide
    Arbitrary<List<String>> roots() {
        Arbitrary<String> numeric = Arbitraries.strings().numeric().ofLength(8);
        Arbitrary<String> alphanumeric = Arbitraries.strings()
                .withCharRange('0', '9')
                .withCharRange('A', 'Z')
                .ofLength(8);
        Arbitrary<String> invalid = Arbitraries.strings()
                .withChars('a', '-', '1', ' ')
                .ofMinLength(0)
                .ofMaxLength(9);
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(6, numeric),
                        net.jqwik.api.Tuple.of(3, alphanumeric),
                        net.jqwik.api.Tuple.of(1, invalid))
                .list()
                .ofMaxSize(300);
    }

    private static boolean valid(String root) {
        return root.length() == 8 && root.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'));
    }

    @Property(tries = 300)
    void keepsTheFirstValueOfEachRootLikeAHashMap(@ForAll("roots") List<String> roots) {
        RootMap map = new RootMap();
        RootSet set = new RootSet();
        Map<String, Integer> reference = new HashMap<>();
        for (int i = 0; i < roots.size(); i++) {
            byte[] b = roots.get(i).getBytes(StandardCharsets.ISO_8859_1);
            long id = RootMap.id(b, 0, b.length);
            assertEquals(valid(roots.get(i)), id >= 0, roots.get(i));
            if (id >= 0) {
                Integer before = reference.putIfAbsent(roots.get(i), i + 1);
                assertEquals(before == null ? 0 : before, map.putIfAbsent(id, i + 1));
                set.add(b, 0);
            }
        }
        assertEquals(reference.size(), map.size());
        assertEquals(reference.size(), set.size());
        for (String root : roots) {
            byte[] b = root.getBytes(StandardCharsets.ISO_8859_1);
            long id = RootMap.id(b, 0, b.length);
            assertEquals(reference.getOrDefault(root, 0), map.get(id), root);
            assertEquals(reference.containsKey(root), set.contains(id), root);
        }
    }

    @Property(tries = 200)
    void theKeySetMatchesAHashSetThroughGrowth(@ForAll("roots") List<String> roots) {
        LongHashTable keys = LongHashTable.set(4);
        Set<String> reference = new HashSet<>();
        for (String root : roots) {
            if (!valid(root)) {
                continue;
            }
            byte[] b = (root + "0001").getBytes(StandardCharsets.ISO_8859_1);
            assertEquals(reference.add(root), keys.add(Keys.base36(b, 0, 12)), root);
        }
        assertEquals(reference.size(), keys.size());
    }
}
