package dev.cadastro.server.cli;

import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.store.Store;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.ParentCommand;

/**
 * A group of {@code ./cadastro admin} subcommands kept in its own class ({@code calls-token}, {@code
 * calls-push}): alone it prints its usage; its subcommands open the store admin's flags name (inherited,
 * so given before or after any of the subcommands), with admin's clock.
 */
abstract class AdminGroup extends CliCommand {
    /** How the groups print an instant: the one format of the command line and the API. */
    static final DateTimeFormatter WHEN = SaoPauloTime.FORMATTER;

    @ParentCommand
    AdminCommand admin;

    @Override
    public final Integer call() {
        Cli.usageOnError(spec.commandLine());
        return Cli.USAGE;
    }

    /** Opens the store admin's flags name, wherever on the command line they were given. */
    final Store open() {
        return admin.open();
    }

    /** The clock of entries and tokens: admin's. */
    final Clock clock() {
        return admin.clock();
    }
}
