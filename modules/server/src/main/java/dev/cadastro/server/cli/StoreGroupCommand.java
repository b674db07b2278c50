package dev.cadastro.server.cli;

import dev.cadastro.server.cli.admin.StoreOptions;
import dev.cadastro.store.Store;
import java.time.Clock;
import java.util.Objects;
import picocli.CommandLine.Mixin;

/**
 * A group of commands on the store a server uses ({@code admin}, {@code calls}), also while that server
 * runs: it carries the store flags ({@link StoreOptions}, inherited, so given before or after any
 * subcommand) and the clock of what its subcommands write. Alone it prints its usage.
 */
public abstract class StoreGroupCommand extends CliCommand {
    @Mixin
    StoreOptions store;

    private final Clock clock;

    protected StoreGroupCommand(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public final Integer call() {
        Cli.usageOnError(spec.commandLine());
        return Cli.USAGE;
    }

    /** The clock of entries, keys and tokens, for the subcommands. */
    public final Clock clock() {
        return clock;
    }

    /** The store flags, wherever on the command line they were given. */
    public final StoreOptions store() {
        return store;
    }

    /** Opens the store the flags name, with this group's clock. */
    public final Store open() {
        return Store.open(store.resolve(), clock);
    }
}
