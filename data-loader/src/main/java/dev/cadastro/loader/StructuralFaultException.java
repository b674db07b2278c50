package dev.cadastro.loader;

/**
 * The dump as a whole is unusable: a file family is missing, its files carry two different extraction
 * dates, a ZIP is unreadable or fails its CRC, a ZIP holds the wrong file. The load stops before
 * anything is published; the message names the file and what was expected.
 */
public final class StructuralFaultException extends LoaderException {
    private static final long serialVersionUID = 1L;

    public StructuralFaultException(String message) {
        super(message);
    }

    public StructuralFaultException(String message, Throwable cause) {
        super(message, cause);
    }
}
