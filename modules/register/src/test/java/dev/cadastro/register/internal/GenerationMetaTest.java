package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.register.PublishedIndex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generation's metadata records whether it has debt data (version 2); one written before (version 1,
 * no version key) is refused with a message that asks for a load.
 */
class GenerationMetaTest {
    @TempDir
    Path dir;

    @Test
    void versionTwoRecordsWhetherTheGenerationHasDebtData() throws IOException {
        for (boolean debt : new boolean[] {true, false}) {
            Generations.writeMeta(dir, 4, 10, 255, "dump D60808", Instant.parse("2026-08-01T00:00:00Z"), debt);
            String text = Files.readString(dir.resolve(Generations.META));
            assertTrue(text.startsWith("version=2\n"), text);
            assertTrue(text.contains("\ndebtData=" + debt + "\n"), text);
            PublishedIndex read = Generations.readMeta(dir);
            assertEquals(debt, read.debtData());
            assertEquals(4, read.generation());
            assertEquals("dump D60808", read.sourceLabel());
        }
    }

    @Test
    void theReferenceMonthIsAnOptionalKeyOfVersionTwo() throws IOException {
        Instant at = Instant.parse("2026-11-28T13:00:00Z");
        Generations.writeMeta(dir, 5, 10, 255, "dump", at, true, Optional.of(YearMonth.of(2026, 11)));
        String text = Files.readString(dir.resolve(Generations.META));
        assertTrue(text.startsWith("version=2\n"), "no new version: older readers ignore the key: " + text);
        assertTrue(text.contains("\nreferenceMonth=2026-11\n"), text);
        assertEquals(
                Optional.of(YearMonth.of(2026, 11)), Generations.readMeta(dir).referenceMonth());

        Generations.writeMeta(dir, 6, 10, 255, "dump", at, true);
        assertFalse(Files.readString(dir.resolve(Generations.META)).contains("referenceMonth"));
        assertEquals(Optional.empty(), Generations.readMeta(dir).referenceMonth(), "without it: no month");
    }

    @Test
    void aMalformedReferenceMonthIsNoMonthNotAFailure() throws IOException {
        Files.writeString(
                dir.resolve(Generations.META),
                "version=2\ngeneration=3\ndocuments=10\nchecksum=ff\npublishedAt=2026-08-01T00:00:00Z\n"
                        + "sourceLabel=x\ndebtData=true\nreferenceMonth=2026-13\n",
                StandardCharsets.UTF_8);
        PublishedIndex read = Generations.readMeta(dir);
        assertEquals(Optional.empty(), read.referenceMonth());
        assertEquals(3, read.generation());
    }

    @Test
    void versionOneAsksForALoad() throws IOException {
        Files.writeString(
                dir.resolve(Generations.META),
                "generation=3\ndocuments=10\nchecksum=ff\npublishedAt=2026-08-01T00:00:00Z\nsourceLabel=x\n",
                StandardCharsets.UTF_8);
        OutdatedFormatException e = assertThrows(OutdatedFormatException.class, () -> Generations.readMeta(dir));
        assertTrue(e.getMessage().contains("generation.properties version 1"), e.getMessage());
        assertTrue(e.getMessage().contains("run `cadastro load` again"), e.getMessage());
    }

    @Test
    void aNewerVersionIsRefused() throws IOException {
        Files.writeString(
                dir.resolve(Generations.META),
                "version=3\ngeneration=3\ndocuments=10\nchecksum=ff\npublishedAt=2026-08-01T00:00:00Z\nsourceLabel=x\n",
                StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class, () -> Generations.readMeta(dir));
        assertTrue(e.getMessage().contains("version 3"), e.getMessage());
    }
}
