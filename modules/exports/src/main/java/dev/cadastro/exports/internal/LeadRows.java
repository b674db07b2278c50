package dev.cadastro.exports.internal;

import dev.cadastro.core.register.Empresa;
import java.io.IOException;

/** The rows of one file inside an export ZIP, written to the entry's stream as they come. */
public interface LeadRows {

    /** Appends one record as one row. */
    void add(Empresa empresa) throws IOException;

    /** Writes what is still buffered and ends the file, leaving the entry's stream open. */
    void finish() throws IOException;
}
