package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.RegisterQuery;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The rollup's classification of query parameters and its cost bound, without an index. */
class RollupDimensionsTest {
    @Test
    void everyQueryParameterIsInExactlyOneOfCoveredWholeYearsAndDeclined() {
        List<Set<RegisterQuery.Filter>> sets = List.of(Rollup.COVERED, Rollup.WHOLE_YEARS, Rollup.DECLINED);
        Set<RegisterQuery.Filter> all = new HashSet<>();
        int sizes = 0;
        for (Set<RegisterQuery.Filter> s : sets) {
            all.addAll(s);
            sizes += s.size();
        }
        assertEquals(sizes, all.size(), "a parameter is in two of the sets: " + sets);
        assertEquals(Set.of(RegisterQuery.Filter.values()), all);
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

    @Test
    void twoStatesOverThirtyYearsWithoutASituationStayWithinTheRangeLimit() {
        int sit = Rollup.FIELDS.indexOf(Schema.SITUACAO);
        int ano = Rollup.FIELDS.indexOf(Schema.ANO);
        int geo = Rollup.FIELDS.indexOf(Schema.GEO);
        // 5 situations, 126 opening years, 5,570 places.
        Rollup.Cuboid c =
                new Rollup.Cuboid(new int[] {sit, ano, geo}, new int[] {5, 126, 5570}, new long[0], new int[1]);
        int[][] bound = new int[Rollup.FIELDS.size()][];
        // Two states that are not neighbours in key order: two runs of places.
        bound[geo] = IntStream.concat(IntStream.rangeClosed(100, 744), IntStream.rangeClosed(3000, 3091))
                .toArray();
        bound[ano] = IntStream.rangeClosed(90, 126).toArray();
        // Every situation (and none) times 37 years times two runs.
        assertEquals(6 * 37 * 2, c.cost(bound));
        bound[ano] = IntStream.rangeClosed(1, 85).toArray();
        assertEquals(6 * 85 * 2, c.cost(bound));
        bound[ano] = IntStream.rangeClosed(1, 86).toArray();
        assertEquals(Long.MAX_VALUE, c.cost(bound), "6 * 86 * 2 ranges are more than the limit");
        bound[sit] = new int[] {2};
        assertEquals(86 * 2, c.cost(bound));
    }

    @Test
    void theStateCuboidPricesWholeStatesOnePerStateWhateverTheYears() {
        int sit = Rollup.FIELDS.indexOf(Schema.SITUACAO);
        int uf = Rollup.FIELDS.indexOf(Rollup.UF);
        int ano = Rollup.FIELDS.indexOf(Schema.ANO);
        int geo = Rollup.FIELDS.indexOf(Schema.GEO);
        // 5 situations, 28 states, 126 opening years.
        Rollup.Cuboid c = new Rollup.Cuboid(new int[] {sit, uf, ano}, new int[] {5, 28, 126}, new long[0], new int[1]);
        int[][] bound = new int[Rollup.FIELDS.size()][];
        bound[uf] = new int[] {3, 9, 20};
        bound[ano] = IntStream.rangeClosed(1, 126).toArray();
        // Every situation (and none) times three states; the years are one run at the last level.
        assertEquals(6 * 3, c.cost(bound));
        bound[sit] = new int[] {2};
        assertEquals(3, c.cost(bound));
        bound[geo] = new int[] {100};
        assertEquals(Long.MAX_VALUE, c.cost(bound), "a municipality is not a dimension of this cuboid");
    }
}
