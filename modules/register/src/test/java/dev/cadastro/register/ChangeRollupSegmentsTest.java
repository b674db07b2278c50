package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.internal.ChangeSet;
import dev.cadastro.register.internal.GenerationReader;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The changes rollup over a generation of several segments, each wider than the build's window of
 * documents, with deleted duplicates: it opens, and counts each change type as the change set does.
 */
class ChangeRollupSegmentsTest {
    @Test
    void changesRollupOfSeveralWideSegmentsWithDeletionsCountsAsTheChangeSet(@TempDir Path root) throws Exception {
        SyntheticRegister g = new SyntheticRegister(5);
        List<Establishment> first = new ArrayList<>();
        for (int i = 0; i < 150_000; i++) {
            first.add(g.next());
        }
        BuildOptions options = BuildOptions.builder()
                .indexingThreads(2)
                .ramBufferMb(16)
                .maxSegments(0)
                .build();
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), options)) {
            first.forEach(b::add);
            b.publish("month 1", true, Optional.of(YearMonth.of(2026, 8)));
        }
        SplittableRandom rng = new SplittableRandom(3);
        List<Establishment> second = new ArrayList<>();
        for (Establishment e : first) {
            Establishment n = e;
            if (rng.nextDouble() < 0.05) {
                n = TwoMonths.with(n, "08", null, null, null, null, null, null, null);
            }
            if (rng.nextDouble() < 0.03) {
                n = TwoMonths.with(
                        n, null, null, null, "x" + rng.nextInt(1000) + "@example.com", null, null, null, null);
            }
            if (rng.nextDouble() < 0.02) {
                second.add(e); // a duplicate, dropped (deleted) at publication: the last added is kept
            }
            second.add(n);
        }
        SyntheticRegister fresh = new SyntheticRegister(6, 60_000_000L);
        for (int i = 0; i < 2_000; i++) {
            second.add(fresh.next());
        }
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), options)) {
            second.forEach(b::add);
            b.publish("month 2", true, Optional.of(YearMonth.of(2026, 9)));
        }
        Path current = LuceneRegister.currentGeneration(root).orElseThrow().path();
        try (FSDirectory dir = FSDirectory.open(current);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            assertTrue(
                    reader.leaves().size() > 1, "segments: " + reader.leaves().size());
            assertTrue(reader.hasDeletions(), "deleted duplicates");
            int widest = 0;
            for (var leaf : reader.leaves()) {
                widest = Math.max(widest, leaf.reader().maxDoc());
            }
            assertTrue(widest > 1 << 16, "a segment wider than the build window: " + widest);
        }
        GenerationReader gen = GenerationReader.open(current, 0, () -> {});
        try {
            ChangeSet changes = gen.changes();
            assertEquals(changes.size(), gen.changeRollup().documents());
            RegisterQuery all = RegisterQuery.builder().countOnly(true).buildWithoutFilterRule();
            for (ChangeType t : ChangeType.values()) {
                assertEquals(Optional.of(changes.count(t)), gen.rolledUpChangeCount(all, EnumSet.of(t)), t.toString());
            }
            assertEquals(Optional.of((long) changes.size()), gen.rolledUpChangeCount(all, Set.of()));
        } finally {
            gen.release();
        }
    }
}
