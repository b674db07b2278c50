package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.person.Justification;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin set-justification}: the account's default justification for person lookups. */
@Command(
        name = "set-justification",
        description = "Set the account's default justification for person lookups (used when a request sends"
                + " none or an invalid one), or clear it.")
public final class SetJustificationCommand extends AccountSubcommand {
    @Option(
            names = "--text",
            paramLabel = "TEXT",
            description = "The justification: 15 to 500 characters," + " no CPF, phone (8 or more digits) or e-mail.")
    String text;

    @Option(names = "--clear", description = "Remove it: the purpose's default text is used instead.")
    boolean clear;

    @Override
    void run(Store store, PrintStream out) {
        if (clear == (text != null)) {
            throw usage("give --text TEXT or --clear");
        }
        if (text != null) {
            Optional<Justification.Rule> broken = Justification.check(text.strip());
            if (broken.isPresent()) {
                throw usage("--text " + broken.get().description() + " (rule "
                        + broken.get().wire() + ")");
            }
        }
        Account a = store.accounts()
                .setDefaultJustification(
                        account(store), Optional.ofNullable(text).map(String::strip));
        out.println("account " + a.id() + ": default justification "
                + a.defaultJustification().map(t -> "'" + t + "'").orElse("cleared"));
    }
}
