package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;

/** {@code admin show-account}: one account, its purposes, balances and key prefixes. */
@Command(name = "show-account", description = "Show an account, its balances and its keys.")
public final class ShowAccountCommand extends AccountSubcommand {
    @Override
    void run(Store store, PrintStream out) {
        AccountId id = account(store);
        Account a = store.accounts().require(id);
        out.println("account     " + a.id() + "  " + a.name());
        out.println("plan        " + a.plan().name() + ", " + a.plan().dailyRequestLimit() + " requests/day");
        out.println("api         " + (a.apiEnabled() ? "enabled" : "disabled"));
        out.println("lgpd        " + a.accreditation());
        out.println("batch limit " + a.personBatchLimit() + " CPFs");
        for (Map.Entry<Purpose, Set<String>> p : a.purposes().entrySet()) {
            out.println("purpose     " + p.getKey() + ": "
                    + p.getValue().stream().sorted().toList());
        }
        for (CreditKind kind : CreditKind.values()) {
            Balance b = store.ledger().balance(id, kind);
            out.println(String.format(
                    Locale.ROOT,
                    "%-11s %d posted, %d held, %d available",
                    kind.name().toLowerCase(Locale.ROOT),
                    b.posted(),
                    b.held(),
                    b.available()));
        }
        out.println("keys        "
                + store.apiKeys().list(id).stream()
                        .map(k -> k.prefix() + (k.revoked() ? " (revoked)" : ""))
                        .toList());
    }
}
