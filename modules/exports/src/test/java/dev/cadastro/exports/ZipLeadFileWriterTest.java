package dev.cadastro.exports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.LeadFileWriter.LeadSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ZipLeadFileWriterTest {

    /** Records whether the writer closed the stream it was given. */
    private static final class ClosingProbe extends ByteArrayOutputStream {
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void zipHoldsExactlyOneEntryWithTheGivenName(ExportFormat format) {
        String name = "mailing-7f3a-" + format.wire() + "." + format.wire();
        List<Leads.Entry> entries = Leads.entries(Leads.export(format, name, Leads.nasty()));
        assertEquals(1, entries.size());
        assertEquals(name, entries.getFirst().name());
        assertTrue(entries.getFirst().bytes().length > 0);
    }

    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void closingTheSinkEndsTheZipAndClosesTheStream(ExportFormat format) throws IOException {
        ClosingProbe out = new ClosingProbe();
        LeadSink sink = ZipLeadFileWriter.standard().open(format, "a." + format.wire(), out);
        sink.accept(Leads.typical());
        assertFalse(out.closed);
        sink.close();
        assertTrue(out.closed);
        assertEquals(1, Leads.entries(out.toByteArray()).size());
        sink.close();
    }

    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void rowsCountsTheRecordsAddedWithoutTheHeader(ExportFormat format) throws IOException {
        try (LeadSink sink = ZipLeadFileWriter.standard().open(format, "a", new ByteArrayOutputStream())) {
            assertEquals(0, sink.rows());
            for (int i = 0; i < 3; i++) {
                sink.accept(Leads.typical());
            }
            assertEquals(3, sink.rows());
        }
    }

    @ParameterizedTest
    @EnumSource(ExportFormat.class)
    void addingAfterCloseIsRefused(ExportFormat format) throws IOException {
        LeadSink sink = ZipLeadFileWriter.standard().open(format, "a", new ByteArrayOutputStream());
        sink.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> sink.accept(Leads.typical()));
        assertTrue(e.getMessage().contains("closed after 0 rows"), e.getMessage());
    }

    @Test
    void anEmptyExportIsAHeaderOnlyCsv() {
        List<List<String>> rows = PtBrCsv.parse(Leads.onlyEntry(Leads.export(ExportFormat.CSV, "a.csv", List.of())));
        assertEquals(1, rows.size());
    }

    @Test
    void writesToAFileThroughAnyStream(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("mailing.zip");
        try (LeadSink sink =
                ZipLeadFileWriter.standard().open(ExportFormat.CSV, "mailing.csv", Files.newOutputStream(file))) {
            for (var lead : Leads.many(100)) {
                sink.accept(lead);
            }
        }
        List<List<String>> rows = PtBrCsv.parse(Leads.onlyEntry(Files.readAllBytes(file)));
        assertEquals(101, rows.size());
    }

    @Test
    void aHigherCompressionLevelGivesASmallerFileWithTheSameContent() throws IOException {
        List<byte[]> zips = new java.util.ArrayList<>();
        for (int level : new int[] {0, 9}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (LeadSink sink =
                    ZipLeadFileWriter.builder().compressionLevel(level).build().open(ExportFormat.CSV, "a.csv", out)) {
                for (var lead : Leads.many(2_000)) {
                    sink.accept(lead);
                }
            }
            zips.add(out.toByteArray());
        }
        assertTrue(zips.get(1).length * 3 < zips.get(0).length, zips.get(0).length + " vs " + zips.get(1).length);
        assertEquals(PtBrCsv.parse(Leads.onlyEntry(zips.get(0))), PtBrCsv.parse(Leads.onlyEntry(zips.get(1))));
    }

    @Test
    void compressionLevelOutsideZeroToNineIsRejectedNamingTheKnob() {
        for (int level : new int[] {-1, 10}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> ZipLeadFileWriter.builder().compressionLevel(level).build());
            assertEquals(
                    "compressionLevel " + level + " is outside 0 to 9 (ZipLeadFileWriter.Builder)", e.getMessage());
        }
        assertEquals(1, ZipLeadFileWriter.standard().compressionLevel());
    }

    @Test
    void aBlankEntryNameIsRejected() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ZipLeadFileWriter.standard().open(ExportFormat.CSV, " ", new ByteArrayOutputStream()));
    }
}
