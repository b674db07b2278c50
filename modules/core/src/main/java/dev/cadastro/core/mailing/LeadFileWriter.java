package dev.cadastro.core.mailing;

import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterSearch;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Port: writes the leads of a mailing export as a ZIP holding one file of the requested format, one
 * record at a time, so that no export is held in memory whatever its size.
 */
public interface LeadFileWriter {

    /**
     * Starts the ZIP on {@code out}, with one entry named {@code entryName} whose first row is the
     * header (every field of {@link Empresa}, in the order of the company record's fields on the wire).
     * Closing the sink finishes the entry and the ZIP and closes {@code out}.
     */
    LeadSink open(ExportFormat format, String entryName, OutputStream out) throws IOException;

    /** The rows of one open export: what the register's export hands its records to, as they are read. */
    interface LeadSink extends Closeable, RegisterSearch.RecordSink {
        /** Appends one record as one row. */
        @Override
        void accept(Empresa empresa) throws IOException;

        /** Rows added so far, the header excluded. */
        long rows();

        /**
         * Records in the file the reference month and publication time of the register generation the rows
         * are read from; a writer with nowhere to put them only remembers them ({@link #reference}).
         */
        @Override
        void describe(DataReference reference);

        /** What {@link #describe} was given, if it was called: the month of the rows written. */
        Optional<DataReference> reference();
    }
}
