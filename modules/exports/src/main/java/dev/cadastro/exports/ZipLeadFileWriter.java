package dev.cadastro.exports;

import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.LeadFileWriter;
import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.exports.internal.CsvRows;
import dev.cadastro.exports.internal.LeadRows;
import dev.cadastro.exports.internal.XlsxRows;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The {@link LeadFileWriter} of Cadastro: a ZIP holding one CSV or one XLSX (the formats are described
 * in the package documentation), written a record at a time.
 *
 * <p>The CSV entry is deflated at the configured level. An XLSX is already a deflated ZIP, so the
 * workbook is compressed once, inside, at that level, and its entry in the export ZIP is stored without
 * a second compression that would cost time and save nothing.
 *
 * <p>The ZIP's comment names the register's reference month and the generation's publication time
 * ({@link #comment}), when the export gives them ({@link LeadSink#describe}): {@code unzip -z} shows it,
 * and the entry inside stays the one file of leads.
 */
public final class ZipLeadFileWriter implements LeadFileWriter {
    private static final int STREAM_BUFFER = 1 << 16;

    private final int compressionLevel;

    private ZipLeadFileWriter(Builder builder) {
        this.compressionLevel = builder.compressionLevel;
    }

    /** A writer with the defaults ({@link Builder#DEFAULT_COMPRESSION_LEVEL}). */
    public static ZipLeadFileWriter standard() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The deflate level of the file inside the ZIP, 0 (none) to 9 (smallest). */
    public int compressionLevel() {
        return compressionLevel;
    }

    @Override
    public LeadSink open(ExportFormat format, String entryName, OutputStream out) throws IOException {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(out, "out");
        if (entryName == null || entryName.isBlank()) {
            throw new IllegalArgumentException("entryName " + entryName + " is blank");
        }
        ZipOutputStream zip = new ZipOutputStream(new BufferedOutputStream(out, STREAM_BUFFER));
        try {
            zip.setLevel(format == ExportFormat.XLSX ? Deflater.NO_COMPRESSION : compressionLevel);
            zip.putNextEntry(new ZipEntry(entryName));
            LeadRows rows = switch (format) {
                case CSV -> new CsvRows(zip);
                case XLSX -> new XlsxRows(zip, compressionLevel);
            };
            return new ZipSink(zip, rows);
        } catch (IOException | RuntimeException e) {
            try {
                zip.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** One open export: the rows go into the single entry; closing ends the entry, the ZIP and the stream. */
    private static final class ZipSink implements LeadSink {
        private final ZipOutputStream zip;
        private final LeadRows rows;
        private long count;
        private boolean closed;
        private DataReference reference;

        ZipSink(ZipOutputStream zip, LeadRows rows) {
            this.zip = zip;
            this.rows = rows;
        }

        @Override
        public void accept(Empresa empresa) throws IOException {
            Objects.requireNonNull(empresa, "empresa");
            if (closed) {
                throw new IllegalStateException("the export is closed after " + count + " rows");
            }
            rows.add(empresa);
            count++;
        }

        @Override
        public long rows() {
            return count;
        }

        @Override
        public void describe(DataReference reference) {
            this.reference = Objects.requireNonNull(reference, "reference");
            zip.setComment(comment(reference));
        }

        @Override
        public java.util.Optional<DataReference> reference() {
            return java.util.Optional.ofNullable(reference);
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try (zip) {
                rows.finish();
                zip.closeEntry();
                zip.finish();
            }
        }
    }

    /** The ZIP comment: {@code dados_referencia=2026-11; publicado_em=2026-11-28T10:15:30-03:00}. */
    public static String comment(DataReference reference) {
        return "dados_referencia=" + reference.wire() + "; publicado_em="
                + SaoPauloTime.format(reference.publishedAt());
    }

    /** Options of the writer, validated when built. */
    public static final class Builder {
        /**
         * Deflate level 1: compressing is most of the CSV's cost, and for 50,000 leads level 1 took
         * about 150 ms for a 4.4 MB ZIP where level 6 took 370 ms for 3.6 MB (16 MB of CSV; see
         * {@code ExportWriterBenchmark}). A quarter more bytes to store and download is the better trade.
         */
        public static final int DEFAULT_COMPRESSION_LEVEL = Deflater.BEST_SPEED;

        private int compressionLevel = DEFAULT_COMPRESSION_LEVEL;

        private Builder() {}

        /** The deflate level, 0 (none) to 9 (smallest, slowest). */
        public Builder compressionLevel(int level) {
            this.compressionLevel = level;
            return this;
        }

        /**
         * @throws IllegalArgumentException when the level is outside 0 to 9
         */
        public ZipLeadFileWriter build() {
            if (compressionLevel < Deflater.NO_COMPRESSION || compressionLevel > Deflater.BEST_COMPRESSION) {
                throw new IllegalArgumentException(
                        "compressionLevel " + compressionLevel + " is outside 0 to 9 (ZipLeadFileWriter.Builder)");
            }
            return new ZipLeadFileWriter(this);
        }
    }
}
