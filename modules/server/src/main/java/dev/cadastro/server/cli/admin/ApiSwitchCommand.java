package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;

/** {@code admin disable-api} and {@code admin enable-api}: an account's API switched off or on. */
abstract class ApiSwitchCommand extends AccountSubcommand {
    private final boolean enabled;

    ApiSwitchCommand(boolean enabled) {
        this.enabled = enabled;
    }

    @Override
    final void run(Store store, PrintStream out) {
        Account a = store.accounts().setApiEnabled(account(store), enabled);
        out.println("account " + a.id() + ": API " + (a.apiEnabled() ? "enabled" : "disabled"));
    }
}
