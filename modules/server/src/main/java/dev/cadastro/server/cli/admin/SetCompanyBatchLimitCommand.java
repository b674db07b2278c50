package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin set-company-batch-limit}: the account's contracted size of {@code POST /v1/empresas/lote}. */
@Command(
        name = "set-company-batch-limit",
        description = "Set the account's contracted batch size of POST /v1/empresas/lote (default "
                + Account.DEFAULT_COMPANY_BATCH_LIMIT + ").")
public final class SetCompanyBatchLimitCommand extends AccountSubcommand {
    @Option(
            names = "--limit",
            paramLabel = "N",
            required = true,
            description = "CNPJs per batch, 1 to " + Account.MAX_COMPANY_BATCH_LIMIT + ".")
    long limit;

    @Override
    void run(Store store, PrintStream out) {
        int n = (int) within("--limit", limit, 1, Account.MAX_COMPANY_BATCH_LIMIT);
        Account a = store.accounts().setCompanyBatchLimit(account(store), n);
        out.println("account " + a.id() + ": company batch limit " + a.companyBatchLimit());
    }
}
