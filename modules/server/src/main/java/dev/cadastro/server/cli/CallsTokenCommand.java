package dev.cadastro.server.cli;

import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./cadastro admin calls-token}: the bearer tokens of the call-records service, one integration
 * (a client's CRM sync) each. A token is printed once, when issued, and kept only as a hash; listings
 * show its first characters. {@code rotate} issues a new token and revokes the old ones in one
 * transaction, so a leaked token stops working the moment its replacement exists.
 */
@Command(
        name = "calls-token",
        synopsisSubcommandLabel = "SUBCOMMAND",
        description = {
            "Tokens of the call-records service: create, list, rotate, revoke. A token reads only its own",
            "integration's calls; it is printed once and stored only as a hash."
        },
        subcommands = {
            HelpCommand.class,
            CallsTokenCommand.Create.class,
            CallsTokenCommand.ListTokens.class,
            CallsTokenCommand.Rotate.class,
            CallsTokenCommand.Revoke.class
        })
final class CallsTokenCommand extends AdminGroup {
    /** One calls-token subcommand: resolves the store (admin's flags, given anywhere), runs. */
    abstract static class Sub extends CliCommand {
        @ParentCommand
        CallsTokenCommand group;

        @Override
        public final Integer call() {
            try (Store opened = group.open()) {
                run(opened.callTokens(), out());
            }
            return Cli.DONE;
        }

        abstract void run(CallTokens tokens, PrintStream out);

        /** The --integration value, checked against the naming rule before any store is touched. */
        final String name(String value) {
            if (!Integration.validName(value)) {
                throw usage("--integration '" + value + "' breaks the rule: 1 to 63 lower-case letters, digits,"
                        + " '-' or '_', starting with a letter or digit");
            }
            return value;
        }

        static void printIssued(PrintStream out, CallTokens.Issued issued, String what) {
            out.println("token " + issued.tokenId() + " " + what + " for integration "
                    + issued.integration().name() + " (integration "
                    + issued.integration().id() + ")");
            out.println();
            out.println("  " + issued.token());
            out.println();
            out.println("Store it now: it is shown this once and kept only as a hash. Send it as"
                    + " Authorization: Bearer <token>.");
        }
    }

    @Command(
            name = "create",
            description = "Issue a token for an integration, creating the integration when it is new; earlier tokens"
                    + " stay valid (use rotate to replace them).")
    static final class Create extends Sub {
        @Option(
                names = "--integration",
                paramLabel = "NAME",
                required = true,
                description = "The integration: 1 to 63 lower-case letters, digits, '-' or '_'.")
        String integration;

        @Override
        void run(CallTokens tokens, PrintStream out) {
            String n = name(integration);
            boolean existed = tokens.integration(n).isPresent();
            CallTokens.Issued issued = tokens.create(n);
            printIssued(out, issued, existed ? "issued" : "issued (new integration)");
        }
    }

    @Command(
            name = "rotate",
            description = "Issue a new token for an integration and revoke all its other tokens in the same"
                    + " transaction: the old ones are refused from now on.")
    static final class Rotate extends Sub {
        @Option(names = "--integration", paramLabel = "NAME", required = true, description = "An existing integration.")
        String integration;

        @Override
        void run(CallTokens tokens, PrintStream out) {
            String n = name(integration);
            CallTokens.Issued issued;
            try {
                issued = tokens.rotate(n);
            } catch (NoSuchElementException e) {
                throw unknown(n);
            }
            printIssued(out, issued, "issued");
            out.println("Every other token of " + n + " was revoked in the same transaction.");
        }
    }

    @Command(name = "revoke", description = "Revoke one token: its next request answers 401 nao_autorizado.")
    static final class Revoke extends Sub {
        @Option(
                names = "--token-id",
                paramLabel = "N",
                required = true,
                description = "The token's number, as list shows it.")
        long tokenId;

        @Override
        void run(CallTokens tokens, PrintStream out) {
            long id = within("--token-id", tokenId, 1, Long.MAX_VALUE);
            if (!tokens.revoke(id)) {
                throw new CommandFailure("no active token has the id " + id
                        + " (it does not exist or was already revoked; ./cadastro admin calls-token list shows them)");
            }
            out.println("token " + id + " revoked; its next request answers 401 nao_autorizado");
        }
    }

    @Command(name = "list", description = "List tokens, newest first, by id and prefix (never the tokens themselves).")
    static final class ListTokens extends Sub {
        @Option(
                names = "--integration",
                paramLabel = "NAME",
                description = "Only this integration's tokens (default: every integration's).")
        String integration;

        @Override
        void run(CallTokens tokens, PrintStream out) {
            Optional<String> only = Optional.ofNullable(integration).map(this::name);
            if (only.isPresent() && tokens.integration(only.get()).isEmpty()) {
                throw unknown(only.get());
            }
            List<CallTokens.TokenInfo> list = tokens.list(only);
            out.printf("%-8s %-24s %-10s %-25s %s%n", "ID", "INTEGRATION", "PREFIX", "CREATED", "STATE");
            for (CallTokens.TokenInfo t : list) {
                out.printf(
                        "%-8d %-24s %-10s %-25s %s%n",
                        t.tokenId(),
                        t.integration().name(),
                        t.prefix(),
                        WHEN.format(t.createdAt()),
                        t.revokedAt().map(r -> "revoked " + WHEN.format(r)).orElse("active"));
            }
        }
    }

    static CommandFailure unknown(String name) {
        return new CommandFailure("integration '" + name + "' does not exist (./cadastro admin calls-token create"
                + " --integration " + name + " creates it)");
    }
}
