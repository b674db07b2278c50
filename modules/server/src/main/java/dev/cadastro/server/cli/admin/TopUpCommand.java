package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.CreditResult;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin top-up}: credits or SMS credits, once per payment reference. */
@Command(
        name = "top-up",
        description = {
            "Add credits or SMS credits, once per reference: repeating a reference adds nothing.",
            "Give exactly one of --credits and --sms."
        })
public final class TopUpCommand extends AccountSubcommand {
    @Option(names = "--credits", paramLabel = "N", description = "Credits to add.")
    Long credits;

    @Option(names = "--sms", paramLabel = "N", description = "SMS credits to add.")
    Long sms;

    @Option(
            names = "--reference",
            paramLabel = "R",
            description = "The payment's reference, so a retry adds nothing (default: a new random one).")
    String reference;

    @Override
    void run(Store store, PrintStream out) {
        if ((credits == null) == (sms == null)) {
            throw usage("give exactly one of --credits N and --sms N");
        }
        AccountId id = account(store);
        CreditKind kind = credits != null ? CreditKind.CREDITS : CreditKind.SMS_CREDITS;
        long amount = credits != null
                ? within("--credits", credits, 1, Long.MAX_VALUE)
                : within("--sms", sms, 1, Long.MAX_VALUE);
        String ref = reference != null ? reference : UUID.randomUUID().toString();
        IdempotencyKey key;
        try {
            key = IdempotencyKey.of("topup:" + id + ":" + ref);
        } catch (IllegalArgumentException e) {
            throw usage("--reference: " + e.getMessage());
        }
        CreditResult r = store.ledger().topUp(id, kind, amount, key, "recarga " + ref);
        if (r.replay()) {
            out.println("account " + id + ": reference " + ref + " was already applied; nothing added; " + kind
                    + " balance " + r.balanceAfter());
        } else {
            out.println("account " + id + ": +" + r.credited() + " " + kind + ", balance " + r.balanceAfter()
                    + " (reference " + ref + "; repeat it to retry safely)");
        }
    }
}
