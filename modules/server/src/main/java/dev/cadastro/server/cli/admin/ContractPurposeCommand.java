package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin contract-purpose}: a purpose contracted and the fields it releases. */
@Command(name = "contract-purpose", description = "Contract a purpose for an account and the fields it releases.")
public final class ContractPurposeCommand extends PurposeSubcommand {
    @Option(
            names = "--fields",
            paramLabel = "a,b",
            required = true,
            description = "Comma-separated fields it releases.")
    String fields;

    @Override
    void run(Store store, PrintStream out) {
        Set<String> released = Arrays.stream(fields.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        Account a = store.accounts().contractPurpose(account(store), purpose, released);
        out.println("account " + a.id() + ": purpose " + purpose + " releases "
                + a.purposes().get(purpose).stream().sorted().toList());
    }
}
