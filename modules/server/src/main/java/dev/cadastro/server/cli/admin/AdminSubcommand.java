package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.server.cli.AdminCommand;
import dev.cadastro.server.cli.Cli;
import dev.cadastro.server.cli.CliCommand;
import dev.cadastro.server.cli.CommandFailure;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.ParentCommand;

/** One {@code ./cadastro admin} subcommand: resolves the store admin's flags name, opens it, runs, closes it. */
public abstract class AdminSubcommand extends CliCommand {
    /** How admin prints an instant: the one format of the command line and the API. */
    static final DateTimeFormatter WHEN = SaoPauloTime.FORMATTER;

    @ParentCommand
    AdminCommand admin;

    @Override
    public final Integer call() {
        try (Store opened = admin.open()) {
            run(opened, out());
        }
        return Cli.DONE;
    }

    abstract void run(Store store, PrintStream out);

    /** The clock of entries and keys: admin's. */
    Clock clock() {
        return admin.clock();
    }

    /** The account numbered {@code number}, or the one failure every subcommand gives when there is none. */
    final AccountId existingAccount(Store store, long number) {
        if (number < 1) {
            throw usage("--account " + number + " must be a positive account number");
        }
        AccountId id = new AccountId(number);
        if (store.accounts().find(id).isEmpty()) {
            throw new CommandFailure(
                    "account " + id + " does not exist (./cadastro admin list-accounts lists the accounts)");
        }
        return id;
    }

    /** Scopes by their wire names, sorted and comma-separated. */
    static String wire(Set<Scope> scopes) {
        return scopes.stream().map(Scope::wire).sorted().collect(Collectors.joining(","));
    }
}
