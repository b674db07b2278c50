package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.RegisterSearch;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference month handed with an answer is the one of the generation that produced it: a batch of
 * lookups and an export each read it from the generation they acquired, so a generation swapped in
 * after the register's current month was read cannot mislabel them.
 */
class ReferenceOfAnswerTest {
    private static final SearchOptions NO_TIMER =
            SearchOptions.builder().refreshInterval(Duration.ZERO).build();
    private static final BuildOptions SMALL =
            BuildOptions.builder().ramBufferMb(32).indexingThreads(1).build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-08-09T03:00:00Z"), ZoneOffset.UTC);

    private static void build(Path root, List<Establishment> rows, YearMonth month) {
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), SMALL, CLOCK)) {
            rows.forEach(b::add);
            b.publish("month " + month, true, Optional.of(month));
        }
    }

    @Test
    void anExportAndABatchNameTheMonthOfTheGenerationTheyRead(@TempDir Path root) throws Exception {
        List<Establishment> first = CrashBeforePoint.rows(1, 300);
        build(root, first, YearMonth.of(2026, 8));
        try (LuceneRegister register = LuceneRegister.open(root, NO_TIMER)) {
            String readBefore = register.reference().orElseThrow().wire();
            assertEquals("2026-08", readBefore);
            // Another generation, other records, another month, swapped in after the month was read.
            List<Establishment> second = CrashBeforePoint.rows(2, 200);
            build(root, second, YearMonth.of(2026, 9));
            assertTrue(register.refresh());

            List<DataReference> described = new ArrayList<>();
            List<Empresa> exported = new ArrayList<>();
            RegisterQuery all = RegisterQuery.builder().mei(false).build();
            long n = register.export(all, 1_000, new RegisterSearch.RecordSink() {
                @Override
                public void accept(Empresa empresa) {
                    assertEquals(1, described.size(), "described before the first record");
                    exported.add(empresa);
                }

                @Override
                public void describe(DataReference reference) {
                    described.add(reference);
                }
            });
            assertTrue(n > 0);
            assertEquals(register.count(all).total(), n, "the records of the new generation");
            assertEquals(
                    List.of("2026-09"),
                    described.stream().map(DataReference::wire).toList());
            assertEquals(register.published().publishedAt(), described.get(0).publishedAt());

            RegisterSearch.Lookups lookups =
                    register.lookupAllReferenced(List.of(second.get(0).cnpj()));
            assertTrue(lookups.found().get(0).isPresent());
            assertEquals("2026-09", lookups.reference().orElseThrow().wire());
        }
    }
}
