package dev.cadastro.server.cli;

import dev.cadastro.server.OtpSecrets;
import dev.cadastro.server.cli.admin.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./cadastro admin otp-rotate-key}: adds a new random HMAC key to the SMS code keys file and
 * makes it current. Codes sent before keep checking with the key named in their dispatch; the server
 * reads the file at start, so restart it. Prints the key ids, never a key.
 */
@Command(
        name = "otp-rotate-key",
        description = {
            "Add a new SMS code key to <home>/secrets/otp-keys.properties (--home, default " + StoreOptions.DEFAULT_HOME
                    + ") and make it current (restart the server).",
            "Codes already sent keep checking with their own key; remove an old key.ID line an hour later."
        })
final class OtpRotateKeyCommand extends CliCommand {
    /** Its --home is admin's, inherited, so it may come before or after the subcommand. */
    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() {
        Path file =
                admin.store().homeFolder("otp-rotate-key").resolve("secrets").resolve("otp-keys.properties");
        if (!Files.exists(file)) {
            throw new CommandFailure("no SMS code keys at " + file + " (serve and demo create it on first start;"
                    + " with " + OtpSecrets.ENV + " set, rotate in that variable instead)");
        }
        String id = OtpSecrets.rotate(file, new SecureRandom());
        out().println("SMS code key " + id + " added to " + file + " and made current; restart the server to use it");
        return Cli.DONE;
    }
}
