package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code admin list-keys}: an account's keys by prefix. */
@Command(name = "list-keys", description = "List an account's keys by prefix (never the keys themselves).")
public final class ListKeysCommand extends AccountSubcommand {
    @Override
    void run(Store store, PrintStream out) {
        AccountId id = account(store);
        out.printf("%-14s %-25s %-9s %-8s %s%n", "PREFIX", "CREATED", "STATE", "PESSOAS", "SCOPES  LABEL");
        for (ApiKey k : store.apiKeys().list(id)) {
            out.printf(
                    "%-14s %-25s %-9s %-8s %s  %s%n",
                    k.prefix(),
                    WHEN.format(k.createdAt()),
                    k.revoked() ? "revoked" : "active",
                    k.personLookupReleased() ? "released" : "-",
                    wire(k.scopes()),
                    k.label());
        }
    }
}
