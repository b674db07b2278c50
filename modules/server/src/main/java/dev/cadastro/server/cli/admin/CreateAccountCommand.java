package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Plan;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin create-account}: a new account, its LGPD accreditation pending. */
@Command(name = "create-account", description = "Create an account (its LGPD accreditation starts pending).")
public final class CreateAccountCommand extends AdminSubcommand {
    @Option(names = "--name", paramLabel = "NAME", required = true, description = "The account's name.")
    String name;

    @Option(
            names = "--plan",
            paramLabel = "NAME",
            defaultValue = "basico",
            description = "Plan name (default ${DEFAULT-VALUE}).")
    String plan;

    @Option(
            names = "--daily-limit",
            paramLabel = "N",
            defaultValue = "10_000",
            description = "Requests per day the plan allows (default ${DEFAULT-VALUE}).")
    long dailyLimit;

    @Override
    void run(Store store, PrintStream out) {
        if (name.isBlank()) {
            throw usage("--name must not be blank");
        }
        Plan p = new Plan(plan, within("--daily-limit", dailyLimit, 1, Long.MAX_VALUE));
        Account a = store.accounts().create(name, p);
        out.println("account " + a.id() + " created: " + a.name() + ", plan " + p.name() + " (" + p.dailyRequestLimit()
                + " requests/day), accreditation " + a.accreditation());
    }
}
