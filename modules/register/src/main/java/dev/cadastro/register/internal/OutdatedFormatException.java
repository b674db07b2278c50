package dev.cadastro.register.internal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A generation written in a format this build no longer reads. Only the current format of each file is
 * read (no index of this snapshot needs another), so the way out is to build the index again.
 */
public final class OutdatedFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param generation the generation's directory
     * @param what the file or layout that is older, and how ("cnpj.map version 1")
     */
    public OutdatedFormatException(Path generation, String what) {
        this(generation, what, null);
    }

    public OutdatedFormatException(Path generation, String what, Throwable cause) {
        super(
                generation + " was written by an earlier build of Cadastro (" + what
                        + "), which this one no longer reads: run `cadastro load` again to rebuild the register index",
                cause);
    }
}
