package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.RegisterQuery;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rollup's classification of query parameters and its cost bound, without an index. */
class RollupDimensionsTest {
    @Test
    void everyQueryParameterIsEitherCoveredOrDeclined() {
        Set<String> both = new HashSet<>(Rollup.COVERED);
        both.retainAll(Rollup.DECLINED);
        assertTrue(both.isEmpty(), "in both sets: " + both);
        Set<String> all = new HashSet<>(Rollup.COVERED);
        all.addAll(Rollup.DECLINED);
        assertEquals(new HashSet<>(RegisterQuery.PARAMETERS), all);
    }

    @Test
    void aCuboidDeclinesQueriesThatWouldNeedTooManyRanges() {
        int sit = Rollup.FIELDS.indexOf(Schema.SITUACAO);
        int cnae = Rollup.FIELDS.indexOf(Schema.CNAE);
        int geo = Rollup.FIELDS.indexOf(Schema.GEO);
        int email = Rollup.FIELDS.indexOf(Schema.EMAIL);
        // 5 situations, 1,300 CNAEs, 5,570 places: no keys needed to price a query.
        Rollup.Cuboid c =
                new Rollup.Cuboid(new int[] {sit, cnae, geo}, new int[] {5, 1300, 5570}, new long[0], new int[1]);
        int[][] bound = new int[Rollup.FIELDS.size()][];
        bound[geo] = new int[] {10, 11, 12, 40};
        // Every CNAE of every situation, then two runs of places: 6 * 1,301 * 2 ranges.
        assertEquals(Long.MAX_VALUE, c.cost(bound));
        bound[sit] = new int[] {2};
        bound[cnae] = new int[] {7, 9, 30};
        assertEquals(3 * 2, c.cost(bound));
        bound[email] = new int[] {2};
        assertEquals(Long.MAX_VALUE, c.cost(bound), "e-mail is not a dimension of this cuboid");
    }
}
