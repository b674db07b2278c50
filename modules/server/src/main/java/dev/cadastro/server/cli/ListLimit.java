package dev.cadastro.server.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --limit N}: how many rows a listing shows, from 1 to the listing's most. Each listing mixes in
 * an instance with its own default and most: {@code @Mixin ListLimit limit = new ListLimit(50, 10_000);}.
 */
public final class ListLimit {
    private final int most;

    @Spec(Spec.Target.MIXEE)
    CommandSpec listing;

    @Option(names = "--limit", paramLabel = "N", description = "How many to show (default ${DEFAULT-VALUE}).")
    long limit;

    /** For picocli's model only; a listing gives its own default and most. */
    ListLimit() {
        this(1, 1);
    }

    public ListLimit(int byDefault, int most) {
        this.limit = byDefault;
        this.most = most;
    }

    /** The number given, or the default; a usage error naming the range when it is outside 1 to the most. */
    public int value() {
        if (limit < 1 || limit > most) {
            throw new ParameterException(listing.commandLine(), "--limit " + limit + " must be between 1 and " + most);
        }
        return (int) limit;
    }
}
