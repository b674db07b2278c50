package dev.cadastro.server.cli;

/**
 * A command could not do what it was asked for a reason the user can act on (an unknown account, a
 * folder without a database): printed as its message alone, exit status 3.
 */
public final class CommandFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CommandFailure(String message) {
        super(message);
    }
}
