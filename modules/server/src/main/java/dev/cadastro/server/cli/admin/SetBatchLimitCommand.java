package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin set-batch-limit}: the account's person batch limit. */
@Command(
        name = "set-batch-limit",
        description = "Set the account's contracted batch size of POST /v1/pessoas/lote (default "
                + Account.DEFAULT_PERSON_BATCH_LIMIT + ").")
public final class SetBatchLimitCommand extends AccountSubcommand {
    @Option(names = "--limit", paramLabel = "N", required = true, description = "CPFs per batch, 1 to 10000.")
    long limit;

    @Override
    void run(Store store, PrintStream out) {
        int n = (int) within("--limit", limit, 1, 10_000);
        Account a = store.accounts().setPersonBatchLimit(account(store), n);
        out.println("account " + a.id() + ": person batch limit " + a.personBatchLimit());
    }
}
