package dev.cadastro.core.mailing;

import dev.cadastro.core.register.DataReference;
import dev.cadastro.core.register.Empresa;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

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

    /** The rows of one open export. */
    interface LeadSink extends Closeable {
        /** Appends one record as one row. */
        void add(Empresa empresa) throws IOException;

        /** Rows added so far, the header excluded. */
        long rows();

        /**
         * Records in the file the reference month and publication time of the register generation the rows
         * are read from; a writer with nowhere to put them ignores them.
         */
        default void describe(DataReference reference) {}
    }
}
