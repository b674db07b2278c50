package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code admin enable-api}: the API on again for an account. */
@Command(name = "enable-api", description = "Enable the API for an account again.")
public final class EnableApiCommand extends AccountSubcommand {
    @Override
    void run(Store store, PrintStream out) {
        Account a = store.accounts().setApiEnabled(account(store), true);
        out.println("account " + a.id() + ": API " + (a.apiEnabled() ? "enabled" : "disabled"));
    }
}
