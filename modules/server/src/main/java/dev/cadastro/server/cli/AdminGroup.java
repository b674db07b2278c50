package dev.cadastro.server.cli;

import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.server.cli.admin.StoreOptions;
import dev.cadastro.store.Store;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * A group of {@code ./cadastro admin} subcommands kept in its own class ({@code calls-token}, {@code
 * calls-push}): alone it prints its usage; its subcommands open the store named by their own flags,
 * else the group's, else admin's, with admin's clock.
 */
abstract class AdminGroup extends CliCommand {
    /** How the groups print an instant: the one format of the command line and the API. */
    static final DateTimeFormatter WHEN = SaoPauloTime.FORMATTER;

    @ParentCommand
    AdminCommand admin;

    @Mixin
    StoreOptions store;

    @Override
    public final Integer call() {
        Cli.usageOnError(spec.commandLine());
        return Cli.USAGE;
    }

    /** Opens the store a subcommand names with {@code own} flags, falling back to the group's, then admin's. */
    final Store open(StoreOptions own) {
        return Store.open(own.or(store).or(admin.store).resolve(), clock());
    }

    /** The clock of entries and tokens: admin's. */
    final Clock clock() {
        return admin.clock();
    }
}
