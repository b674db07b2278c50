package dev.cadastro.server.cli.admin;

import dev.cadastro.core.account.ApiKey;
import dev.cadastro.store.Store;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code admin revoke-key}: a key revoked now. */
@Command(name = "revoke-key", description = "Revoke a key: its next request answers CHAVE_REVOGADA.")
public final class RevokeKeyCommand extends KeySubcommand {
    @Override
    void run(Store store, PrintStream out) {
        ApiKey k = store.apiKeys().revoke(prefix(store), clock().instant());
        out.println("key " + k.prefix() + " revoked at "
                + WHEN.format(k.revokedAt().orElseThrow())
                + "; its next request answers CHAVE_REVOGADA");
    }
}
