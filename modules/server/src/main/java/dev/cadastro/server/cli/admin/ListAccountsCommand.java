package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code admin list-accounts}: every account, its plan, accreditation and API state. */
@Command(name = "list-accounts", description = "List the accounts.")
public final class ListAccountsCommand extends AdminSubcommand {
    @Override
    void run(Store store, PrintStream out) {
        out.printf("%-8s %-30s %-12s %12s %-10s %s%n", "ID", "NAME", "PLAN", "DAILY", "LGPD", "API");
        for (Account a : store.accounts().list()) {
            out.printf(
                    "%-8s %-30s %-12s %12d %-10s %s%n",
                    a.id(),
                    a.name(),
                    a.plan().name(),
                    a.plan().dailyRequestLimit(),
                    a.accreditation(),
                    a.apiEnabled() ? "enabled" : "disabled");
        }
    }
}
