package dev.cadastro.server.cli;

/** The command line was wrong: the message says which argument and what was expected. Exit status 2. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
