package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.store.Store;
import picocli.CommandLine.Option;

/** An admin subcommand on one account, which must exist. */
public abstract class AccountSubcommand extends AdminSubcommand {
    @Option(names = "--account", paramLabel = "ID", required = true, description = "The account's number.")
    long accountNumber;

    /** The account, or the same failure in every subcommand when there is none. */
    final AccountId account(Store store) {
        return existingAccount(store, accountNumber);
    }
}
