package dev.cadastro.server.cli;

import java.io.PrintStream;
import java.util.List;

/** One subcommand of {@code ./cadastro}. */
public interface Command {

    /** The word that selects the command: {@code ./cadastro <name> ...}. */
    String name();

    /** One line for the command list: the arguments it takes and what it does. */
    String summary();

    /**
     * Runs the command.
     *
     * @return the process exit status: 0 success, 1 a result the user asked about is negative (an
     *     invalid document, say), 2 a usage error
     */
    int run(List<String> args, PrintStream out, PrintStream err) throws Exception;
}
