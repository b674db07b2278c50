package dev.cadastro.server.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What every {@code ./cadastro} command shares: the common options, the streams it prints to (set by
 * {@link Cli} for each run), and usage errors that picocli reports like its own (exit status 2).
 * {@link #call()} returns the exit status: 0 done, 1 a negative answer, 3 a failure.
 */
public abstract class CliCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    final void streams(PrintStream out, PrintStream err) {
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
    }

    protected final PrintStream out() {
        return out;
    }

    protected final PrintStream err() {
        return err;
    }

    /** A usage error of this command: printed as one line with a pointer to its help, exit status 2. */
    protected final ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Checks a whole-number option against its range, naming the option and the bounds. */
    protected final long within(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw usage(option + " " + value
                    + (max == Long.MAX_VALUE ? " must be at least " + min : " must be between " + min + " and " + max));
        }
        return value;
    }

    /** A folder or file option that was given but blank is a usage error rather than the current folder. */
    protected final Path path(String option, String value) {
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw usage(option + " must name a folder or file");
        }
        return Path.of(value);
    }
}
