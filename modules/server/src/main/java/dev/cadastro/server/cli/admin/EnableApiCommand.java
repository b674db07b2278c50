package dev.cadastro.server.cli.admin;

import picocli.CommandLine.Command;

/** {@code admin enable-api}: the API on again for an account. */
@Command(name = "enable-api", description = "Enable the API for an account again.")
public final class EnableApiCommand extends ApiSwitchCommand {
    public EnableApiCommand() {
        super(true);
    }
}
