package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.StatementLine;
import dev.cadastro.server.cli.ListLimit;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code admin statement}: an account's ledger entries with the running balance. */
@Command(name = "statement", description = "An account's ledger entries, newest last, with the running balance.")
public final class StatementCommand extends AccountSubcommand {
    @Option(
            names = "--kind",
            paramLabel = "KIND",
            defaultValue = "credits",
            description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Kind kind;

    /** Which balance a statement shows. */
    enum Kind {
        credits(CreditKind.CREDITS),
        sms(CreditKind.SMS_CREDITS);

        final CreditKind kind;

        Kind(CreditKind kind) {
            this.kind = kind;
        }
    }

    @Mixin
    ListLimit limit = new ListLimit(50, 10_000);

    @Override
    void run(Store store, PrintStream out) {
        int most = limit.value();
        AccountId id = account(store);
        List<StatementLine> lines = store.ledger().statement(id, kind.kind, most);
        out.printf("%-8s %-25s %-10s %10s %10s  %s%n", "SEQ", "WHEN", "TYPE", "AMOUNT", "BALANCE", "DESCRIPTION [KEY]");
        for (StatementLine l : lines) {
            out.printf(
                    "%-8d %-25s %-10s %+10d %10d  %s [%s]%n",
                    l.sequence(),
                    WHEN.format(l.at()),
                    l.type(),
                    l.amount(),
                    l.runningBalance(),
                    l.description(),
                    l.key());
        }
        Balance b = store.ledger().balance(id, kind.kind);
        out.println("balance " + b.posted() + ", held " + b.held() + ", available " + b.available());
    }
}
