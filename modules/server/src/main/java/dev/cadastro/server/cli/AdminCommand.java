package dev.cadastro.server.cli;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.CreditResult;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.ledger.StatementLine;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingService;
import dev.cadastro.core.time.SaoPauloTime;
import dev.cadastro.server.cli.admin.StoreOptions;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./cadastro admin}: the operator's commands on accounts, keys, credits and jobs, against the store
 * the server uses (see {@link StoreOptions}), also while that server runs. Keys are printed once, at
 * creation; afterwards only their prefixes are shown. An unknown account or key prefix is the same
 * one-line failure (exit status 3) in every subcommand.
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
            AdminCommand.CreateAccount.class,
            AdminCommand.ListAccounts.class,
            AdminCommand.ShowAccount.class,
            AdminCommand.SetPlan.class,
            AdminCommand.TopUp.class,
            AdminCommand.CreateKey.class,
            AdminCommand.ListKeys.class,
            AdminCommand.RevokeKey.class,
            AdminCommand.ApproveAccreditation.class,
            AdminCommand.ReleasePerson.class,
            AdminCommand.ContractPurpose.class,
            AdminCommand.RemovePurpose.class,
            PersonAdminCommands.SetJustification.class,
            PersonAdminCommands.SetBatchLimit.class,
            SetCompanyBatchLimitCommand.class,
            PersonAdminCommands.Audit.class,
            AdminCommand.DisableApi.class,
            AdminCommand.EnableApi.class,
            AdminCommand.Statement.class,
            AdminCommand.Jobs.class,
            SmsInboxCommand.class,
            OtpRotateKeyCommand.class,
            CallsRotateKeyCommand.class,
            CallsTokenCommand.class,
            CallsPushCommand.class
        })
public final class AdminCommand extends CliCommand {
    /** How admin prints an instant: the one format of the command line and the API. */
    private static final DateTimeFormatter WHEN = SaoPauloTime.FORMATTER;

    @Mixin
    StoreOptions store;

    private final Clock clock;

    public AdminCommand() {
        this(Clock.systemUTC());
    }

