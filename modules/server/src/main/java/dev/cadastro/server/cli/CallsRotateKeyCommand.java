package dev.cadastro.server.cli;

import dev.cadastro.server.CallsSecrets;
import dev.cadastro.server.cli.admin.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./cadastro admin calls-rotate-key}: adds a new random HMAC key to the call-records keys file
 * (the keys of cursors and recording links) and makes it current, or does the two steps apart for
 * several servers. Prints key ids, never a key.
 */
@Command(
        name = "calls-rotate-key",
        description = {
            "Add a new call-records key (signs list cursors and recording links) to"
                    + " <home>/secrets/calls-keys.properties (--home, default " + StoreOptions.DEFAULT_HOME
                    + ") and make it current; restart the server.",
            "Old keys stay: dropping a key.ID line breaks every url_gravacao signed with it (stored links are"
                    + " permanent and answer 403 after) and every cursor in flight that names it (400).",
            "Several servers: --add-only on each and restart them all, then --make-current ID on each and"
                    + " restart again, so no server signs with a key another cannot verify."
        })
final class CallsRotateKeyCommand extends CliCommand {
    /** Its --home is admin's, inherited, so it may come before or after the subcommand. */
    @ParentCommand
    AdminCommand admin;

    @Option(
            names = "--add-only",
            description = "Add the new key without making it current (step 1 of a rotation across servers).")
    boolean addOnly;

    @Option(
            names = "--make-current",
            paramLabel = "ID",
            description = "Make the key ID, already added, the one that signs (step 2); adds nothing.")
    String makeCurrent;

    @Override
    public Integer call() {
        if (addOnly && makeCurrent != null) {
            throw usage("--add-only and --make-current are the two steps of a rotation; give one");
        }
        Path file = CallsSecrets.fileUnder(admin.store().homeFolder("calls-rotate-key"));
        if (!Files.exists(file)) {
            throw new CommandFailure("no call-records keys at " + file + " (serve with --calls-port and demo create"
                    + " it on first start; with " + CallsSecrets.ENV + " set, rotate in that variable instead)");
        }
        if (makeCurrent != null) {
            try {
                CallsSecrets.KEYRING.makeCurrent(file, makeCurrent);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(e.getMessage());
            }
            out().println("call-records key " + makeCurrent + " made current in " + file
                    + "; restart the server to sign with it");
            return Cli.DONE;
        }
        if (addOnly) {
            String id = CallsSecrets.KEYRING.add(file, new SecureRandom());
            out().println("call-records key " + id + " added to " + file + " (not current); restart every server,"
                    + " then run: ./cadastro admin calls-rotate-key --home "
                    + admin.store().homeName() + " --make-current " + id);
            return Cli.DONE;
        }
        String id = CallsSecrets.KEYRING.rotate(file, new SecureRandom());
        out().println("call-records key " + id + " added to " + file + " and made current; restart the server to"
                + " use it (keep the old keys: links signed with them stay valid only while they are there)");
        return Cli.DONE;
    }
}
