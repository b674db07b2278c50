package dev.cadastro.server.cli;

import picocli.CommandLine.Option;

/**
 * The options every command and subcommand accepts: help, how much the libraries log, and whether a
 * failure shows its stack trace. Mixed into each command so {@code --log info} works after any of them.
 */
public final class CommonOptions {
    /** How much of the libraries' logging reaches the terminal. */
    public enum LogLevel {
        warning,
        info,
        debug
    }

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help, with every flag and its default, and exit.")
    boolean help;

    @Option(
            names = "--log",
            paramLabel = "LEVEL",
            defaultValue = "warning",
            description = "Library logging shown on the terminal: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    LogLevel log = LogLevel.warning;

    @Option(names = "--verbose", description = "On a failure, print the full stack trace after the one-line message.")
    boolean verbose;
}
