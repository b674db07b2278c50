package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Plan;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin set-plan}: an account's plan and daily request limit. */
@Command(name = "set-plan", description = "Change an account's plan.")
public final class SetPlanCommand extends AccountSubcommand {
    @Option(names = "--plan", paramLabel = "NAME", required = true, description = "Plan name.")
    String plan;

    @Option(names = "--daily-limit", paramLabel = "N", required = true, description = "Requests per day.")
    long dailyLimit;

    @Override
    void run(Store store, PrintStream out) {
        AccountId id = account(store);
        Account a =
                store.accounts().setPlan(id, new Plan(plan, within("--daily-limit", dailyLimit, 1, Long.MAX_VALUE)));
        out.println("account " + a.id() + ": plan " + a.plan().name() + " ("
                + a.plan().dailyRequestLimit() + " requests/day)");
    }
}
