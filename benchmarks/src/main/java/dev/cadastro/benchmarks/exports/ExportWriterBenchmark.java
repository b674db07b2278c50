package dev.cadastro.benchmarks.exports;

import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.LeadFileWriter.LeadSink;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.exports.ZipLeadFileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The file of a 50,000-lead mailing export: {@link ZipLeadFileWriter} writing {@value #LEADS}
 * realistic {@link Empresa} records to a ZIP of one CSV or one XLSX, the work a mailing job does
 * between reading the leads from the index and committing the file to the file store.
 *
 * <p>Production path: {@code ZipLeadFileWriter.open(format, name, out)}, then {@code LeadSink.accept} per
 * record and {@code close}, at the given deflate level (1 is the default). The output goes to a stream
 * that counts the bytes and keeps none, so the figure is the writer's CPU time without a disk.
 *
 * <p>Floor: {@link #fastexcelAlone30TextCells} writes {@value #LEADS} rows of 30 text cells with
 * fastexcel alone (inline strings, a flush every 1,024 rows, its default level 4), the "streaming XLSX
 * writer alone" of the issue, so the XLSX export can be read as a ratio to the library it stands on.
 *
 * <p>The records are built once in setup from a fixed seed (codes with leading zeros, accented names,
 * a tenth of the optional fields absent); each invocation returns the byte count so nothing is dead code.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ExportWriterBenchmark {
    static final int LEADS = 50_000;
    private static final int TEXT_CELLS = 30;

    private Empresa[] leads;
    private String[] pool;

    /** The export's options; a state of its own so that the floor is not repeated for each of them. */
    @State(Scope.Benchmark)
    public static class Options {
        @Param({"CSV", "XLSX"})
        public ExportFormat format;

        @Param({"1", "6"})
        public int level;

        ZipLeadFileWriter writer;

        @Setup
        public void setUp() {
            writer = ZipLeadFileWriter.builder().compressionLevel(level).build();
        }
    }

    /** Counts what it is given and keeps nothing. */
    static final class CountingStream extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }

    @Setup
    public void setUp() {
        leads = RealisticLeads.generate(LEADS, 20260723L);
        pool = floorPool();
    }

    @Benchmark
    public long export(Options options) throws IOException {
        CountingStream out = new CountingStream();
        ExportFormat format = options.format;
        try (LeadSink sink = options.writer.open(format, "mailing-bench." + format.wire(), out)) {
            for (Empresa lead : leads) {
                sink.accept(lead);
            }
        }
        return out.count;
    }

    @Benchmark
    public long fastexcelAlone30TextCells() throws IOException {
        return fastexcelFloor(pool);
    }

    /** The texts the floor writes: 65,536 short words with a number, from a fixed seed. */
    static String[] floorPool() {
        SplittableRandom random = new SplittableRandom(7L);
        String[] pool = new String[1 << 16];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = RealisticLeads.word(random) + " " + random.nextInt(100_000);
        }
        return pool;
    }

    /**
     * The floor of an XLSX export: fastexcel alone writing {@value #LEADS} rows of 30 inline text cells
     * from {@code pool} (a power-of-two size) to a stream that keeps nothing; returns the bytes written.
     */
    static long fastexcelFloor(String[] pool) throws IOException {
        CountingStream out = new CountingStream();
        Workbook workbook = new Workbook(out, "Cadastro", null);
        Worksheet sheet = workbook.newWorksheet("floor");
        int mask = pool.length - 1;
        for (int r = 0; r < LEADS; r++) {
            for (int c = 0; c < TEXT_CELLS; c++) {
                sheet.inlineString(r, c, pool[(r * TEXT_CELLS + c) & mask]);
            }
            if ((r & 1023) == 1023) {
                sheet.flush();
            }
        }
        sheet.finish();
        workbook.finish();
        return out.count;
    }
}
