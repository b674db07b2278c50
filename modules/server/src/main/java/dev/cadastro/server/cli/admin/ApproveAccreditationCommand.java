package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code admin approve-accreditation}: an account's LGPD accreditation approved. */
@Command(name = "approve-accreditation", description = "Approve an account's LGPD accreditation.")
public final class ApproveAccreditationCommand extends AccountSubcommand {
    @Override
    void run(Store store, PrintStream out) {
        Account a = store.accounts().setAccreditation(account(store), AccreditationStatus.APPROVED);
        out.println("account " + a.id() + ": LGPD accreditation " + a.accreditation());
    }
}
