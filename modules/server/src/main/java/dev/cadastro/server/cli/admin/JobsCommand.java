package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.server.cli.CommandFailure;
import dev.cadastro.server.cli.ListLimit;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code admin jobs}: the mailing export jobs, or one stuck job failed by the operator. */
@Command(
        name = "jobs",
        description = {
            "List mailing export jobs (newest first), or fail a stuck one with --fail, releasing its hold.",
            "Times in ISO 8601 with the -03:00 offset (America/Sao_Paulo)."
        })
public final class JobsCommand extends AdminSubcommand {
    @Option(names = "--account", paramLabel = "ID", description = "Only this account's jobs.")
    Long accountNumber;

    @Mixin
    ListLimit limit = new ListLimit(50, 10_000);

    @Option(
            names = "--fail",
            paramLabel = "JOB_ID",
            description = "Fail this processando job now: nothing is charged, its hold is released.")
    String fail;

    @Option(
            names = "--reason",
            paramLabel = "TEXT",
            defaultValue = "stuck",
            description = "Why, kept with the failed job (default ${DEFAULT-VALUE}).")
    String reason;

    @Override
    void run(Store store, PrintStream out) {
        if (fail != null) {
            boolean failed;
            try {
                failed = MailingService.failByOperator(store.mailingJobs(), fail, reason, clock().instant());
            } catch (NotFoundException e) {
                throw new CommandFailure(
                        "no mailing job has the id '" + fail + "' (./cadastro admin jobs lists the jobs)");
            }
            out.println(
                    failed
                            ? "job " + fail + " failed; its hold was released"
                            : "job " + fail + " had already ended; nothing changed");
            return;
        }
        Optional<AccountId> account = Optional.empty();
        if (accountNumber != null) {
            account = Optional.of(existingAccount(store, accountNumber));
        }
        out.printf(
                "%-32s %-8s %-11s %-5s %9s %9s %9s %-25s %s%n",
                "JOB", "ACCOUNT", "STATE", "FMT", "REQUESTED", "DELIVERED", "CHARGED", "CREATED", "ENDED");
        for (MailingJob job : store.mailingJobs().list(account, limit.value())) {
            String delivered = "-";
            String charged = "-";
            String ended = "-";
            switch (job.outcome().orElse(null)) {
                case null -> {}
                case MailingJob.Delivered d -> {
                    delivered = Integer.toString(d.delivered());
                    charged = Long.toString(d.charged());
                    ended = WHEN.format(d.finishedAt());
                }
                case MailingJob.Failed f -> {
                    charged = "0";
                    ended = WHEN.format(f.finishedAt()) + " " + f.code() + ": " + f.message();
                }
            }
            out.printf(
                    "%-32s %-8s %-11s %-5s %9d %9s %9s %-25s %s%n",
                    job.id(),
                    job.account(),
                    job.state().wire(),
                    job.formato().wire(),
                    job.quantidade(),
                    delivered,
                    charged,
                    WHEN.format(job.createdAt()),
                    ended);
        }
    }
}
