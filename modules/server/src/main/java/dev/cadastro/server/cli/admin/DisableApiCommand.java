package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code admin disable-api}: the API off for an account. */
@Command(name = "disable-api", description = "Disable the API for an account: its requests answer API_DESATIVADA.")
public final class DisableApiCommand extends AccountSubcommand {
    @Override
    void run(Store store, PrintStream out) {
        Account a = store.accounts().setApiEnabled(account(store), false);
        out.println("account " + a.id() + ": API " + (a.apiEnabled() ? "enabled" : "disabled"));
    }
}