    public AdminCommand(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Integer call() {
        Cli.usageOnError(spec.commandLine());
        return Cli.USAGE;
    }

    /** The clock of entries and keys, for subcommand groups in their own classes. */
    Clock clock() {
        return clock;
    }

    /** The store flags, given before or after the subcommand (they are inherited: see {@link StoreOptions}). */
    StoreOptions store() {
        return store;
    }

    /** One admin subcommand: resolves the store, opens it, runs, closes it. */
    abstract static class Subcommand extends CliCommand {
        @ParentCommand
        AdminCommand admin;

        @Override
        public final Integer call() {
            try (Store opened = Store.open(admin.store.resolve(), admin.clock)) {
                run(opened, out());
            }
            return Cli.DONE;
        }

        abstract void run(Store store, PrintStream out);

        Clock clock() {
            return admin.clock;
        }
    }

    /** A subcommand on one account, which must exist. */
    abstract static class OnAccount extends Subcommand {
        @Option(names = "--account", paramLabel = "ID", required = true, description = "The account's number.")
        long accountNumber;

        /** The account, or the same failure in every subcommand when there is none. */
        final AccountId account(Store store) {
            return existingAccount(this, store, accountNumber);
        }
    }

    /** The account numbered {@code number}, or the one failure every subcommand gives when there is none. */
    static AccountId existingAccount(CliCommand command, Store store, long number) {
        if (number < 1) {
            throw command.usage("--account " + number + " must be a positive account number");
        }
        AccountId id = new AccountId(number);
        if (store.accounts().find(id).isEmpty()) {
            throw new CommandFailure(
                    "account " + id + " does not exist (./cadastro admin list-accounts lists the accounts)");
        }
        return id;
    }

    /** A subcommand on one API key, named by its prefix, which must exist. */
    abstract static class OnKey extends Subcommand {
        @Option(
                names = "--prefix",
                paramLabel = "P",
                required = true,
                description = "The key's 12-character prefix, as list-keys shows it.")
        String prefixText;

        final String prefix(Store store) {
            if (prefixText.startsWith("cad_")) {
                throw usage("--prefix wants the 12-character prefix, not the whole key");
            }
            if (store.apiKeys().find(prefixText).isEmpty()) {
                throw new CommandFailure("no API key has the prefix '" + prefixText
                        + "' (./cadastro admin list-keys --account ID lists an account's keys)");
            }
            return prefixText;
        }
    }

    @Command(name = "create-account", description = "Create an account (its LGPD accreditation starts pending).")
    static final class CreateAccount extends Subcommand {
        @Option(names = "--name", paramLabel = "NAME", required = true, description = "The account's name.")
        String name;

        @Option(
                names = "--plan",
                paramLabel = "NAME",
                defaultValue = "basico",
                description = "Plan name (default ${DEFAULT-VALUE}).")
        String plan;

        @Option(
                names = "--daily-limit",
                paramLabel = "N",
                defaultValue = "10_000",
                description = "Requests per day the plan allows (default ${DEFAULT-VALUE}).")
        long dailyLimit;

        @Override
        void run(Store store, PrintStream out) {
            if (name.isBlank()) {
                throw usage("--name must not be blank");
            }
            Plan p = new Plan(plan, within("--daily-limit", dailyLimit, 1, Long.MAX_VALUE));
            Account a = store.accounts().create(name, p);
            out.println("account " + a.id() + " created: " + a.name() + ", plan " + p.name() + " ("
                    + p.dailyRequestLimit() + " requests/day), accreditation " + a.accreditation());
        }
    }

    @Command(name = "list-accounts", description = "List the accounts.")
    static final class ListAccounts extends Subcommand {
        @Override
        void run(Store store, PrintStream out) {
            out.printf("%-8s %-30s %-12s %12s %-10s %s%n", "ID", "NAME", "PLAN", "DAILY", "LGPD", "API");
            for (Account a : store.accounts().list()) {
                out.printf(
                        "%-8s %-30s %-12s %12d %-10s %s%n",
                        a.id(),
                        a.name(),
                        a.plan().name(),
                        a.plan().dailyRequestLimit(),
                        a.accreditation(),
                        a.apiEnabled() ? "enabled" : "disabled");
            }
        }
    }

    @Command(name = "show-account", description = "Show an account, its balances and its keys.")
    static final class ShowAccount extends OnAccount {
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

    @Command(name = "set-plan", description = "Change an account's plan.")
    static final class SetPlan extends OnAccount {
        @Option(names = "--plan", paramLabel = "NAME", required = true, description = "Plan name.")
        String plan;

        @Option(names = "--daily-limit", paramLabel = "N", required = true, description = "Requests per day.")
        long dailyLimit;

        @Override
        void run(Store store, PrintStream out) {
            AccountId id = account(store);
            Account a = store.accounts()
                    .setPlan(id, new Plan(plan, within("--daily-limit", dailyLimit, 1, Long.MAX_VALUE)));
            out.println("account " + a.id() + ": plan " + a.plan().name() + " ("
                    + a.plan().dailyRequestLimit() + " requests/day)");
        }
    }

    @Command(
            name = "top-up",
            description = {
                "Add credits or SMS credits, once per reference: repeating a reference adds nothing.",
                "Give exactly one of --credits and --sms."
            })
    static final class TopUp extends OnAccount {
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

    @Command(name = "create-key", description = "Issue an API key; it is printed this once and stored only as a hash.")
    static final class CreateKey extends OnAccount {
        @Option(
                names = "--scopes",
                paramLabel = "a,b|all",
                required = true,
                completionCandidates = ScopeNames.class,
                description = "Comma-separated scopes, or all: ${COMPLETION-CANDIDATES}.")
        String scopes;

        @Option(
                names = "--label",
                paramLabel = "L",
                defaultValue = "",
                description = "A label to recognise the key by (default none).")
        String label;

        @Override
        void run(Store store, PrintStream out) {
            Set<Scope> parsed = scopes(scopes);
            AccountId id = account(store);
            IssuedApiKey issued = new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock(), new SecureRandom())
                    .issue(id, label, parsed);
            out.println("key " + issued.key().prefix() + " for account " + id + ", scopes "
                    + wire(issued.key().scopes()));
            out.println();
            out.println("  " + issued.secret());
            out.println();
            out.println("Store it now: it is shown this once and kept only as a hash.");
        }

        private Set<Scope> scopes(String text) {
            if (text.strip().equals("all")) {
                return EnumSet.allOf(Scope.class);
            }
            Set<Scope> result = EnumSet.noneOf(Scope.class);
            for (String s : text.split(",")) {
                try {
                    result.add(Scope.parse(s));
                } catch (IllegalArgumentException e) {
                    throw usage("--scopes: " + e.getMessage());
                }
            }
            return result;
        }
    }

    @Command(name = "list-keys", description = "List an account's keys by prefix (never the keys themselves).")
    static final class ListKeys extends OnAccount {
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

    @Command(name = "revoke-key", description = "Revoke a key: its next request answers CHAVE_REVOGADA.")
    static final class RevokeKey extends OnKey {
        @Override
        void run(Store store, PrintStream out) {
            ApiKey k = store.apiKeys().revoke(prefix(store), clock().instant());
            out.println("key " + k.prefix() + " revoked at "
                    + WHEN.format(k.revokedAt().orElseThrow())
                    + "; its next request answers CHAVE_REVOGADA");
        }
    }

    @Command(name = "approve-accreditation", description = "Approve an account's LGPD accreditation.")
    static final class ApproveAccreditation extends OnAccount {
        @Override
        void run(Store store, PrintStream out) {
            Account a = store.accounts().setAccreditation(account(store), AccreditationStatus.APPROVED);
            out.println("account " + a.id() + ": LGPD accreditation " + a.accreditation());
        }
    }

    @Command(name = "release-person", description = "Release person (CPF) lookup for a key, or withdraw it.")
    static final class ReleasePerson extends OnKey {
        @Option(names = "--withdraw", description = "Withdraw the release instead of granting it.")
        boolean withdraw;

        @Override
        void run(Store store, PrintStream out) {
            ApiKey k = store.apiKeys().setPersonLookupReleased(prefix(store), !withdraw);
            out.println(
                    "key " + k.prefix() + ": person lookup " + (k.personLookupReleased() ? "released" : "withdrawn"));
        }
    }

    @Command(name = "contract-purpose", description = "Contract a purpose for an account and the fields it releases.")
    static final class ContractPurpose extends OnAccount {
        @Option(
                names = "--purpose",
                paramLabel = "P",
                required = true,
                description = "One of ${COMPLETION-CANDIDATES}.")
        Purpose purpose;

        @Option(
                names = "--fields",
                paramLabel = "a,b",
                required = true,
                description = "Comma-separated fields it releases.")
        String fields;

        @Override
        void run(Store store, PrintStream out) {
            Set<String> released = Arrays.stream(fields.split(","))
                    .map(String::strip)
                    .filter(s -> !s.isEmpty())
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            Account a = store.accounts().contractPurpose(account(store), purpose, released);
            out.println("account " + a.id() + ": purpose " + purpose + " releases "
                    + a.purposes().get(purpose).stream().sorted().toList());
        }
    }

    @Command(name = "remove-purpose", description = "End a purpose an account contracted.")
    static final class RemovePurpose extends OnAccount {
        @Option(
                names = "--purpose",
                paramLabel = "P",
                required = true,
                description = "One of ${COMPLETION-CANDIDATES}.")
        Purpose purpose;

        @Override
        void run(Store store, PrintStream out) {
            Account a = store.accounts().removePurpose(account(store), purpose);
            out.println("account " + a.id() + ": purpose " + purpose + " removed; contracted: "
                    + a.purposes().keySet());
        }
    }

    @Command(name = "disable-api", description = "Disable the API for an account: its requests answer API_DESATIVADA.")
    static final class DisableApi extends OnAccount {
        @Override
        void run(Store store, PrintStream out) {
            Account a = store.accounts().setApiEnabled(account(store), false);
            out.println("account " + a.id() + ": API " + (a.apiEnabled() ? "enabled" : "disabled"));
        }
    }

    @Command(name = "enable-api", description = "Enable the API for an account again.")
    static final class EnableApi extends OnAccount {
        @Override
        void run(Store store, PrintStream out) {
            Account a = store.accounts().setApiEnabled(account(store), true);
            out.println("account " + a.id() + ": API " + (a.apiEnabled() ? "enabled" : "disabled"));
        }
    }

    /** Which balance a statement shows. */
    enum Kind {
        credits(CreditKind.CREDITS),
        sms(CreditKind.SMS_CREDITS);

        final CreditKind kind;

        Kind(CreditKind kind) {
            this.kind = kind;
        }
    }

    @Command(name = "statement", description = "An account's ledger entries, newest last, with the running balance.")
    static final class Statement extends OnAccount {
        @Option(
                names = "--kind",
                paramLabel = "KIND",
                defaultValue = "credits",
                description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
        Kind kind;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "50",
                description = "Most entries shown, 1 to 10000 (default ${DEFAULT-VALUE}).")
        long limit;

        @Override
        void run(Store store, PrintStream out) {
            int most = (int) within("--limit", limit, 1, 10_000);
            AccountId id = account(store);
            List<StatementLine> lines = store.ledger().statement(id, kind.kind, most);
            out.printf(
                    "%-8s %-25s %-10s %10s %10s  %s%n",
                    "SEQ", "WHEN", "TYPE", "AMOUNT", "BALANCE", "DESCRIPTION [KEY]");
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

    @Command(
            name = "jobs",
            description = {
                "List mailing export jobs (newest first), or fail a stuck one with --fail, releasing its hold.",
                "Times in ISO 8601 with the -03:00 offset (America/Sao_Paulo)."
            })
    static final class Jobs extends Subcommand {
        @Option(names = "--account", paramLabel = "ID", description = "Only this account's jobs.")
        Long accountNumber;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "50",
                converter = WholeNumber.LongConverter.class,
                description = "How many jobs to list (default ${DEFAULT-VALUE}).")
        long limit;

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
                account = Optional.of(existingAccount(this, store, accountNumber));
            }
            out.printf(
                    "%-32s %-8s %-11s %-5s %9s %9s %9s %-25s %s%n",
                    "JOB", "ACCOUNT", "STATE", "FMT", "REQUESTED", "DELIVERED", "CHARGED", "CREATED", "ENDED");
            for (MailingJob job : store.mailingJobs().list(account, (int) within("--limit", limit, 1, 10_000))) {
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

    /** The scopes' wire names and {@code all}, for the help and the shell completion. */
    static final class ScopeNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            List<String> names = new java.util.ArrayList<>();
            for (Scope s : Scope.values()) {
                names.add(s.wire());
            }
            names.add("all");
            return names.iterator();
        }
    }

    private static String wire(Set<Scope> scopes) {
        return scopes.stream().map(Scope::wire).sorted().collect(Collectors.joining(","));
    }
}
