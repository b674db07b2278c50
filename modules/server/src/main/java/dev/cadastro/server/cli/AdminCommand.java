package dev.cadastro.server.cli;

import dev.cadastro.server.cli.admin.ApproveAccreditationCommand;
import dev.cadastro.server.cli.admin.AuditCommand;
import dev.cadastro.server.cli.admin.ContractPurposeCommand;
import dev.cadastro.server.cli.admin.CreateAccountCommand;
import dev.cadastro.server.cli.admin.CreateKeyCommand;
import dev.cadastro.server.cli.admin.DisableApiCommand;
import dev.cadastro.server.cli.admin.EnableApiCommand;
import dev.cadastro.server.cli.admin.JobsCommand;
import dev.cadastro.server.cli.admin.ListAccountsCommand;
import dev.cadastro.server.cli.admin.ListKeysCommand;
import dev.cadastro.server.cli.admin.ReleasePersonCommand;
import dev.cadastro.server.cli.admin.RemovePurposeCommand;
import dev.cadastro.server.cli.admin.RevokeKeyCommand;
import dev.cadastro.server.cli.admin.SetBatchLimitCommand;
import dev.cadastro.server.cli.admin.SetCompanyBatchLimitCommand;
import dev.cadastro.server.cli.admin.SetJustificationCommand;
import dev.cadastro.server.cli.admin.SetPlanCommand;
import dev.cadastro.server.cli.admin.ShowAccountCommand;
import dev.cadastro.server.cli.admin.StatementCommand;
import dev.cadastro.server.cli.admin.TopUpCommand;
import java.time.Clock;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/**
 * {@code ./cadastro admin}: the operator's commands on accounts, keys, credits and jobs, against the store
 * the server uses (see {@link StoreGroupCommand}), also while that server runs. Keys are printed once, at
 * creation; afterwards only their prefixes are shown. An unknown account or key prefix is the same
 * one-line failure (exit status 3) in every subcommand. Each subcommand is a class of its own, in {@code
 * dev.cadastro.server.cli.admin} or, for the groups, beside this one.
 */
@Command(
        name = "admin",
        synopsisSubcommandLabel = "SUBCOMMAND",
        description = {
            "Accounts, API keys and credits, on the store a server uses; works while serve or demo runs.",
            "The store flags may come before or after the subcommand."
        },
        subcommands = {
            HelpCommand.class,
            CreateAccountCommand.class,
            ListAccountsCommand.class,
            ShowAccountCommand.class,
            SetPlanCommand.class,
            TopUpCommand.class,
            CreateKeyCommand.class,
            ListKeysCommand.class,
            RevokeKeyCommand.class,
            ApproveAccreditationCommand.class,
            ReleasePersonCommand.class,
            ContractPurposeCommand.class,
            RemovePurposeCommand.class,
            SetJustificationCommand.class,
            SetBatchLimitCommand.class,
            SetCompanyBatchLimitCommand.class,
            AuditCommand.class,
            DisableApiCommand.class,
            EnableApiCommand.class,
            StatementCommand.class,
            JobsCommand.class,
            SmsInboxCommand.class,
            OtpRotateKeyCommand.class,
            CallsRotateKeyCommand.class,
            CallsTokenCommand.class,
            CallsPushCommand.class
        })
public final class AdminCommand extends StoreGroupCommand {
    public AdminCommand() {
        this(Clock.systemUTC());
    }

    public AdminCommand(Clock clock) {
        super(clock);
    }
}
