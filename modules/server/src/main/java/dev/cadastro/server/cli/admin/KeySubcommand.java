package dev.cadastro.server.cli.admin;

import dev.cadastro.server.cli.CommandFailure;
import dev.cadastro.store.Store;
import picocli.CommandLine.Option;

/** An admin subcommand on one API key, named by its prefix, which must exist. */
public abstract class KeySubcommand extends AdminSubcommand {
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
