package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.ApiKey;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code admin release-person}: person lookup released for a key, or withdrawn. */
@Command(name = "release-person", description = "Release person (CPF) lookup for a key, or withdraw it.")
public final class ReleasePersonCommand extends KeySubcommand {
    @Option(names = "--withdraw", description = "Withdraw the release instead of granting it.")
    boolean withdraw;

    @Override
    void run(Store store, PrintStream out) {
        ApiKey k = store.apiKeys().setPersonLookupReleased(prefix(store), !withdraw);
        out.println("key " + k.prefix() + ": person lookup " + (k.personLookupReleased() ? "released" : "withdrawn"));
    }
}
