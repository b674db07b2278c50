package dev.cadastro.server.cli.admin;

import picocli.CommandLine.Command;

/** {@code admin disable-api}: the API off for an account. */
@Command(name = "disable-api", description = "Disable the API for an account: its requests answer API_DESATIVADA.")
public final class DisableApiCommand extends ApiSwitchCommand {
    public DisableApiCommand() {
        super(false);
    }
}
