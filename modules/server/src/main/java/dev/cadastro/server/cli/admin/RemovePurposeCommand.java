package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code admin remove-purpose}: a contracted purpose ended. */
@Command(name = "remove-purpose", description = "End a purpose an account contracted.")
public final class RemovePurposeCommand extends PurposeSubcommand {
    @Override
    void run(Store store, PrintStream out) {
        Account a = store.accounts().removePurpose(account(store), purpose);
        out.println("account " + a.id() + ": purpose " + purpose + " removed; contracted: "
                + a.purposes().keySet());
    }
}
