package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Scope;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin create-key}: an API key, printed this once and stored only as a hash. */
@Command(name = "create-key", description = "Issue an API key; it is printed this once and stored only as a hash.")
public final class CreateKeyCommand extends AccountSubcommand {
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
